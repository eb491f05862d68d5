import CZip
import Glibc
import NudgeCore

/// An Apple Health export on disk, read a chunk at a time and never whole: `export.xml` as it
/// is, or the `export.xml` inside an `export.zip`, inflated as it is read and never extracted.
public struct HealthExportFile {
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

  /// Hands `body` the export's XML a chunk at a time: the file itself, or its zip's
  /// `export.xml` inflated (checked against its declared size and CRC as it goes).
  public func streamXML(_ body: ([UInt8]) throws -> Void) throws {
    switch kind() {
    case .xml:
      var at = 0
      while at < size {
        let chunk = bytes(at: at, count: Self.chunkSize)
        guard !chunk.isEmpty else { throw Failure(message: "it could not be read past byte \(at)") }
        try body(chunk)
        at += chunk.count
      }
    case .zip:
      try streamZipEntry(body)
    case .sqlite:
      throw Failure(message: "it is an SQLite database, not an Apple Health export")
    case .unknown:
      throw Failure(message: "it is neither an export.zip nor an export.xml")
    }
  }

  /// The zip's table of contents.
  public func zipDirectory() throws(ZipDirectory.Refusal) -> ZipDirectory {
    let tailLength = min(size, ZipDirectory.tailLength)
    let tail = bytes(at: size - tailLength, count: tailLength)
    let central = try ZipDirectory.centralDirectory(tail: tail, fileSize: size) {
      bytes(at: $0, count: 56)
    }
    let table = bytes(at: central.offset, count: central.length)
    return try ZipDirectory(central: table, count: central.count, fileSize: size)
  }

  private func streamZipEntry(_ body: ([UInt8]) throws -> Void) throws {
    let directory: ZipDirectory
    do { directory = try zipDirectory() } catch { throw Failure(message: error.message) }
    guard let entry = directory.healthExport else {
      throw Failure(message: "the zip holds no export.xml (is it an Apple Health export?)")
    }
    try streamZipEntry(entry, label: "export.xml", body)
  }

  /// The whole of a small entry of the zip (`directory`'s), inflated and checked; an entry
  /// over `limit` bytes is refused before it is read.
  public func zipEntryBytes(_ entry: ZipDirectory.Entry, limit: Int) throws -> [UInt8] {
    guard entry.size <= limit else {
      throw Failure(
        message:
          "its \(ZipDirectory.shown(entry.name)) is \(entry.size) bytes, more than the \(limit) Nudge reads"
      )
    }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(entry.size)
    try streamZipEntry(entry, label: ZipDirectory.shown(entry.name)) { bytes += $0 }
    return bytes
  }

  /// Hands `body` the entry's bytes a chunk at a time, inflated, checked against its declared
  /// size and CRC as they come; `label` names it in a refusal.
  func streamZipEntry(
    _ entry: ZipDirectory.Entry, label: String, _ body: ([UInt8]) throws -> Void
  ) throws {
    let dataAt: Int
    do {
      dataAt = try ZipDirectory.dataOffset(
        of: entry, localHeader: bytes(at: entry.headerOffset, count: 30))
    } catch { throw Failure(message: error.message) }
    guard dataAt <= size, entry.compressedSize <= size - dataAt else {
      throw Failure(message: "its \(label) runs past the zip's end")
    }
    var crc: UInt32 = 0
    var produced = 0
    func hand(_ chunk: [UInt8]) throws {
      produced += chunk.count
      guard produced <= entry.size else {
        throw Failure(
          message: "its \(label) inflates past the \(entry.size) bytes it declares (a zip bomb)")
      }
      crc = nd_crc32(crc, chunk, chunk.count)
      try body(chunk)
    }
    if let failure = nd_zlib_load() {
      throw Failure(
        message: "zlib could not be loaded (\(String(cString: failure))); install zlib1g",
        unavailable: true)
    }
    if entry.method == 0 {
      var at = 0
      while at < entry.compressedSize {
        let chunk = bytes(at: dataAt + at, count: min(Self.chunkSize, entry.compressedSize - at))
        guard !chunk.isEmpty else { throw Failure(message: "its \(label) is cut short") }
        try hand(chunk)
        at += chunk.count
      }
    } else if entry.method == 8 {
      guard let stream = nd_inflater_new() else { throw Failure(message: "zlib could not start") }
      defer { nd_inflater_free(stream) }
      var output = [UInt8](repeating: 0, count: Self.chunkSize)
      var read = 0
      var ended = false
      while !ended {
        let input = bytes(
          at: dataAt + read, count: min(Self.chunkSize, entry.compressedSize - read))
        read += input.count
        var used = 0
        var made = 0
        repeat {
          var usedNow = 0
          made = 0
          let status = input.withUnsafeBufferPointer { inBytes in
            output.withUnsafeMutableBufferPointer { outBytes in
              nd_inflate(
                stream, inBytes.baseAddress.map { $0 + used }, input.count - used, &usedNow,
                outBytes.baseAddress, outBytes.count, &made)
            }
          }
          guard status >= 0 else {
            throw Failure(message: "its \(label) is not valid deflate data (a damaged zip)")
          }
          used += usedNow
          if made > 0 { try hand(Array(output[0..<made])) }
          if status == 1 {
            ended = true
          } else if usedNow == 0 && made == 0 {
            break  // zlib wants more input
          }
        } while !ended && (used < input.count || made == output.count)
        if !ended && input.isEmpty {
          throw Failure(message: "its \(label) is cut short after \(produced) bytes")
        }
      }
    } else {
      throw Failure(
        message:
          "its \(label) is compressed with method \(entry.method), which Nudge does not read")
    }
    guard produced == entry.size else {
      throw Failure(
        message: "its \(label) inflates to \(produced) bytes, not the \(entry.size) it declares")
    }
    guard crc == entry.crc else {
      throw Failure(message: "its \(label) fails its checksum (a damaged zip)")
    }
  }
}
