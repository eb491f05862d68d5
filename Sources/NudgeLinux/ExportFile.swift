import Glibc
import NudgeCore

/// A file another program exported (a health export, a tracker's backup), on disk and read at
/// offsets a chunk at a time, never whole: opened without waiting (a synced link to a FIFO
/// never blocks) and held to a regular file. A zip is read through `ZipReader`.
public struct ExportFile {
  /// What a file is, by its first bytes.
  public enum Kind: Equatable, Sendable {
    case zip, xml, sqlite, unknown
  }

  /// Why a file is not read: one line, without the file's name (the caller says it).
  public struct Failure: Error, Equatable, Sendable {
    public var message: String
    /// What this computer lacks (zlib), not what the file is.
    public var unavailable = false
  }

  /// The size of each chunk handed over.
  public static let chunkSize = 1 << 20

  public let path: String
  private let descriptor: Int32
  /// Its size and modification time when opened: what tells one export from the next.
  public let size: Int
  public let modified: Int

  public init(path: String) throws(Failure) {
    // never blocks on a FIFO (a synced link to one): opened without waiting, then held to a
    // regular file
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else {
      throw Failure(message: String(cString: strerror(errno)).lowercased())
    }
    var info = stat()
    guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
      Glibc.close(fd)
      throw Failure(message: "it is not a regular file")
    }
    self.path = path
    descriptor = fd
    size = Int(info.st_size)
    // nanoseconds since 1970 (a time past 2262 or before 1677, which would not fit, as seconds:
    // any number that changes with the file will do)
    let (nanoseconds, overflow) = Int(info.st_mtim.tv_sec).multipliedReportingOverflow(
      by: 1_000_000_000)
    modified = overflow ? Int(info.st_mtim.tv_sec) : nanoseconds &+ Int(info.st_mtim.tv_nsec)
  }

  /// Closes the file.
  public func close() { Glibc.close(descriptor) }

  /// What the file is, by its first 16 bytes.
  public func kind() -> Kind {
    let head = bytes(at: 0, count: 16)
    if head.starts(with: [0x50, 0x4B, 0x03, 0x04]) || head.starts(with: [0x50, 0x4B, 0x05, 0x06]) {
      return .zip
    }
    if head.starts(with: Array("SQLite format 3\0".utf8)) { return .sqlite }
    // XML: after a byte order mark and white space, a '<'
    var rest = head[...]
    if rest.starts(with: [0xEF, 0xBB, 0xBF]) { rest = rest.dropFirst(3) }
    rest = rest.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
    return rest.first == 0x3C ? .xml : .unknown
  }

  /// Up to `count` bytes from `offset` (fewer at the file's end or on a read error).
  public func bytes(at offset: Int, count: Int) -> [UInt8] {
    guard count > 0, offset >= 0 else { return [] }
    return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
      var done = 0
      while done < count {
        let read = pread(
          descriptor, buffer.baseAddress! + done, count - done, off_t(offset + done))
        if read < 0 && errno == EINTR { continue }
        if read <= 0 { break }
        done += read
      }
      initialized = done
    }
  }
}
