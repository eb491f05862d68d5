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

/// Gadgetbridge's database (a fixture from its real schema: scripts/fixtures/gadgetbridge-fixture)
/// read for the Huami/Zepp family; what is not read said; a file mid-copy, damaged, another
/// program's or from a newer Gadgetbridge each one line.
@Suite struct HealthGadgetbridgeTests {
  static let fixture = HealthTests.fixtures.appendingPathComponent("Gadgetbridge.db").path

  @Test func theNightsOfABandAndAWatchAreReadAndThePineTimeIsSaidNotRead() throws {
    let nudge = HealthTests.nudge()
    let imported = try nudge.run(["health", "import", Self.fixture])
    #expect(imported.status == 0, "\(imported.stderr)")
    #expect(imported.stdout.contains("8 nights"))
    #expect(
      imported.stdout.contains("InfiniTime\n(PINETIME_JF)")
        || imported.stdout.contains("InfiniTime (PINETIME_JF)"))
    let json = try #require(
      try nudge.json("health") as? [String: Any])
    let sleep = try #require(json["sleep"] as? [String: Any])
    // the watch's night (the fixture's count: 462 minutes, 23:02 to 06:44), by byte order of
    // the two sources
    #expect(sleep["source"] as? String == "Amazfit GTS 4")
    #expect(sleep["asleep_minutes"] as? Double == 462)
    #expect(sleep["sleep_start"] as? String == "2026-11-19T23:02:00+00:00")
    #expect(sleep["wake"] as? String == "2026-11-20T06:44:00+00:00")
    let stages = try #require(sleep["stages_minutes"] as? [String: Any])
    #expect(stages["HKCategoryValueSleepAnalysisAsleepREM"] as? Double == 57)
    #expect(stages["HKCategoryValueSleepAnalysisAsleepDeep"] as? Double == 154)
    // a stage the band does not tell apart is null, not 0
    #expect(stages["HKCategoryValueSleepAnalysisAwake"] is NSNull)
    // the band's night on a morning before the watch came (the fixture's: 444 minutes)
    let earlier = try #require(
      try nudge.json("health", "--day", "2026-11-16") as? [String: Any])
    let band = try #require(earlier["sleep"] as? [String: Any])
    #expect(band["source"] as? String == "Mi Smart Band 5")
    #expect(band["asleep_minutes"] as? Double == 444)
    // a newer schema is read by its tables' names, and said
    let newer = try nudge.run([
      "health", "import", HealthTests.fixtures.appendingPathComponent("Gadgetbridge-newer.db").path,
    ])
    #expect(newer.status == 0)
    #expect(newer.stdout.contains("version 192, newer"))
  }

  @Test func aFileMidCopyIsSaidOnceAndTakenWhenWholeAndBadFilesAreRefused() throws {
    let nudge = HealthTests.nudge()
    let folder = NSTemporaryDirectory() + "nudge-gb-\(UUID().uuidString)"
    try FileManager.default.createDirectory(
      atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    #expect(try nudge.run(["health", "source", "add", folder]).status == 0)
    let whole = try Data(contentsOf: URL(fileURLWithPath: Self.fixture))
    // the sync has copied half of it
    try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: folder + "/Gadgetbridge"))
    let first = try nudge.run(["health", "brief"])
    #expect(first.stderr.contains("still being copied"), "\(first.stderr)")
    #expect(first.stdout.hasPrefix("No night recorded"))
    let second = try nudge.run(["health", "brief"])
    #expect(second.stderr.isEmpty, "said once: \(second.stderr)")
    // the copy ends
    try whole.write(to: URL(fileURLWithPath: folder + "/Gadgetbridge"))
    let third = try nudge.run(["health", "brief"])
    #expect(third.stderr.contains("took in \(folder)/Gadgetbridge: 8 nights"), "\(third.stderr)")
    #expect(third.stdout.hasPrefix("Readiness: "))
    // bad files: damaged, another program's SQLite
    var damaged = whole
    damaged.replaceSubrange(
      4096..<(whole.count - 4096), with: Data(repeating: 0x5A, count: whole.count - 8192))
    try damaged.write(to: URL(fileURLWithPath: folder + "/damaged.db"))
    let refused = try nudge.run(["health", "import", folder + "/damaged.db"])
    #expect(refused.status == 65)
    #expect(refused.stderr.contains("not read as a Gadgetbridge export"), "\(refused.stderr)")
    #expect(!refused.stderr.dropLast().contains("\n"))
    let other = try nudge.run(["health", "import", nudge.home + "/data/nudge/health.sqlite3"])
    #expect(other.status == 65)
    #expect(other.stderr.contains("not Gadgetbridge's"), "\(other.stderr)")
  }
}

/// `nudge health prefer`: the order sources count in where several measured one night.
@Suite struct HealthPreferTests {
  @Test func aPreferredSourceIsReadFirstOnceEveryExportIsReadAgain() throws {
    let nudge = HealthTests.nudge()
    let zip = HealthTests.fixtures.appendingPathComponent("export.zip").path
    #expect(try nudge.run(["health", "import", zip]).status == 0)
    let watch = try #require(try nudge.json("health") as? [String: Any])
    #expect((watch["sleep"] as? [String: Any])?["source"] as? String == "Sam’s Apple Watch")
    let prefer = try nudge.run(["health", "prefer", "AutoSleep"])
    #expect(prefer.status == 0, "\(prefer.stderr)")
    // the same file is read again, AutoSleep's nights first
    let again = try nudge.run(["health", "import", zip])
    #expect(again.stdout.hasPrefix("Took in"), "\(again.stdout)")
    let autoSleep = try #require(try nudge.json("health") as? [String: Any])
    let sleep = try #require(autoSleep["sleep"] as? [String: Any])
    #expect(sleep["source"] as? String == "AutoSleep")
    let stages = sleep["stages_minutes"] as? [String: Any]
    #expect(stages?["HKCategoryValueSleepAnalysisAsleepUnspecified"] as? Double ?? 0 > 0)
    // back to the default
    #expect(try nudge.run(["health", "prefer"]).status == 0)
    #expect(try nudge.run(["health", "import", zip]).status == 0)
    let back = try #require(try nudge.json("health") as? [String: Any])
    #expect((back["sleep"] as? [String: Any])?["source"] as? String == "Sam’s Apple Watch")
    let refused = try nudge.run(["health", "prefer", "two\nlines"])
    #expect(refused.status == 64)
  }
}
