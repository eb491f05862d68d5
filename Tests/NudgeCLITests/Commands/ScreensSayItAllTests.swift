import Foundation
import NudgeCore
import Testing

@testable import NudgeCLI

/// What the screens left out or said wrong, lived with for a month (issue 57, items 9 and 11):
/// each checked on the real binary or in process, each failing before.
@Suite struct ScreensSayItAllTests {
  @Test func helpNamesThePlansFlowsAndRefusesWordsThatNameNothing() throws {
    let nudge = Nudge()
    let root = try nudge("--help")
    #expect(root.status == 0)
    #expect(root.stdout.contains("FLOWS OF PLANS"), "\(root.stdout)")
    #expect(root.stdout.contains("  sleep "), "\(root.stdout)")
    // `help WORD` for a plan's flow is its own help, not the root's
    let sleep = try nudge("help", "sleep")
    #expect(sleep.status == 0)
    #expect(sleep.stdout.hasPrefix("OVERVIEW: Last night"), "\(sleep.stdout)")
    // and it points to the man page, which an installed user has, not to a source file
    #expect(sleep.stdout.contains("man nudge, PLAN FILES"))
    #expect(!sleep.stdout.contains("FORMAT.md"))
    // a word that names nothing, with --help or after help: one line, the usage exit
    for arguments in [["frobnicate", "--help"], ["help", "frobnicate"], ["frobnicate", "-h"]] {
      let refused = try nudge.run(arguments)
      #expect(refused.status == 64, "\(arguments): \(refused)")
      #expect(refused.stdout.isEmpty)
      #expect(
        refused.stderr
          == "nudge: 'frobnicate' is not a command or a flow of a plan; see 'nudge --help' (and 'nudge plan list').\n",
        "\(refused.stderr)")
    }
    // a real command's help is untouched
    #expect(try nudge("help", "pause").stdout.contains("OVERVIEW: Take days off"))
  }

  @Test func scheduleListsEveryReminderInstallWritesAndPlanListSaysWhichAreOff() throws {
    let nudge = InProcess()
    let now = "2026-11-20T08:00:00+01:00"
    try #require(try nudge("habit", "add", "Read", "--at", "20:00", now: now).status == 0)
    let listed = try nudge("schedule", now: now).stdout
    #expect(listed.contains("habit.h1 on   20:00"), "\(listed)")
    #expect(listed.contains("· habit 'Read'"))
    let rows = try #require(try nudge.json("schedule", now: now) as? [[String: Any]])
    #expect(rows.first { $0["slot"] as? String == "habit.h1" }?["of"] as? String == "habit 'Read'")
    #expect(rows.first { $0["slot"] as? String == "morning" }?["of"] is NSNull)
    let plans = try nudge("plan", "list", now: now).stdout
    #expect(
      plans.contains(
        "nudge need-help  I need help  — midday reminder (off: nudge schedule on midday)"),
      "\(plans)")
    #expect(plans.contains("nudge prep  Prep Tonight  — evening reminder\n"))
  }

  @Test func theMorningReminderSaysBeforeTheDayGetsBusyOnlyInTheMorning() {
    #expect(ReminderSource.morning.body(hour: 7).contains("before the day gets busy"))
    #expect(!ReminderSource.morning.body(hour: 15).contains("before the day gets busy"))
    #expect(
      !DesktopNotification.reminder(.morning, streak: 2, hour: 15).body.contains("gets busy"))
    #expect(ReminderSource.evening.body(hour: 15) == ReminderSource.evening.body)
  }

  @Test func aLongAchievementTitleIsNotCut() throws {
    let nudge = InProcess()
    let now = "2026-11-20T21:00:00+01:00"
    try #require(try nudge("plan", "on", "sleep", now: now).status == 0)
    let achievements = try nudge("achievements", now: now).stdout
    #expect(achievements.contains("First challenge checked "), "\(achievements)")
    // (a number whose unit is its id, said once: DefinedFlowTests, "20 minutes on average")
  }

  @Test func daysOffAreDrawnAsDaysOffInHistoryAndAWeeklyHabitSaysItsWeek() throws {
    let nudge = InProcess()
    let now = "2026-11-26T21:00:00+01:00"
    try #require(
      try nudge("pause", "--from", "2026-11-20", "--until", "2026-11-22", "--yes", now: now)
        .status == 0)
    let history = try nudge("history", now: now).stdout
    #expect(history.contains("Sat 21 Nov - day off (paused)"), "\(history)")
    #expect(history.contains("Wed 25 Nov ·"))
    try #require(try nudge("habit", "add", "Gym", "--every", "3/week", now: now).status == 0)
    let done = try nudge("habit", "done", "gym", "--no-animation", now: now)
    #expect(done.stdout.contains("· 1 of 3 this week"), "\(done.stdout)")
    #expect(
      try nudge("today", now: now).stdout.contains("Gym done · streak 0 weeks · 1 of 3 this week"))
  }
}
