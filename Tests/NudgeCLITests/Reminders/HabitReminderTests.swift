import Foundation
import NudgeCore
import NudgeLinux
import NudgeStore
import Testing

@testable import NudgeCLI

/// A habit's own reminder, in this process against scripted doubles: Done records it with no
/// terminal and says so in a notification that goes by itself, Skip marks the day skipped, a
/// measurable habit's Done opens the terminal at its link, and a habit already done (or
/// skipped) today is not reminded. e2e-notify shows the same on dunst.
@Suite struct HabitReminderTests {
  static let added = "2026-11-20T08:00:00+01:00"
  static let evening = "2026-11-20T21:00:02+01:00"

  func nudge(_ notifier: ScriptedNotifier, launcher: RecordingLauncher = RecordingLauncher())
    throws -> InProcess
  {
    var nudge = InProcess()
    nudge.notifier = notifier
    nudge.launcher = launcher
    return nudge
  }

  func habits(_ nudge: InProcess) throws -> [[String: Any]] {
    try #require(try nudge.json("habit", "list", now: Self.evening) as? [[String: Any]])
  }

  func outcomes(_ nudge: InProcess) throws -> [String] {
    try #require(try nudge.json("log") as? [[String: Any]]).compactMap { $0["outcome"] as? String }
  }

