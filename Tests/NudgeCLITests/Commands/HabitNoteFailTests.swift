import Foundation
import NudgeCore
import Testing

@testable import NudgeCLI

/// A note on a habit's day (`--note`, `habit note`) and a day said no (`habit fail`): written,
/// changed, shown in `show`, `history` and `habit show`, taken back by `undo`, and every bad
/// note refused in one line with nothing written.
@Suite struct HabitNoteFailTests {
  static let added = "2026-11-16T08:00:00+01:00"
  static let evening = "2026-11-20T21:00:00+01:00"

  func nudgeWithRead() throws -> InProcess {
    let nudge = InProcess()
    try #require(
      try nudge("habit", "add", "Read", "--target", "20", "--unit", "pages", now: Self.added)
        .status == 0)
    try #require(try nudge("habit", "add", "Run", now: Self.added).status == 0)
    return nudge
  }

  @Test func aNoteIsWrittenWithTheDayChangedAndShownWhereTheDayIs() throws {
    let nudge = try nudgeWithRead()
    let done = try nudge(
      "habit", "done", "read", "--value", "22", "--note", "on the train", now: Self.evening)
    #expect(done.status == 0, "\(done.stderr)")
    // a second session adds its amount and keeps the note
    #expect(try nudge("habit", "done", "read", "--value", "3", now: Self.evening).status == 0)
    #expect(try nudge("habit", "note", "read", now: Self.evening).stdout == "on the train\n")
    let show = try nudge("show", "today", now: Self.evening).stdout
    #expect(show.contains("Read 25/20 (on the train)"), "\(show)")
    let changed = try nudge("habit", "note", "read", "on the train, then home", now: Self.evening)
    #expect(changed.status == 0, "\(changed.stderr)")
    #expect(changed.stdout.contains("Noted on 'Read' today"), "\(changed.stdout)")
    let history = try nudge("history", "--days", "3", now: Self.evening).stdout
    #expect(history.contains("Read 25/20 (on the train, then home)"), "\(history)")
    let json = try #require(
      try nudge.json("history", "--days", "1", now: Self.evening) as? [[String: Any]])
    let marks = try #require(json.first?["habits"] as? [[String: Any]])
    #expect(marks.first?["note"] as? String == "on the train, then home")
    let habit = try nudge("habit", "show", "read", now: Self.evening).stdout
    #expect(habit.contains("Notes:"), "\(habit)")
    #expect(habit.contains("    Fri 20 Nov: on the train, then home"), "\(habit)")
    // undo takes the change of the note back, then --remove removes it
    let undone = try nudge("undo", now: Self.evening)
    #expect(undone.stdout.contains("Undone: a note on 'Read'"), "\(undone.stdout)")
    #expect(try nudge("habit", "note", "read", now: Self.evening).stdout == "on the train\n")
    #expect(try nudge("habit", "note", "read", "--remove", now: Self.evening).status == 0)
    #expect(
      try nudge("habit", "note", "read", now: Self.evening).stdout.contains("(no note today)"))
    // the day's amount stayed through all of it
    let list = try #require(try nudge.json("habit", "list", now: Self.evening) as? [[String: Any]])
    #expect(list.first?["value_today"] as? Int == 25)
  }

  @Test func badNotesAreRefusedInOneLineAndNothingIsWritten() throws {
    let nudge = try nudgeWithRead()
    #expect(try nudge("habit", "done", "run", "--note", "fine", now: Self.evening).status == 0)
    let before = try nudge("export", now: Self.evening).stdout
    let cases: [(args: [String], says: String)] = [
      (["habit", "note", "run", String(repeating: "x", count: 1 << 20)], "a note is one line"),
      (["habit", "note", "run", "two\nlines"], "a note is one line of 1 to 500 characters"),
      (["habit", "note", "run", "  "], "a note is one line of 1 to 500 characters"),
      (["habit", "note", "run", "x\u{2028}y"], "no line or paragraph separators"),
      (["habit", "done", "run", "--note", String(repeating: "é", count: 501)], "--note:"),
      (["habit", "fail", "run", "--note", "bell\u{7}"], "--note:"),
      (["habit", "note", "run", "x", "--remove"], "give a note or --remove, not both"),
      (["habit", "note", "read", "nothing marked"], "'Read' has no mark today to note"),
      (["habit", "note", "run", "x", "--day", "tomorrow"], "is in the future"),
    ]
    for (args, says) in cases {
      let refused = try nudge.run(args, now: Self.evening)
      #expect(refused.status == 64, "\(args.prefix(3)): \(refused.stderr)")
      #expect(refused.stderr.contains(says), "\(args.prefix(3)): \(refused.stderr)")
      #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
      #expect(refused.stderr.utf8.count < 600, "\(args.prefix(3)): the error repeats the input")
    }
    #expect(try nudge("export", now: Self.evening).stdout == before)
  }

  @Test func aNoIsAMissTheViewsDrawApartFromASkipAndUnknown() throws {
    let nudge = try nudgeWithRead()
    for (day, verb) in [("16", "done"), ("17", "done"), ("18", "skip"), ("19", "fail")] {
      let run = try nudge("habit", verb, "run", now: "2026-11-\(day)T20:00:00+01:00")
      #expect(run.status == 0, "\(run.stderr)")
    }
    // the no ended the run: the streak says so at once, and again the next day
    let failed = try nudge("habit", "fail", "run", "--day", "yesterday", now: Self.evening)
    #expect(failed.stdout.contains("streak 0 days"), "\(failed.stdout)")
    let list = try #require(try nudge.json("habit", "list", now: Self.evening) as? [[String: Any]])
    let run = try #require(list.first { $0["name"] as? String == "Run" })
    #expect(run["streak"] as? Int == 0)
    // 2 done, then a skip that waits (it adds nothing): the best run is 2
    #expect(run["best_streak"] as? Int == 2)
    #expect(try nudge("habit", "fail", "run", now: Self.evening).status == 0)
    let today = try #require(
      try nudge.json("habit", "list", now: Self.evening) as? [[String: Any]])
    #expect(today.first { $0["name"] as? String == "Run" }?["today"] as? String == "failed")
    let text = try nudge("habit", "list", now: Self.evening).stdout
    #expect(text.contains("✗ Run"), "\(text)")
    // habit show: the tally, and the heatmap draws a no, a skip and an unknown day apart
    let show = try nudge("habit", "show", "run", now: Self.evening).stdout
    #expect(show.contains("Last 5 days: 2 done, 1 skipped, 2 no, 0 unknown"), "\(show)")
    #expect(show.contains("✗ no"), "\(show)")
    let wednesday = try #require(show.split(separator: "\n").first { $0.contains("Wed ") })
    #expect(wednesday.hasSuffix("-"), "\(wednesday)")
    let thursday = try #require(show.split(separator: "\n").first { $0.contains("Thu ") })
    #expect(thursday.hasSuffix("✗"), "\(thursday)")
    let history = try nudge("history", "--days", "5", now: Self.evening).stdout
    #expect(history.contains("Run ✗"), "\(history)")
    #expect(history.contains("Run skipped"), "\(history)")
    let week = try nudge("week", now: Self.evening).stdout
    #expect(week.contains("Run: done 2 of 5 days, 1 skipped, 2 no"), "\(week)")
    // a no over a done says what it replaced, and undo brings the done back
    #expect(try nudge("habit", "done", "run", now: Self.evening).status == 0)
    let replaced = try nudge("habit", "fail", "run", now: Self.evening).stdout
    #expect(replaced.contains("It replaces what was recorded for that day: done"), "\(replaced)")
    #expect(
      try nudge("undo", now: Self.evening).stdout.contains(
        "'Run' marked no (Fri 20 Nov is done again)"))
  }
}
