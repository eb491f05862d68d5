import Foundation
import NudgeCore
import Testing

@testable import NudgeCLI

/// Several reminders for one habit (`--at 8:00 --at 20:00`, `habit remind NAME add|remove`):
/// each its own timer (checked by systemd-analyze), each quiet once the day is done; an undo
/// takes a change back; they travel in the export; bad times are refused in one line and
/// change nothing.
@Suite struct HabitRemindersTests {
  static let added = "2026-11-20T07:00:00+01:00"

  @Test func aHabitsReminderSlotsReadBackAndOthersDoNot() {
    #expect(ReminderSource.habit(3, reminder: 2).rawValue == "habit.h3.2")
    #expect(ReminderSource(rawValue: "habit.h3.2") == .habit(3, reminder: 2))
    #expect(ReminderSource(rawValue: "habit.h3") == .habit(3))
    #expect(ReminderSource.habit(3).rawValue == "habit.h3")
    for bad in [
      "habit.h3.1", "habit.h3.7", "habit.h3.02", "habit.h3.", "habit.h0.2", "habit.h3.2.1",
    ] {
      #expect(ReminderSource(rawValue: bad) == nil, "\(bad)")
    }
    // a plan called habit keeps its slots
    #expect(ReminderSource(rawValue: "habit.hello") == .plan(plan: "habit", slot: "hello"))
    #expect(ReminderSource.habit(3, reminder: 2).habitID == 3)
  }

