internal import CDesktop
import FoundationEssentials
import Glibc

/// Gives back, before a long wait, the memory start-up touched and the wait does not need: the
/// pages of Nudge's own executable (code and read-only data; clean, so the kernel reads them
/// again from the page cache if they are used after the wait) and free heap.
public enum IdleMemory {
  /// `MADV_PAGEOUT` (Linux 5.4): reclaim these pages now.
  static let pageOut: Int32 = 21

  /// Releases the executable's clean pages and trims the heap; a no-op where the kernel does
  /// not support it.
  public static func release() {
    for (start, length) in codeRanges {
      _ = madvise(UnsafeMutableRawPointer(bitPattern: start), length, pageOut)
    }
    _ = malloc_trim(0)
  }

  /// For a command that runs and ends: the heap keeps what it frees for the command's later
  /// allocations, large ones too, instead of unmapping them (above 128 KiB by default) or
  /// trimming its top, each time to fault fresh zeroed pages in again. Reading ten years of
  /// history grows arrays of megabytes: a third of its page faults (3,600 → 2,600), a tenth of
  /// its time. Not for the daemon, which lives on (a waiting reminder trims, `release`).
  /// False when the C library refused a setting.
  @discardableResult public static func keepFreedHeap() -> Bool {
    let mapped = mallopt(M_MMAP_THRESHOLD, 32 << 20)  // glibc's largest (HEAP_MAX_SIZE / 2)
    let trimmed = mallopt(M_TRIM_THRESHOLD, 256 << 20)
    return mapped == 1 && trimmed == 1
  }

  /// How many chunks the heap has mapped on their own (mallinfo2's hblks).
  static var mappedChunks: Int { Int(mallinfo2().hblks) }

  /// Where the executable's code is mapped: read once (the mappings do not move).
  static let codeRanges: [(start: UInt, length: Int)] = {
    guard let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8),
      let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    else { return [] }
    var ranges: [(start: UInt, length: Int)] = []
    for line in maps.split(separator: "\n") {
      let fields = line.split(separator: " ", omittingEmptySubsequences: true)
      // only the executable's code and constants (r-x): clean pages of the file, never the
      // relocated read-only data (r--, dirty) or the writable data
      guard fields.count >= 6, fields[5] == executable, fields[1].hasPrefix("r-x") else { continue }
      let bounds = fields[0].split(separator: "-").compactMap { UInt(String($0), radix: 16) }
      guard bounds.count == 2, bounds[1] > bounds[0] else { continue }
      ranges.append((bounds[0], Int(bounds[1] - bounds[0])))
    }
    return ranges
  }()
}
