import Foundation
import Testing

@testable import NudgeStore

/// `nudge export` and `nudge import`: a round trip, idempotence, broken files refused with where, the schedule and settings carried.
@Suite struct ExportImportTests {
  @Test func exportImportRoundTripsAndImportIsIdempotent() throws {
    let nudge = Nudge()
    try nudge(
      "prep", "--item", "water=yes", "--other", "oats soaking", "--no-input",
      now: "2026-11-19T21:30:00+01:00")
    try nudge(
      "review", "--challenge", "other", "--challenge-other", "office cake", "--swap", "tea",
      "--commit-to", "drink tea", "--no-input")
    try nudge("need-help", "--category", "physical", "--note", "hungry", "--no-input")
    try nudge("config", "set", "celebrations", "off")
    let file = nudge.home + "/export.json"
    #expect(try nudge("export", "--output", file).status == 0)
    let exported = try String(contentsOfFile: file, encoding: .utf8)

    let other = Nudge()
    let first = try other("import", file, "--json")
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stdout.contains("\"added\" : 3"))
    let second = try other("import", file, "--json")
    #expect(second.stdout.contains("\"added\" : 0"))
    #expect(second.stdout.contains("\"unchanged\" : 3"))
    #expect(try other("export").stdout == exported)
  }

  @Test func aRestoredHabitKeepsTheIdItTravelsBy() throws {
    // a backup restored on a fresh computer is the same habit as the other computer's (sync
    // knows a habit by its uid): the import keeps the file's
    let nudge = Nudge()
    try nudge("habit", "add", "Read", now: "2026-11-18T09:00:00+01:00")
    try nudge("habit", "done", "read", now: "2026-11-19T21:00:00+01:00")
    let file = nudge.home + "/export.json"
    #expect(try nudge("export", "--output", file).status == 0)
    let exported = try String(contentsOfFile: file, encoding: .utf8)
    let uid = try #require(
      exported.split(separator: "\n").first { $0.contains("\"uid\"") }.map(String.init))
    let other = Nudge()
    #expect(try other("import", file).status == 0)
    #expect(try other("export").stdout.contains(uid))
    // a uid that is no id is refused whole, in one line
    let forged = exported.replacingOccurrences(of: uid, with: "      \"uid\" : \"../x\",")
    let bad = other.home + "/forged.json"
    try forged.write(toFile: bad, atomically: true, encoding: .utf8)
    let refused = try Nudge()("import", bad)
    #expect(refused.status == 65, "\(refused.stderr)")
    #expect(
      refused.stderr.contains("uid is not 16 to 32 lowercase hex digits"), "\(refused.stderr)")
  }

  @Test func brokenImportsChangeNothingAndSayWhere() throws {
    let nudge = Nudge()
    try nudge("prep", "--item", "water=yes", "--no-input")
    let before = try nudge("export").stdout
    let cases: [(String, String)] = [
      ("{ not json", "not valid JSON"),
      ("5", "not valid JSON"),
      ("", "not valid JSON"),
      (#"{"format": "nudge-export"} trailing"#, "not valid JSON"),
      ("[1, 2]", "not a Nudge export"),
      (#"{"format": "something-else", "version": 1}"#, "not a Nudge export"),
      (
        #"{"format": "nudge-export", "version": 7, "settings": {}, "prep": [], "review": [], "checkin": [], "help": []}"#,
        "newer Nudge"
      ),
      (
        #"{"format": "nudge-export", "version": 1, "settings": {}, "prep": [{"day": "2026-02-30", "sticky_notes": true, "produce": true, "water": true, "breakfast": true, "saved_at": "2026-02-28T21:00:00Z"}], "review": [], "checkin": [], "help": []}"#,
        "prep[0].day"
      ),
      (
        #"{"format": "nudge-export", "version": 1, "settings": {}, "prep": [], "review": [], "checkin": [], "help": [{"id": "a", "day": "2026-11-01", "category": "boredom", "at": "2026-11-01T10:00:00Z"}]}"#,
        "help[0].category"
      ),
      (
        #"{"format": "nudge-export", "version": 1, "settings": {"rollover-hour": "77"}, "prep": [], "review": [], "checkin": [], "help": []}"#,
        "settings.rollover-hour"
      ),
      (
        #"{"format": "nudge-export", "version": 1, "settings": {}, "prep": [], "review": [], "checkin": [{"day": "2026-11-01", "saved_at": "yesterday"}], "help": []}"#,
        "checkin[0].saved_at"
      ),
      (
        #"{"format": "nudge-export", "version": 1, "settings": {}, "prep": [], "review": []}"#,
        "checkin is missing"
      ),
    ]
    for (index, (text, expected)) in cases.enumerated() {
      let file = nudge.home + "/bad\(index).json"
      try text.write(toFile: file, atomically: true, encoding: .utf8)
      let result = try nudge("import", file)
      #expect(result.status == 65, "\(expected): \(result.stderr)")
      #expect(result.stderr.contains(expected), "\(result.stderr)")
      #expect(result.stderr.contains("Nothing was imported"))
    }
    #expect(try nudge("import", nudge.home + "/missing.json").status == 66)
    #expect(try nudge("export").stdout == before)
  }

  @Test func theExportHoldsTheScheduleAndSettingsAndImportRestoresThem() throws {
    let old = Nudge()
    try old("schedule", "set", "morning", "Mon..Fri 06:45")
    try old("schedule", "on", "midday")
    try old("config", "set", "snooze", "5m")
    let exported = try old("export")
    #expect(exported.stdout.contains("\"schedule\""))
    let fresh = Nudge()
    let imported = try fresh("import", "-", stdin: exported.stdout)
    #expect(imported.status == 0)
    #expect(imported.stdout.contains("Imported standard input:"))
    let schedule = try #require(try fresh.json("schedule") as? [[String: Any]])
    let morning = schedule.first { $0["slot"] as? String == "morning" }
    #expect(morning?["expression"] as? String == "Mon..Fri *-*-* 06:45:00")
    #expect(schedule.first { $0["slot"] as? String == "midday" }?["enabled"] as? Bool == true)
    #expect(try fresh("config", "get", "snooze").stdout == "5m\n")
    // a schedule systemd would reject is refused before anything is written
    let bad = exported.stdout.replacingOccurrences(
      of: "Mon..Fri *-*-* 06:45:00", with: "25:99")
    let third = Nudge()
    let refused = try third("import", "-", stdin: bad)
    #expect(refused.status == 65)
    #expect(refused.stderr.contains("schedule[") && refused.stderr.contains("Nothing was imported"))
    let untouched = try #require(try third.json("schedule") as? [[String: Any]])
    #expect(
      untouched.first { $0["slot"] as? String == "morning" }?["expression"] as? String
        == "*-*-* 07:00:00")
  }

  @Test func exportCSVWritesARowPerEntryInThePlansOrderQuotedAndGuarded() throws {
    let nudge = Nudge()
    try nudge(
      "prep", "--item", "water=yes", "--item", "produce=no", "--other", "oats, \"soaked\"",
      "--no-input", now: "2026-11-19T21:30:00+01:00")
    try nudge(
      "review", "--why", "=HYPERLINK(\"http://x\")", "--swap", "tea", "--commit-to=-drink tea",
      "--no-input", now: "2026-11-20T07:30:00+01:00")
    try nudge(
      "need-help", "--category", "stress", "--note", "@work, again", "--no-input",
      now: "2026-11-20T15:00:00+01:00")
    try nudge("plan", "on", "sleep")
    try nudge(
      "sleep", "--answer", "bedtime=23:10", "--answer", "wake=07:00", "--answer", "rested=4",
      "--answer", "note=café ☕", "--no-input", now: "2026-11-20T08:00:00+01:00")
    try nudge(
      "habit", "add", "Read", "--target", "20", "--unit", "pages", now: "2026-11-18T09:00:00+01:00")
    try nudge("habit", "done", "read", "--value", "22", now: "2026-11-20T21:00:00+01:00")
    let file = nudge.home + "/entries.csv"
    let written = try nudge("export", "--csv", "-o", file)
    #expect(written.status == 0, "\(written.stderr)")
    #expect(written.stdout.isEmpty)
    #expect(written.stderr == "Exported to \(file).\n")
    let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
    #expect(Array(bytes.prefix(3)) == [0xEF, 0xBB, 0xBF])  // UTF-8, said so to a spreadsheet
    let rows = String(decoding: bytes.dropFirst(3), as: UTF8.self).components(separatedBy: "\r\n")
    #expect(
      rows == [
        "day,flow,saved_at,sticky-notes,produce,water,breakfast,other,why,swap,commit_to,category,"
          + "need-help.note,bedtime,wake,rested,sleep.note,sleep.challenge,"
          + "habit,habit_state,habit_amount,habit_unit,habit_note",
        "2026-11-19,prep,2026-11-19T21:30:00+01:00,no,no,yes,no,\"oats, \"\"soaked\"\"\",,,,,,,,,,,,,,,",
        "2026-11-20,need-help,2026-11-20T15:00:00+01:00,,,,,,,,,stress,\"'@work, again\",,,,,,,,,,",
        "2026-11-20,review,2026-11-20T07:30:00+01:00,,,,,,\"'=HYPERLINK(\"\"http://x\"\")\",tea,"
          + "'-drink tea,,,,,,,,,,,,",
        // the sleep plan's challenge is a column of its own (the review's is another), and so
        // is each flow's note
        "2026-11-20,sleep,2026-11-20T08:00:00+01:00,,,,,,,,,,,23:10,07:00,4,café ☕,same-steps,,,,,",
        // a habit's day is a row of its own
        "2026-11-20,habit,2026-11-20T21:00:00+01:00,,,,,,,,,,,,,,,,Read,done,22,pages,",
        "",
      ], "\(rows)")
    let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
    #expect(mode == 0o600)
    // stdout ('-' too) gets the same document; the JSON export is untouched by --csv
    #expect(try nudge("export", "--csv").stdout.utf8.elementsEqual(bytes))
    #expect(try nudge("export", "--csv", "-o", "-").stdout.utf8.elementsEqual(bytes))
    #expect(try nudge("export").stdout.hasPrefix("{"))
  }

  @Test func exportCSVOfNothingIsTheHeaderAndAFailedWriteLeavesTheFileAlone() throws {
    let nudge = Nudge()
    #expect(try nudge("export", "--csv").stdout == "\u{FEFF}day,flow,saved_at\r\n")
    // a file there already stays as it was when the export cannot be made
    let file = nudge.home + "/kept.csv"
    try "before\n".write(toFile: file, atomically: true, encoding: .utf8)
    let notADatabase = nudge.home + "/not-a-database"
    try "plain text, not SQLite".write(toFile: notADatabase, atomically: true, encoding: .utf8)
    let refused = try nudge("export", "--csv", "-o", file, env: ["NUDGE_DB": notADatabase])
    #expect(refused.status == 65, "\(refused.stderr)")
    #expect(try String(contentsOfFile: file, encoding: .utf8) == "before\n")
    // a path that cannot be written: one line, 73, nothing made
    let inside = nudge.home + "/kept.csv/entries.csv"
    let unwritable = try nudge("export", "--csv", "-o", inside)
    #expect(unwritable.status == 73)
    #expect(unwritable.stderr.split(separator: "\n").count == 1)
    #expect(unwritable.stderr.contains("Choose a writable path"))
    #expect(try String(contentsOfFile: file, encoding: .utf8) == "before\n")
    let names = try FileManager.default.contentsOfDirectory(atPath: nudge.home)
    #expect(!names.contains { $0.contains(".tmp") || $0.hasPrefix(".kept") }, "\(names)")
  }
}

