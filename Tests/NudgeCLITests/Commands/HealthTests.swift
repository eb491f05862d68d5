import Foundation
import NudgeCore
import Testing

@testable import NudgeCLI

/// `nudge health` at the command line: every report held to its JSON Schema (by Python's
/// jsonschema, an implementation not Nudge's), the same input giving the same bytes, and a
/// source folder taking in a new export once and refusing one others may write to.
@Suite struct HealthTests {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
      "Fixtures/health")
  static let schema = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("schemas/health-report.v1.schema.json")

  static func nudge() -> InProcess {
    var nudge = InProcess()
    nudge.environment["TZ"] = "Europe/London"
    nudge.environment["NUDGE_NOW"] = "2026-11-20T08:00:00Z"
    return nudge
  }

  @Test func everyReportHoldsToItsSchemaAndTheSameInputGivesTheSameBytes() throws {
    let nudge = Self.nudge()
    let folder = NSTemporaryDirectory() + "nudge-health-json-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    var documents: [String] = []
    // nothing imported yet: nulls and flags
    documents.append(try nudge.run(["health", "--json"]).stdout)
    let zip = Self.fixtures.appendingPathComponent("export.zip").path
    #expect(try nudge.run(["health", "import", zip]).status == 0)
    let first = Day(year: 2026, month: 11, day: 5)
    for offset in 0...15 {
      let day = first.adding(days: offset).description
      let result = try nudge.run(["health", "--day", day, "--json"])
      try #require(result.status == 0, "\(result.stderr)")
      documents.append(result.stdout)
      #expect(try nudge.run(["health", "--day", day, "--json"]).stdout == result.stdout)
    }
    for (index, document) in documents.enumerated() {
      try document.write(toFile: "\(folder)/\(index).json", atomically: true, encoding: .utf8)
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      "python3", "-c",
      """
      import glob, json, sys, jsonschema
      schema = json.load(open(sys.argv[1]))
      jsonschema.Draft202012Validator.check_schema(schema)
      files = sorted(glob.glob(sys.argv[2] + '/*.json'))
      for name in files:
          jsonschema.validate(json.load(open(name)), schema, cls=jsonschema.Draft202012Validator)
      print(len(files))
      """, Self.schema.path, folder,
    ]
    let out = Pipe()
    process.standardOutput = out
    try process.run()
    process.waitUntilExit()
    let said = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(
      process.terminationStatus == 0, "a report breaks the schema (python3-jsonschema installed?)")
    #expect(said.trimmingCharacters(in: .whitespacesAndNewlines) == "\(documents.count)")
    // the fixture's last night: short, a low HRV and a warm wrist, a red morning
    let last = try JSONSerialization.jsonObject(with: Data(documents[16].utf8)) as! [String: Any]
    #expect(last["readiness"] as? String == "red")
    let activity = last["activity"] as! [String: Any]
    let summed = activity["active_energy_kcal"] as! Double
    let summary = activity["activity_summary_kcal"] as! Double
    #expect(abs(summed - summary) / summary <= 0.01)
  }

  @Test func aSourceFolderTakesInANewExportOnceAndOneOthersMayWriteIsRefused() throws {
    let nudge = Self.nudge()
    let folder = NSTemporaryDirectory() + "nudge-health-src-\(UUID().uuidString)"
    try FileManager.default.createDirectory(
      atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    let added = try nudge.run(["health", "source", "add", folder])
    #expect(added.status == 0, "\(added.stderr)")
    // a phone's sync copies the export in
    try FileManager.default.copyItem(
      atPath: Self.fixtures.appendingPathComponent("export.zip").path,
      toPath: folder + "/export.zip")
    let brief = try nudge.run(["health", "brief"])
    #expect(brief.stderr.contains("took in \(folder)/export.zip: 12 nights"), "\(brief.stderr)")
    #expect(brief.stdout.hasPrefix("Readiness: red"))
    let again = try nudge.run(["health", "brief"])
    #expect(again.stderr.isEmpty)
    #expect(again.stdout == brief.stdout)
    // others may write to it now: not read, said
    try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: folder)
    let open = try nudge.run(["health", "brief"])
    #expect(open.stderr.contains("is not read: others may write to it"))
    let other = NSTemporaryDirectory() + "nudge-health-open-\(UUID().uuidString)"
    try FileManager.default.createDirectory(
      atPath: other, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o777])
    let refused = try nudge.run(["health", "source", "add", other])
    #expect(refused.status == 65)
    #expect(refused.stderr.contains("others may write to it"))
    #expect(try nudge.run(["health", "source", "remove", folder]).status == 0)
    #expect(try nudge.run(["health", "source", "remove", folder]).status == 64)
  }
}
