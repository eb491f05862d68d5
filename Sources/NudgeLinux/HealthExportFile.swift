import NudgeCore

/// Apple Health's export on disk: `export.xml` as it is, or the `export.xml` inside an
/// `export.zip`, inflated as it is read and never extracted.
extension ExportFile {
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
      let zip = ZipReader(file: self)
      let directory: ZipDirectory
      do { directory = try zip.directory() } catch { throw Failure(message: error.message) }
      guard let entry = directory.healthExport else {
        throw Failure(message: "the zip holds no export.xml (is it an Apple Health export?)")
      }
      try zip.stream(entry, label: "export.xml", body)
    case .sqlite:
      throw Failure(message: "it is an SQLite database, not an Apple Health export")
    case .unknown:
      throw Failure(message: "it is neither an export.zip nor an export.xml")
    }
  }
}