  @Test func twoTimesAreTwoTimersThatPassSystemdAnalyzeAndGoWhenRemoved() throws {
    var nudge = Nudge()
    let config = nudge.home + "/config"
    nudge.environment["XDG_CONFIG_HOME"] = config
    try nudge("schedule")
    #expect(try nudge("install").status == 69)  // written; no systemd user instance here
    let add = try nudge(
      "habit", "add", "Water", "--at", "8:00", "--at", "20:00", now: Self.added)
    #expect(add.status == 0, "\(add.stderr)")
    #expect(add.stdout.contains("reminders 8:00 and 20:00"), "\(add.stdout)")
    let dir = config + "/systemd/user/"
    let first = try String(contentsOfFile: dir + "nudge-habit.h1.timer", encoding: .utf8)
    let second = try String(contentsOfFile: dir + "nudge-habit.h1.2.timer", encoding: .utf8)
    #expect(first.contains("OnCalendar=*-*-* 08:00:00"), "\(first)")
    #expect(second.contains("OnCalendar=*-*-* 20:00:00"), "\(second)")
    #expect(second.contains("Unit=nudge-notify@habit.h1.2.service"), "\(second)")
    // systemd reads both timers, and the second's service instance with its window
    let (status, complaints) = try systemdVerify(
      [
        dir + "nudge-habit.h1.timer", dir + "nudge-habit.h1.2.timer",
        "nudge-notify@habit.h1.2.service",
      ], home: nudge.home, config: config)
    #expect(status == 0 && complaints.isEmpty, "\(complaints)")
    #expect(
      FileManager.default.fileExists(atPath: dir + "nudge-notify@habit.h1.2.service.d/window.conf"))
    // a third; then the first removed: the rest move up, the last timer goes
    let third = try nudge("habit", "remind", "water", "add", "12:30", now: Self.added)
    #expect(third.stdout.contains("reminders 8:00, 20:00, 12:30"), "\(third.stdout)")
    #expect(FileManager.default.fileExists(atPath: dir + "nudge-habit.h1.3.timer"))
    let removed = try nudge("habit", "remind", "water", "remove", "8am", now: Self.added)
    #expect(removed.status == 0, "\(removed.stderr)")
    #expect(removed.stdout.contains("reminders 20:00, 12:30"), "\(removed.stdout)")
    #expect(!FileManager.default.fileExists(atPath: dir + "nudge-habit.h1.3.timer"))
    #expect(
      try String(contentsOfFile: dir + "nudge-habit.h1.timer", encoding: .utf8)
        .contains("OnCalendar=*-*-* 20:00:00"))
    // all removed: no timer of the habit is left
    #expect(try nudge("habit", "remind", "water", "remove", "all", now: Self.added).status == 0)
    let left = try FileManager.default.contentsOfDirectory(atPath: dir).filter {
      $0.hasPrefix("nudge-habit.h1")
    }
    #expect(left.isEmpty, "\(left)")
  }

  @Test func theRemindCommandListsAddsRemovesAndUndoTakesItBack() throws {
    let nudge = InProcess()
    try #require(try nudge("habit", "add", "Stretch", "--at", "9pm", now: Self.added).status == 0)
    #expect(
      try nudge("habit", "remind", "stretch", now: Self.added).stdout
        == "'Stretch': reminder 9pm\n")
    let added = try nudge("habit", "remind", "stretch", "add", "7:30", now: Self.added)
    #expect(added.status == 0, "\(added.stderr)")
    let list = try #require(try nudge.json("habit", "list", now: Self.added) as? [[String: Any]])
    #expect(list.first?["reminders"] as? [String] == ["9pm", "7:30"])
    #expect(list.first?["at"] as? String == "9pm")
    let undone = try nudge("undo", now: Self.added)
    #expect(undone.status == 0, "\(undone.stderr)")
    let back = try #require(try nudge.json("habit", "list", now: Self.added) as? [[String: Any]])
    #expect(back.first?["reminders"] as? [String] == ["9pm"])
    // edit --at replaces them all; --at off leaves none
    #expect(
      try nudge("habit", "edit", "stretch", "--at", "6:00", "--at", "18:00", now: Self.added)
        .stdout.contains("reminders 6:00 and 18:00"))
    #expect(try nudge("habit", "edit", "stretch", "--at", "off", now: Self.added).status == 0)
    #expect(
      try nudge("habit", "remind", "stretch", now: Self.added).stdout.contains(
        "has no reminder; add one"))
  }

  @Test func badTimesAreRefusedInOneLineAndChangeNothing() throws {
    let nudge = InProcess()
    try #require(
      try nudge("habit", "add", "Read", "--at", "8:00", "--at", "20:00", now: Self.added).status
        == 0)
    let before = try nudge("export", now: Self.added).stdout
    let cases: [([String], String)] = [
      (["habit", "remind", "read", "add", "20:00"], "comes at the same times as '20:00'"),
      (["habit", "remind", "read", "add", "8pm"], "comes at the same times as '20:00'"),
      (["habit", "remind", "read", "add", "25:00"], ""),
      (
        ["habit", "remind", "read", "remove", "9:00"],
        "no reminder at '9:00'; its reminders: 8:00, 20:00"
      ),
      (["habit", "remind", "read", "add"], "give the time"),
      // kept one a line: a line break in a time would be two
      (["habit", "remind", "read", "add", "@\n7"], "no line breaks or control characters"),
      (["habit", "add", "Walk", "--at", "9:00", "--at", "09:00"], "same times"),
      (
        ["habit", "add", "Walk"] + (1...7).flatMap { ["--at", "\($0 + 8):00"] },
        "at most 6 reminders, not 7"
      ),
    ]
    for (args, said) in cases {
      let run = try nudge.run(args, now: Self.added)
      #expect(run.status == 64, "\(args) \(run.stderr)")
      #expect(run.stderr.split(separator: "\n").count == 1, "\(args) \(run.stderr)")
      #expect(said.isEmpty || run.stderr.contains(said), "\(args) \(run.stderr)")
    }
    // six is the most: a seventh is refused
    for time in ["10:00", "12:00", "14:00", "16:00"] {
      #expect(try nudge("habit", "remind", "read", "add", time, now: Self.added).status == 0)
    }
    let seventh = try nudge("habit", "remind", "read", "add", "18:00", now: Self.added)
    #expect(seventh.status == 64 && seventh.stderr.contains("at most 6"), "\(seventh.stderr)")
    for time in ["10:00", "12:00", "14:00", "16:00"] {
      #expect(try nudge("habit", "remind", "read", "remove", time, now: Self.added).status == 0)
    }
    #expect(try nudge("export", now: Self.added).stdout == before)
  }

  @Test func eachReminderIsQuietOnceTheDayIsDone() throws {
    let notifier = ScriptedNotifier(.left)
    var nudge = InProcess()
    nudge.notifier = notifier
    try #require(
      try nudge("habit", "add", "Water", "--at", "8:00", "--at", "20:00", now: Self.added).status
        == 0)
    let morning = try nudge("notify", "habit.h1", "--scheduled", now: "2026-11-20T08:00:02+01:00")
    #expect(morning.stdout.contains("habit.h1: shown"), "\(morning.stdout)")
    #expect(notifier.posts.count == 1)
    try #require(try nudge("habit", "done", "water", now: "2026-11-20T12:00:00+01:00").status == 0)
    let evening = try nudge(
      "notify", "habit.h1.2", "--scheduled", now: "2026-11-20T20:00:02+01:00")
    #expect(evening.stdout.contains("habit.h1.2: skipped-done"), "\(evening.stdout)")
    #expect(notifier.posts.count == 1)
    // a third reminder the habit does not have offers nothing
    let stale = try nudge("notify", "habit.h1.3", "--scheduled", now: "2026-11-21T20:00:02+01:00")
    #expect(stale.status == 64, "\(stale.stderr)")
    #expect(stale.stderr.contains("no habit has the reminder 'habit.h1.3' now"), "\(stale.stderr)")
    #expect(notifier.posts.count == 1)
  }

  @Test func theTimesTravelInTheExportAndABadOneThereIsRefused() throws {
    let nudge = Nudge()
    try #require(
      try nudge("habit", "add", "Water", "--at", "8:00", "--at", "20:00", now: Self.added).status
        == 0)
    let exported = try nudge("export", now: Self.added).stdout
    #expect(exported.contains("\"also_at\""), "\(exported)")
    let file = nudge.home + "/backup.json"
    try exported.write(toFile: file, atomically: true, encoding: .utf8)
    let other = Nudge()
    #expect(try other("import", file, now: Self.added).status == 0)
    let list = try #require(try other.json("habit", "list", now: Self.added) as? [[String: Any]])
    #expect(list.first?["reminders"] as? [String] == ["8:00", "20:00"])
    for (forged, said) in [
      ("[\n        \"25:99\"\n      ]", "habits[0]"),
      ("[\n        \"8:00\"\n      ]", "a reminder time is given twice"),
      ("[\n        \"08:00\"\n      ]", "a reminder time is given twice"),
      ("[\n        \"@\\n7\"\n      ]", "no line breaks"),
    ] {
      let bad = exported.replacingOccurrences(
        of: "[\n        \"20:00\"\n      ]", with: forged)
      #expect(bad != exported)
      try bad.write(toFile: file, atomically: true, encoding: .utf8)
      let third = Nudge()
      let run = try third("import", file, now: Self.added)
      #expect(run.status == 65, "\(run.stderr)")
      #expect(
        run.stderr.contains(said) && run.stderr.contains("Nothing was imported"), "\(run.stderr)")
    }
  }
}
