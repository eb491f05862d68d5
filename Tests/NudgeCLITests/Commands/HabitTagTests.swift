import Foundation
import NudgeCore
import Testing

@testable import NudgeCLI

/// Tags on habits (`--tag`): given on add, added and removed by edit (and undone), listed,
/// filtered by (`habit list --tag`, `history --tag`), grouping the today view, a line each in
/// `week`, completed (`habit tags`); and every bad tag refused in one line, nothing changed.
@Suite struct HabitTagTests {
  static let now = "2026-11-20T08:00:00+01:00"

  func tagged() throws -> InProcess {
    let nudge = InProcess()
    for args in [
      ["habit", "add", "Stretch", "--tag", "health", "--tag", "morning"],
      ["habit", "add", "Read", "--tag", "Mind"],
      ["habit", "add", "Floss", "--tag", "HEALTH"],
      ["habit", "add", "Call mum"],
    ] {
      let run = try nudge.run(args, now: Self.now)
      try #require(run.status == 0, "\(args): \(run.stderr)")
    }
    return nudge
  }

  @Test func tagsAreGivenListedFilteredAndEdited() throws {
    let nudge = try tagged()
    let list = try nudge("habit", "list", now: Self.now).stdout
    #expect(list.contains("#health #morning"), "\(list)")
    let json = try #require(try nudge.json("habit", "list", now: Self.now) as? [[String: Any]])
    #expect(
      json.map { $0["tags"] as? [String] } == [["health", "morning"], ["Mind"], ["HEALTH"], []])
    // any case finds them
    let health = try #require(
      try nudge.json("habit", "list", "--tag", "Health", now: Self.now) as? [[String: Any]])
    #expect(health.map { $0["name"] as? String } == ["Stretch", "Floss"])
    #expect(
      try nudge("habit", "list", "--tag", "sleep", now: Self.now).stdout
        == "No habit has the tag 'sleep' (your tags: health, Mind, morning).\n")
    #expect(try nudge("habit", "tags", now: Self.now).stdout == "health\nMind\nmorning\n")
    // edit adds one and removes one; undo puts them back
    let edited = try nudge(
      "habit", "edit", "stretch", "--tag", "body", "--untag", "MORNING", now: Self.now)
    #expect(edited.status == 0, "\(edited.stderr)")
    #expect(edited.stdout.contains("#health #body"), "\(edited.stdout)")
    #expect(try nudge("undo", now: Self.now).status == 0)
    let back = try #require(try nudge.json("habit", "list", now: Self.now) as? [[String: Any]])
    #expect(back.first?["tags"] as? [String] == ["health", "morning"])
    // a tag given twice (in any case) is kept once
    #expect(
      try nudge("habit", "edit", "read", "--tag", "mind", now: Self.now).stdout.contains(
        "so already"))
  }

  @Test func theViewsGroupAndFilterByTag() throws {
    let nudge = try tagged()
    #expect(try nudge("habit", "done", "floss", now: Self.now).status == 0)
    #expect(try nudge("habit", "fail", "read", now: Self.now).status == 0)
    let today = try nudge("today", now: Self.now).stdout
    let lines = today.split(separator: "\n").map(String.init)
    let heads = lines.filter { $0.hasPrefix("#") || $0 == "other habits" }
    #expect(heads == ["#health", "#Mind", "other habits"], "\(today)")
    let health = try #require(lines.firstIndex(of: "#health"))
    #expect(
      lines[health + 1].contains("Stretch") && lines[health + 2].contains("Floss done"), "\(today)")
    let history = try nudge("history", "--days", "1", "--tag", "health", now: Self.now).stdout
    #expect(history.contains("habits: Floss ✓"), "\(history)")
    #expect(!history.contains("Read"), "\(history)")
    let week = try nudge("week", now: Self.now).stdout
    #expect(week.contains("#health (2 habits): 1 day done"), "\(week)")
    #expect(week.contains("#Mind (1 habit): 0 days done, 1 no"), "\(week)")
    let json = try #require(try nudge.json("week", now: Self.now) as? [String: Any])
    let tags = try #require(json["tags"] as? [[String: Any]])
    #expect(tags.map { $0["tag"] as? String } == ["health", "Mind", "morning"])
    #expect(tags.first?["done_days"] as? Int == 1)
  }

  @Test func badTagsAreRefusedInOneLineAndNothingChanges() throws {
    let nudge = try tagged()
    let before = try nudge("export", now: Self.now).stdout
    let cases: [[String]] = [
      ["habit", "add", "Run", "--tag", "two words"],
      ["habit", "add", "Run", "--tag", "new\nline"],
      ["habit", "add", "Run", "--tag", String(repeating: "t", count: 25)],
      ["habit", "add", "Run", "--tag", "a,b"],
      ["habit", "add", "Run", "--tag", "#x"],
      ["habit", "edit", "stretch", "--tag", "-x"],
      ["habit", "add", "Run"] + (1...11).flatMap { ["--tag", "t\($0)"] },
    ]
    for args in cases {
      let refused = try nudge.run(args, now: Self.now)
      #expect(refused.status == 64, "\(args): \(refused.stderr)")
      #expect(refused.stderr.contains("--tag"), "\(args): \(refused.stderr)")
      #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
      #expect(!refused.stderr.contains("\n\n"))
    }
    #expect(try nudge("export", now: Self.now).stdout == before)
  }
}