/// A plan file travels with the export (issue 57, item 5): a backup restores into a fresh home
/// with the flows its entries are of, and a carried file is held to the plan file rules.
@Suite struct ExportCarriesPlanFilesTests {
  static let plan = """
    format = 1

    [plan]
    name = "walking"
    title = "Walking"
    on = true

    [[flow]]
    id = "walk"
    word = "walk"
    title = "Lunch walk"
    counts = ["minutes"]
    first = "First walk"

    [[flow.question]]
    id = "minutes"
    ask = "How long?"
    kind = "number"
    unit = "minutes"

    """

  @Test func aBackupRestoresIntoAFreshHomeWithItsPlanFile() throws {
    let laptop = Nudge()
    let folder = laptop.home + "/.config/nudge/plans"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try Self.plan.write(toFile: folder + "/walking.plan", atomically: true, encoding: .utf8)
    let now = "2026-11-26T13:00:00+01:00"
    try #require(
      try laptop("walk", "--answer", "minutes=34", "--no-animation", now: now).status == 0)
    let backup = laptop.home + "/backup.json"
    try #require(try laptop("export", "-o", backup, now: now).status == 0)
    let fresh = Nudge()
    let restored = try fresh("import", backup, now: now)
    #expect(restored.status == 0, "\(restored.stderr)")
    #expect(restored.stdout.contains("Plan files added to"), "\(restored.stdout)")
    #expect(
      try String(contentsOfFile: fresh.home + "/.config/nudge/plans/walking.plan", encoding: .utf8)
        == Self.plan)
    #expect(try fresh("show", now: now).stdout.contains("How long?: 34 minutes"))
    // a carried file that breaks a rule: refused whole, nothing written
    var text = try String(contentsOfFile: backup, encoding: .utf8)
    text = text.replacingOccurrences(of: "kind = \\\"number\\\"", with: "kind = \\\"program\\\"")
    try text.write(toFile: backup, atomically: true, encoding: .utf8)
    let other = Nudge()
    let refused = try other("import", backup, now: now)
    #expect(refused.status == 65, "\(refused)")
    #expect(refused.stderr.contains("plan_files[0] (walking.plan):"), "\(refused.stderr)")
    #expect(refused.stderr.split(separator: "\n").count == 1)
    #expect(!FileManager.default.fileExists(atPath: other.home + "/.config/nudge/plans"))
  }
}
