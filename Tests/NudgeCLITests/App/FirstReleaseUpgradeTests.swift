import Foundation
import NudgeStore
import Testing

/// A database of the first packaged release (0.1.0, schema 4: Tests/Fixtures/schema4, made by
/// that binary with its make.sh) opens in today's Nudge, migrated through every schema since,
/// and prints everything that release printed: each value it had is there with the same value
/// (today's Nudge adds keys, such as the plans' flows and the habits of a day, and settings
/// that did not exist; it loses and changes none).
@Suite struct FirstReleaseUpgradeTests {
  static let fixtures = SchemaUpgradeTests.fixture("schema4")
  static let now = "2026-11-19T09:00:00+01:00"

  func upgraded() throws -> Nudge { try SchemaUpgradeTests.upgraded(Self.fixtures, seed: 4) }

  /// The places under which `old` is not within `new`: a key gone, a value changed, a list of
  /// another length (empty: every value `old` has, `new` has the same).
  static func missing(_ old: Any, in new: Any, at path: String = "$") -> [String] {
    switch (old, new) {
    case (let old as [String: Any], let new as [String: Any]):
      return old.keys.sorted().flatMap { key in
        new[key].map { missing(old[key]!, in: $0, at: path + "." + key) }
          ?? ["\(path).\(key) is gone"]
      }
    case (let old as [Any], let new as [Any]):
      guard old.count == new.count else {
        return ["\(path) has \(new.count) items, was \(old.count)"]
      }
      return zip(old, new).enumerated().flatMap {
        missing($0.element.0, in: $0.element.1, at: "\(path)[\($0.offset)]")
      }
    default:
      return (old as? NSObject) == (new as? NSObject) ? [] : ["\(path) is \(new), was \(old)"]
    }
  }

  @Test func theFinderSeesAChangedAGoneAndAnAddedValue() {
    let old: [String: Any] = ["a": 1, "b": ["x", "y"], "c": ["d": true]]
    #expect(Self.missing(old, in: ["a": 1, "b": ["x", "y"], "c": ["d": true], "e": 2]).isEmpty)
    #expect(
      Self.missing(old, in: ["a": 2, "b": ["x", "y"], "c": ["d": true]]) == ["$.a is 2, was 1"])
    #expect(Self.missing(old, in: ["a": 1, "b": ["x"], "c": [:]]).count == 2)
  }

  @Test(arguments: [
    (["history", "--days", "10"], "history.json"), (["streak"], "streak.json"),
    (["achievements"], "achievements.json"), (["schedule", "list"], "schedule.json"),
    (["config", "list"], "config.json"),
  ])
  func whatTheFirstReleasePrintedIsPrintedAgain(arguments: [String], file: String) throws {
    let nudge = try upgraded()
    let result = try nudge.run(arguments + ["--json"], now: Self.now)
    #expect(result.status == 0, "\(result.stderr)")
    var printed = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
    // the one title that moved on purpose (Tests/Golden/CHANGES.md 2): coach.plan's words
    let text = try String(contentsOfFile: Self.fixtures + "/" + file, encoding: .utf8)
      .replacing("\"Asked for help\"", with: "\"First call for help\"")
    let expected = try JSONSerialization.jsonObject(with: Data(text.utf8))
    if file == "schedule.json", let rows = printed as? [[String: Any]] {
      // the slot added since (the weekly review), after the three the release had
      #expect(rows.map { $0["slot"] as? String } == ["morning", "midday", "evening", "weekly"])
      printed = Array(rows.prefix(3))
    }
    let lost = Self.missing(expected, in: printed)
    #expect(lost.isEmpty, "\(file): \(lost.joined(separator: "; "))")
  }

  @Test func itIsMigratedInPlaceToThisSchema() throws {
    let nudge = try upgraded()
    let path = nudge.environment["NUDGE_DB"]!
    #expect(try nudge.run(["today"], now: Self.now).status == 0)
    let header = try Data(contentsOf: URL(fileURLWithPath: path)).prefix(64)
    #expect(header.suffix(4).reduce(0) { $0 << 8 | Int($1) } == AppDatabase.schemaVersion)
    // and it takes a new day's flow on top of the old ones: the streak goes on
    #expect(
      try nudge.run(
        ["review", "--no-input", "--commit-to", "walk", "--no-animation"], now: Self.now
      ).status == 0)
    let streak = try nudge.run(["streak", "--json"], now: Self.now)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(streak.stdout.utf8)) as? [String: Any])
    #expect(object["current"] as? Int == 6, "\(streak.stdout)")
  }
}
