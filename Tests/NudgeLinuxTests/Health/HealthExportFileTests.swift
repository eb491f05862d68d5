import Foundation
import NudgeCore
import Testing

@testable import NudgeLinux

/// An export on disk read as the import reads it: real zips made by Python's zipfile (the
/// format Apple writes), every refusal one line, nothing past a zip's declared size.
@Suite struct HealthExportFileTests {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
      "Fixtures/health")

  /// A fresh folder for one test.
  static func folder() -> String {
    let path = NSTemporaryDirectory() + "nudge-hx-\(UUID().uuidString)"
    try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  /// Runs a Python program (zipfile is the reference writer of the format).
  static func python(_ program: String) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", program]
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "python3 failed: \(program)")
  }

  struct Refused: Error { var message: String }

  /// Every byte the file hands over, or the failure's message.
  static func read(_ path: String) -> Result<[UInt8], Refused> {
    do {
      let file = try ExportFile(path: path)
      defer { file.close() }
      var bytes: [UInt8] = []
      try file.streamXML { bytes += $0 }
      return .success(bytes)
    } catch let failure as ExportFile.Failure {
      return .failure(Refused(message: failure.message))
    } catch {
      return .failure(Refused(message: "\(error)"))
    }
  }

  @Test func theZipsExportIsTheSameBytesAsTheXMLBesideIt() throws {
    let zip = Self.read(Self.fixtures.appendingPathComponent("export.zip").path)
    let xml = try Data(contentsOf: Self.fixtures.appendingPathComponent("export.xml"))
    #expect(try zip.get() == [UInt8](xml))
    #expect(
      try Self.read(Self.fixtures.appendingPathComponent("export.xml").path).get() == [UInt8](xml))
  }

  @Test func aStoredEntryAndAZip64OneAreReadToo() throws {
    let dir = Self.folder()
    try Self.python(
      """
      import zipfile
      body = b'<HealthData>' + b'<Record type="x"/>' * 5000 + b'</HealthData>'
      with zipfile.ZipFile('\(dir)/stored.zip', 'w', zipfile.ZIP_STORED) as z:
          z.writestr('apple_health_export/export.xml', body)
      with zipfile.ZipFile('\(dir)/z64.zip', 'w', zipfile.ZIP_DEFLATED) as z:
          with z.open('apple_health_export/export.xml', 'w', force_zip64=True) as f:
              f.write(body)
      open('\(dir)/body', 'wb').write(body)
      """)
    let body = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir + "/body")))
    #expect(try Self.read(dir + "/stored.zip").get() == body)
    #expect(try Self.read(dir + "/z64.zip").get() == body)
  }

  @Test func hostileZipsAreRefusedInOneLineEach() throws {
    let dir = Self.folder()
    try Self.python(
      """
      import zipfile, struct
      def z(name, entries, method=zipfile.ZIP_DEFLATED):
          with zipfile.ZipFile('\(dir)/' + name, 'w', method) as f:
              for entry, body in entries:
                  f.writestr(entry, body)
      z('escape.zip', [('../../.bashrc', b'x'), ('apple_health_export/export.xml', b'<a/>')])
      z('absolute.zip', [('/etc/passwd', b'x')])
      z('none.zip', [('apple_health_export/export_cda.xml', b'<a/>')])
      z('bomb.zip', [('apple_health_export/export.xml', b'\\0' * (64 << 20))])
      z('ok.zip', [('apple_health_export/export.xml', b'<HealthData>' + b' ' * 5000 + b'</HealthData>')])
      data = bytearray(open('\(dir)/ok.zip', 'rb').read())
      central = data.rfind(b'PK\\x01\\x02')
      enc = bytearray(data); enc[central + 8] |= 1
      open('\(dir)/encrypted.zip', 'wb').write(enc)
      crc = bytearray(data); crc[central + 16] ^= 0xFF
      open('\(dir)/crc.zip', 'wb').write(crc)
      liar = bytearray(data); struct.pack_into('<I', liar, central + 24, 100)
      open('\(dir)/liar.zip', 'wb').write(liar)
      cut = data[:len(data) // 2]
      open('\(dir)/cut.zip', 'wb').write(cut)
      open('\(dir)/garbage.zip', 'wb').write(b'PK\\x03\\x04' + b'\\x01' * 200)
      """)
    let cases: [(String, String)] = [
      ("escape.zip", "path escapes its folder ('../../.bashrc')"),
      ("absolute.zip", "path escapes its folder ('/etc/passwd')"),
      ("none.zip", "the zip holds no export.xml"),
      ("bomb.zip", "a zip bomb"),
      ("encrypted.zip", "is encrypted"),
      ("crc.zip", "fails its checksum"),
      ("liar.zip", "past the 100 bytes it declares"),
      ("cut.zip", "not a zip archive"),
      ("garbage.zip", "not a zip archive"),
    ]
    for (name, words) in cases {
      guard case .failure(let refused) = Self.read(dir + "/" + name) else {
        Issue.record("\(name) was read")
        continue
      }
      let message = refused.message
      #expect(message.contains(words), "\(name): \(message)")
      #expect(!message.contains("\n"))
    }
    #expect((try? Self.read(dir + "/ok.zip").get())?.count == 5000 + 25)
  }

  @Test func aBombIsRefusedBeforeAByteIsInflated() throws {
    // the table of contents alone refuses it: nothing is handed over
    let dir = Self.folder()
    try Self.python(
      """
      import zipfile
      with zipfile.ZipFile('\(dir)/bomb.zip', 'w', zipfile.ZIP_DEFLATED) as f:
          f.writestr('apple_health_export/export.xml', b'<' * (256 << 20))
      """)
    let file = try ExportFile(path: dir + "/bomb.zip")
    defer { file.close() }
    var handed = 0
    #expect(throws: ExportFile.Failure.self) { try file.streamXML { handed += $0.count } }
    #expect(handed == 0)
  }

  @Test func whatAFileIsComesFromItsFirstBytes() throws {
    let dir = Self.folder()
    let cases: [(String, [UInt8], ExportFile.Kind)] = [
      ("a.xml", Array("\u{FEFF}  \n<?xml version=\"1.0\"?><a/>".utf8), .xml),
      ("a.db", Array("SQLite format 3\0".utf8) + [UInt8](repeating: 0, count: 84), .sqlite),
      ("a.zip", [0x50, 0x4B, 0x03, 0x04, 0, 0], .zip),
      ("a.txt", Array("hello".utf8), .unknown),
    ]
    for (name, bytes, kind) in cases {
      FileManager.default.createFile(atPath: dir + "/" + name, contents: Data(bytes))
      let file = try ExportFile(path: dir + "/" + name)
      #expect(file.kind() == kind, "\(name)")
      file.close()
    }
    #expect(throws: ExportFile.Failure.self) { try ExportFile(path: dir) }
    #expect(throws: ExportFile.Failure.self) { try ExportFile(path: dir + "/none") }
  }
}