  @Test func doneOnTheReminderRecordsTheHabitWithNoTerminalAndSaysSo() throws {
    let notifier = ScriptedNotifier(.action(.done), .left)
    let launcher = RecordingLauncher()
    let nudge = try nudge(notifier, launcher: launcher)
    try #require(
      try nudge(
        "habit", "add", "Stretch", "--at", "21:00", "--question", "Stretched <b>?",
        now: Self.added
      ).status == 0)
    let run = try nudge("notify", "habit.h1", "--scheduled", now: Self.evening)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("habit.h1: done"), "\(run.stdout)")
    let reminder = try #require(notifier.posts.first?.notification)
    #expect(reminder.title == "Stretch")
    // the question is the person's: markup shown as text
    #expect(reminder.body.hasPrefix("Stretched &lt;b&gt;?"), "\(reminder.body)")
    // no Open: a click on its body records nothing
    #expect(reminder.actions.map(\.id) == ["done", "snooze", "skip", "no"])
    #expect(reminder.actions.map(\.label) == ["Done", "Snooze 15 min", "Skip", "No"])
    let said = try #require(notifier.posts.last)
    #expect(said.notification.title == "✓ Done: Stretch")
    #expect(said.notification.body.contains("🏆 New achievement: First habit done"))
    #expect(said.notification.actions.isEmpty)
    #expect(said.seconds == 0)
    #expect(launcher.links.isEmpty)
    #expect(try habits(nudge).first?["done_today"] as? Bool == true)
    #expect(try outcomes(nudge) == ["shown", "done"])
    // undo takes the done back, as one typed in a terminal
    #expect(try nudge("undo", now: Self.evening).stdout.contains("Undone: 'Stretch' done"))
    #expect(try habits(nudge).first?["done_today"] as? Bool == false)
  }

  @Test func skipOnTheReminderMarksTheDaySkipped() throws {
    let notifier = ScriptedNotifier(.action(.skip), .left)
    let nudge = try nudge(notifier)
    try #require(try nudge("habit", "add", "Run", "--at", "21:00", now: Self.added).status == 0)
    let run = try nudge("notify", "habit.h1", "--scheduled", now: Self.evening)
    #expect(run.stdout.contains("habit.h1: skipped"), "\(run.stdout)")
    #expect(notifier.titles == ["Run", "Skipped: Run"])
    #expect(try habits(nudge).first?["today"] as? String == "skipped")
  }

  @Test func noOnTheReminderMarksTheDayFailed() throws {
    let notifier = ScriptedNotifier(.action(.no), .left)
    let nudge = try nudge(notifier)
    try #require(try nudge("habit", "add", "Run", "--at", "21:00", now: Self.added).status == 0)
    let run = try nudge("notify", "habit.h1", "--scheduled", now: Self.evening)
    #expect(run.stdout.contains("habit.h1: failed"), "\(run.stdout)")
    #expect(notifier.titles == ["Run", "Not today: Run"])
    #expect(try habits(nudge).first?["today"] as? String == "failed")
    #expect(try outcomes(nudge) == ["shown", "failed"])
    // undo takes it back, as a no typed in a terminal
    #expect(
      try nudge("undo", now: Self.evening).stdout.contains("Undone: 'Run' marked no"))
  }

  @Test func aDaySaidNoInTheTerminalGetsNoReminder() throws {
    let notifier = ScriptedNotifier(.left)
    let nudge = try nudge(notifier)
    try #require(try nudge("habit", "add", "Run", "--at", "21:00", now: Self.added).status == 0)
    let no = try nudge(
      "habit", "fail", "run", "--note", "knee hurts", now: "2026-11-20T18:00:00+01:00")
    #expect(no.status == 0, "\(no.stderr)")
    #expect(no.stdout.contains("Marked 'Run' no today: a miss"), "\(no.stdout)")
    let run = try nudge("notify", "habit.h1", "--scheduled", now: Self.evening)
    #expect(run.stdout.contains("habit.h1: skipped-done"), "\(run.stdout)")
    #expect(notifier.titles.isEmpty)
    // the next day it comes again
    let tomorrow = try nudge("notify", "habit.h1", "--scheduled", now: "2026-11-21T21:00:02+01:00")
    #expect(tomorrow.stdout.contains("habit.h1: shown"), "\(tomorrow.stdout)")
  }

  @Test func aMeasurableHabitsDoneOpensTheTerminalAtItsLink() throws {
    let notifier = ScriptedNotifier(.action(.done, activationToken: "tok"))
    let launcher = RecordingLauncher()
    let nudge = try nudge(notifier, launcher: launcher)
    try #require(
      try nudge(
        "habit", "add", "Read more", "--at", "21:00", "--target", "20", "--unit", "pages",
        now: Self.added
      ).status == 0)
    let run = try nudge("notify", "habit.h1", "--scheduled", now: Self.evening)
    #expect(run.stdout.contains("habit.h1: clicked"), "\(run.stdout)")
    #expect(launcher.links == ["nudge://habit?name=Read%20more"])
    #expect(launcher.tokens == ["tok"])
    #expect(
      try DeepLink.parse("nudge://habit?name=Read%20more").arguments
        == ["habit", "done", "--exact", "--", "Read more"])
  }

  @Test func aHabitDoneOrSkippedTodayIsNotRemindedAndARemovedOneLosesItsSlot() throws {
    let notifier = ScriptedNotifier()
    let nudge = try nudge(notifier)
    try #require(try nudge("habit", "add", "Floss", "--at", "21:00", now: Self.added).status == 0)
    try #require(try nudge("habit", "done", "floss", now: Self.added).status == 0)
    let run = try nudge("notify", "habit.h1", "--scheduled", now: Self.evening)
    #expect(run.stdout.contains("habit.h1: skipped-done"), "\(run.stdout)")
    #expect(notifier.posts.isEmpty)
    // a 3/week habit met this week is not reminded either
    try #require(
      try nudge("habit", "add", "Gym", "--every", "1/week", "--at", "21:00", now: Self.added)
        .status == 0)
    try #require(
      try nudge("habit", "done", "gym", "--day", "2026-11-20", now: Self.added).status == 0)
    let weekly = try nudge("notify", "habit.h2", "--scheduled", now: "2026-11-21T21:00:02+01:00")
    #expect(weekly.stdout.contains("habit.h2: skipped-done"), "\(weekly.stdout)")
    // removed: its slot is no reminder any more
    try #require(try nudge("habit", "remove", "gym", "--yes", now: Self.added).status == 0)
    let gone = try nudge("notify", "habit.h2", "--scheduled", now: "2026-11-22T21:00:02+01:00")
    #expect(!gone.stdout.contains("shown"), "\(gone.stdout)")
    #expect(notifier.posts.isEmpty)
  }

  @Test func snoozeBringsTheHabitsReminderBackAndItsDoneRecordsIt() throws {
    let start = try #require(InstantFormat.parse(Self.evening))
    let clock = TestClock(start)
    // snoozed, back after 15 minutes, then Done
    let notifier = ScriptedNotifier(.action(.snooze), .action(.done), .left)
    var nudge = try nudge(notifier)
    nudge.clock = clock
    try #require(try nudge("habit", "add", "Stretch", "--at", "21:00", now: Self.added).status == 0)
    let run = try nudge("notify", "habit.h1", "--scheduled", now: Self.evening)
    #expect(run.stdout.contains("habit.h1: done"), "\(run.stdout)")
    #expect(clock.current.seconds - start.seconds == 900)
    #expect(notifier.titles == ["Stretch", "Stretch", "✓ Done: Stretch"])
    let logged = try outcomes(nudge)
    // (as any reminder: shown is logged once, however often a snooze brings it back)
    #expect(logged == ["shown", "snoozed", "done"], "\(logged)")
  }

  @Test func aReminderOnTheScreenIsWithdrawnWhenTheHabitIsDoneInATerminal() throws {
    let shared = InProcess()
    try #require(try shared("habit", "add", "Floss", "--at", "21:00", now: Self.added).status == 0)
    let notifier = ScriptedNotifier([
      .checkDoneElsewhere(before: {
        _ = try? shared("habit", "done", "floss", now: Self.evening)
      })
    ])
    var nudge = shared
    nudge.notifier = notifier
    let run = try nudge("notify", "habit.h1", "--scheduled", now: Self.evening)
    #expect(run.stdout.contains("habit.h1: done-elsewhere"), "\(run.stdout)")
    #expect(try outcomes(nudge) == ["shown", "done-elsewhere"])
  }

  @Test func habitLinksAreCheckedAsHostileInput() throws {
    #expect(try DeepLink.parse("nudge://habit?name=Stretch") == .habit("Stretch"))
    #expect(try DeepLink.parse("nudge://habit?name=%C3%89tirements") == .habit("Étirements"))
    #expect(
      DeepLink.habit("Lire 20 pages, & plus").url
        == "nudge://habit?name=Lire%2020%20pages%2C%20%26%20plus")
    #expect(
      try DeepLink.parse(DeepLink.habit("Lire 20 pages, & plus").url)
        == .habit("Lire 20 pages, & plus"))
    for bad in [
      "nudge://habit", "nudge://habit?name=%1B%5B31m", "nudge://habit?name=%FF",
      "nudge://habit?name=%2D%2Dyes", "nudge://habit?name=%G1", "nudge://habit?name=a%+A",
      "nudge://habit?name=a%-0", "nudge://habit?id=3",
      "nudge://habit?name=" + String(repeating: "a", count: 61),
    ] {
      #expect(throws: InputError.self, "\(bad)") { try DeepLink.parse(bad) }
    }
  }
}
