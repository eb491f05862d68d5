import Foundation
import NudgeStore
import Testing

/// A person's database of the release before plans (schema 7, Tests/Fixtures/schema7, made by
/// that binary) opens in today's Nudge, migrated in place, with every entry, the streak, the
/// achievements, the log, the schedule and the settings as that release printed them, and its
/// draft and undo journal still working.
@Suite struct SchemaUpgradeTests {
  static let fixtures = fixture("schema7")
  static let now = "2026-11-20T09:00:00+01:00"

  /// The folder of a fixture under Tests/Fixtures.
  static func fixture(_ name: String) -> String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Fixtures/" + name).path
  }

  /// Today's Nudge on a copy of the database in `fixtures`, drawing with `seed` (the one its
  /// release drew with).
  static func upgraded(_ fixtures: String, seed: Int) throws -> Nudge {
    var nudge = Nudge()
    let path = nudge.home + "/nudge.sqlite3"
    try FileManager.default.copyItem(atPath: fixtures + "/nudge.sqlite3", toPath: path)
    nudge.environment["NUDGE_DB"] = path
    nudge.environment["NUDGE_SEED"] = "\(seed)"
    return nudge
  }

  func upgraded() throws -> Nudge { try Self.upgraded(Self.fixtures, seed: 7) }

  func object(_ text: String) throws -> NSObject {
    try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? NSObject)
  }

  @Test(arguments: [
    (["history", "--days", "10"], "history.json"), (["streak"], "streak.json"),
    (["achievements"], "achievements.json"), (["log"], "log.json"),
    (["schedule", "list"], "schedule.json"), (["config", "list"], "config.json"),
  ])
  func whatTheOldReleasePrintedIsPrintedAgain(arguments: [String], file: String) throws {
    let nudge = try upgraded()
    let result = try nudge.run(arguments + ["--json"], now: Self.now)
    #expect(result.status == 0, "\(result.stderr)")
    var printed = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)))
    if file == "history.json", let days = printed as? [[String: Any]] {
      // the one key plans add: the entries of defined flows, none here
      #expect(days.allSatisfy { ($0["flows"] as? [String: Any])?.isEmpty == true })
      #expect(days.allSatisfy { ($0["habits"] as? [Any])?.isEmpty == true })
      printed = days.map { $0.filter { $0.key != "flows" && $0.key != "habits" } }
    }
    if file == "streak.json", let streak = printed as? [String: Any] {
      // the key paused days add: the pause to the 25th, up to today
      #expect(streak["paused_days"] as? [String] == ["2026-11-19", "2026-11-20"])
      printed = streak.filter { $0.key != "paused_days" }
    }
    if file == "schedule.json", let rows = printed as? [[String: Any]] {
      // the key plans' and habits' reminders add: whose a slot is (null for a built-in one)
      #expect(rows.allSatisfy { $0["of"] is NSNull })
      printed = rows.map { $0.filter { $0.key != "of" } }
    }
    if file == "config.json", let settings = printed as? [String: Any] {
      // the setting added since: the week's start, unset (the locale's)
      #expect(settings["week-start"] as? String == "")
      printed = settings.filter { $0.key != "week-start" }
    }
    var expected = try String(contentsOfFile: Self.fixtures + "/" + file, encoding: .utf8)
    // the one title that moved on purpose (Tests/Golden/CHANGES.md 2): coach.plan's words
    expected = expected.replacing("\"Asked for help\"", with: "\"First call for help\"")
    #expect(printed as? NSObject == (try object(expected)), "\(result.stdout)")
  }

  @Test func itIsMigratedInPlaceAndItsDraftAndUndoJournalStillWork() throws {
    let nudge = try upgraded()
    let path = nudge.environment["NUDGE_DB"]!
    #expect(try nudge.run(["streak"], now: Self.now).status == 0)
    // user_version, big-endian at offset 60 of the header
    let header = try Data(contentsOf: URL(fileURLWithPath: path)).prefix(64)
    #expect(header.suffix(4).reduce(0) { $0 << 8 | Int($1) } == AppDatabase.schemaVersion)
    // the review left with Ctrl-C on the 20th is offered back (Ctrl-D there leaves it kept)
    let resumed = try InProcess().run(
      ["review"], now: Self.now, stdin: "", env: ["NUDGE_DB": path], terminal: true)
    #expect(resumed.stdout.contains("You started this earlier (1 answer kept)."), "\(resumed)")
    // the last change of the 19th (that evening's prep) is taken back by undo then
    let undone = try nudge.run(["undo", "--json"], now: "2026-11-19T23:00:00+01:00")
    #expect(undone.status == 0, "\(undone.stderr)")
    let report = try #require(try object(undone.stdout) as? [String: Any])
    #expect(report["kind"] as? String == "saved")
    let removed = try #require(report["removed"] as? [String: Any])
    #expect(removed["day"] as? String == "2026-11-19" && removed["breakfast"] as? Bool == true)
  }
}
