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
