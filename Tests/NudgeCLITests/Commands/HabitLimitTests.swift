import Foundation
import NudgeCore
import Testing

@testable import NudgeCLI

/// Limits (`--at-most N --unit U`): a day counts while its amount stays at or under N; going
/// over loses the day (no more reminders that day); the strength is Loop's "at most" score;
/// the limit travels in the export; bad limits are refused in one line.
@Suite struct HabitLimitTests {
  static let added = "2026-11-16T08:00:00+01:00"
  static let now = "2026-11-20T20:00:00+01:00"

  @Test func aLimitCountsTheDaysAtOrUnderIt() throws {
    let nudge = InProcess()
    let add = try nudge(
      "habit", "add", "Coffee", "--at-most", "2", "--unit", "coffees", "--at", "20:00",
      now: Self.added)
    #expect(add.status == 0, "\(add.stderr)")
    #expect(add.stdout.contains("at most 2 coffees a day"), "\(add.stdout)")
    for (day, cups) in [("16", 1), ("17", 2), ("18", 0), ("19", 4)] {
      let run = try nudge(
        "habit", "done", "coffee", "--value", "\(cups)", now: "2026-11-\(day)T21:00:00+01:00")
      #expect(run.status == 0, "\(run.stderr)")
      if cups > 2 {
        #expect(run.stdout.contains("over the limit of 2; the day does not count"), "\(run.stdout)")
      } else {
        #expect(run.stdout.contains("within the limit of 2"), "\(run.stdout)")
      }
    }
    let list = try #require(try nudge.json("habit", "list", now: Self.now) as? [[String: Any]])
    let coffee = try #require(list.first)
    #expect(coffee["at_most"] as? Bool == true)
    #expect(coffee["question"] as? String == "How many coffees so far today?")
    // 16-18 kept, 19 went over: the run is broken; 20 not recorded yet
    #expect(coffee["streak"] as? Int == 0)
    #expect(coffee["best_streak"] as? Int == 3)
    #expect((coffee["strength"] as? Int ?? 0) > 50, "\(coffee)")
    // today: one so far is within; a second over the limit loses the day and stops reminders
    #expect(try nudge("habit", "done", "coffee", "--value", "3", now: Self.now).status == 0)
    let after = try #require(try nudge.json("habit", "list", now: Self.now) as? [[String: Any]])
    #expect(after.first?["today"] as? String == "failed")
    // habit show counts the days over the limit as noes and draws them so
    let show = try nudge("habit", "show", "coffee", now: Self.now).stdout
    #expect(show.contains("Last 5 days: 3 done, 0 skipped, 2 no, 0 unknown"), "\(show)")
    let thursday = try #require(show.split(separator: "\n").first { $0.contains("Thu ") })
    #expect(thursday.hasSuffix("✗"), "\(thursday)")
    let reminder = try nudge("notify", "habit.h1", "--scheduled", now: "2026-11-20T20:00:02+01:00")
    #expect(reminder.stdout.contains("skipped-done"), "\(reminder.stdout)")
    // the limit travels in the export and comes back
    let export = try #require(
      try JSONSerialization.jsonObject(with: Data(nudge("export", now: Self.now).stdout.utf8))
        as? [String: Any])
    let habit = try #require((export["habits"] as? [[String: Any]])?.first)
    #expect(habit["at_most"] as? Bool == true)
    let other = Nudge()
    let file = other.home + "/backup.json"
    try nudge("export", now: Self.now).stdout.write(toFile: file, atomically: true, encoding: .utf8)
    let imported = try other("import", file, now: Self.now)
    #expect(imported.status == 0, "\(imported.stderr)")
    let back = try #require(try other.json("habit", "list", now: Self.now) as? [[String: Any]])
    #expect(back.first?["at_most"] as? Bool == true)
    #expect(back.first?["streak"] as? Int == 0)
    // edit --target makes it a target again (at least)
    #expect(try nudge("habit", "edit", "coffee", "--target", "1", now: Self.now).status == 0)
    let target = try #require(try nudge.json("habit", "list", now: Self.now) as? [[String: Any]])
    #expect(target.first?["at_most"] as? Bool == false)
  }

  @Test func badLimitsAreRefusedInOneLine() throws {
    let nudge = InProcess()
    let cases: [([String], String)] = [
      (["--at-most", "-1", "--unit", "cups"], "--at-most takes a whole number from 0"),
      (["--at-most", "two", "--unit", "cups"], "--at-most takes a whole number from 0"),
      (["--at-most", "2"], "--at-most and --unit go together"),
      (["--at-most", "2", "--target", "1", "--unit", "cups"], "not both"),
    ]
    for (args, says) in cases {
      let refused = try nudge.run(["habit", "add", "Coffee"] + args, now: Self.added)
      #expect(refused.status == 64, "\(args): \(refused.stderr)")
      #expect(refused.stderr.contains(says), "\(args): \(refused.stderr)")
      #expect(refused.stderr.split(separator: "\n").count == 1)
    }
    #expect((try nudge.json("habit", "list", now: Self.added) as? [[String: Any]])?.isEmpty == true)
    // no coffee at all is a limit too
    #expect(
      try nudge("habit", "add", "Coffee", "--at-most", "0", "--unit", "cups", now: Self.added)
        .status == 0)
  }
}
