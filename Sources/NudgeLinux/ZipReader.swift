import CZip
import NudgeCore

/// An `ExportFile` read as a zip, never extracted: its table of contents checked
/// (`ZipDirectory`: encrypted entries, escaping paths and bombs refused), an entry inflated a
/// chunk at a time with zlib (loaded on first use) and held to its declared size and CRC.
public struct ZipReader {
  public typealias Failure = ExportFile.Failure
  public let file: ExportFile

  public init(file: ExportFile) { self.file = file }

  /// The zip's table of contents.
  public func directory() throws(ZipDirectory.Refusal) -> ZipDirectory {
    let size = file.size
    let tailLength = min(size, ZipDirectory.tailLength)
    let tail = file.bytes(at: size - tailLength, count: tailLength)
    let central = try ZipDirectory.centralDirectory(tail: tail, fileSize: size) {
      file.bytes(at: $0, count: 56)
    }
    let table = file.bytes(at: central.offset, count: central.length)
    return try ZipDirectory(central: table, count: central.count, fileSize: size)
  }

  /// The whole of a small entry of the zip (`directory`'s), inflated and checked; an entry
  /// over `limit` bytes is refused before it is read.
  public func entryBytes(_ entry: ZipDirectory.Entry, limit: Int) throws -> [UInt8] {
    guard entry.size <= limit else {
      throw Failure(
        message:
          "its \(ZipDirectory.shown(entry.name)) is \(entry.size) bytes, more than the \(limit) Nudge reads"
      )
    }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(entry.size)
    try stream(entry, label: ZipDirectory.shown(entry.name)) { bytes += $0 }
    return bytes
  }

  /// Hands `body` the entry's bytes a chunk at a time, inflated, checked against its declared
  /// size and CRC as they come; `label` names it in a refusal.
  public func stream(
    _ entry: ZipDirectory.Entry, label: String, _ body: ([UInt8]) throws -> Void
  ) throws {
    let size = file.size
    let dataAt: Int
    do {
      dataAt = try ZipDirectory.dataOffset(
        of: entry, localHeader: file.bytes(at: entry.headerOffset, count: 30))
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
        let chunk = file.bytes(
          at: dataAt + at, count: min(ExportFile.chunkSize, entry.compressedSize - at))
        guard !chunk.isEmpty else { throw Failure(message: "its \(label) is cut short") }
        try hand(chunk)
        at += chunk.count
      }
    } else if entry.method == 8 {
      guard let stream = nd_inflater_new() else { throw Failure(message: "zlib could not start") }
      defer { nd_inflater_free(stream) }
      var output = [UInt8](repeating: 0, count: ExportFile.chunkSize)
      var read = 0
      var ended = false
      while !ended {
        let input = file.bytes(
          at: dataAt + read, count: min(ExportFile.chunkSize, entry.compressedSize - read))
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
