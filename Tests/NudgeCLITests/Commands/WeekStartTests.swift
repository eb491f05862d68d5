import Foundation
import NudgeCore
import Testing

@testable import NudgeCLI

/// `config set week-start`, and the locale's first weekday when it is unset: `week`, the
/// heatmaps of `streak` and `habit show`, and an N-a-week habit's weeks begin on it; a bad
/// value is refused in one line and changes nothing.
@Suite struct WeekStartCLITests {
  // Friday 20 November 2026
  static let friday = "2026-11-20T20:00:00+01:00"

  func gym(_ nudge: InProcess) throws {
    try #require(
      try nudge("habit", "add", "Gym", "--every", "2/week", now: "2026-11-02T08:00:00+01:00")
        .status == 0)
    for day in ["14", "15"] {
      try #require(
        try nudge("habit", "done", "gym", "--day", "2026-11-\(day)", now: Self.friday).status == 0)
    }
  }

  @Test func theSettingMovesTheWeekTheHeatmapsAndAHabitsWeeks() throws {
    let nudge = InProcess()
    try gym(nudge)
    // Monday (the C locale's default is ISO 8601's): the week of the 9th held both days
    #expect(
      try nudge("week", now: Self.friday).stdout.hasPrefix(
        "Your week · Mon 16 Nov – Sun 22 Nov (so far)"))
    var gym = try #require(
      try nudge.json("habit", "list", now: Self.friday) as? [[String: Any]]
    ).first
    #expect(gym?["streak"] as? Int == 1 && gym?["period_done"] as? Int == 0, "\(gym ?? [:])")
    let set = try nudge("config", "set", "week-start", "Sunday", now: Self.friday)
    #expect(set.status == 0 && set.stdout.contains("week-start = sunday"), "\(set.stdout)")
    let week = try nudge("week", now: Self.friday).stdout
    #expect(week.hasPrefix("Your week · Sun 15 Nov – Sat 21 Nov (so far)"), "\(week)")
    #expect(week.contains("Gym: done 1 of 6 days"), "\(week)")
    #expect(
      try nudge("week", "--ago", "1", now: Self.friday).stdout.hasPrefix(
        "Your week · Sun 8 Nov – Sat 14 Nov\n"))
    // the 14th and 15th are two weeks now: the week of the 8th is missed, this one has one
    gym = try #require(
      try nudge.json("habit", "list", now: Self.friday) as? [[String: Any]]
    ).first
    #expect(gym?["streak"] as? Int == 0 && gym?["period_done"] as? Int == 1, "\(gym ?? [:])")
    // the heatmaps' rows begin on Sunday
    let show = try nudge("habit", "show", "gym", now: Self.friday).stdout
    let rows = show.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    let sun = try #require(rows.firstIndex { $0.hasPrefix("Sun") }, "\(show)")
    #expect(rows[sun + 1].hasPrefix("Mon") && rows[sun + 6].hasPrefix("Sat"), "\(show)")
    let streak = try nudge("streak", now: Self.friday).stdout
    let streakRows = streak.split(separator: "\n").map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    let first = try #require(streakRows.firstIndex { $0.hasPrefix("Sun") }, "\(streak)")
    #expect(streakRows[first + 6].hasPrefix("Sat"), "\(streak)")
    // saturday, and back to the locale's with unset
    #expect(try nudge("config", "set", "week-start", "saturday", now: Self.friday).status == 0)
    #expect(
      try nudge("week", now: Self.friday).stdout.hasPrefix(
        "Your week · Sat 14 Nov – Fri 20 Nov\n"))
    #expect(try nudge("config", "unset", "week-start", now: Self.friday).status == 0)
    #expect(
      try nudge("week", now: Self.friday).stdout.hasPrefix("Your week · Mon 16 Nov"))
  }

  @Test func unsetItIsTheLocalesFirstWeekday() throws {
    var nudge = InProcess()
    nudge.environment["LANG"] = "en_US.UTF-8"
    try gym(nudge)
    #expect(
      try nudge("week", now: Self.friday).stdout.hasPrefix("Your week · Sun 15 Nov"),
      "the en_US.UTF-8 locale is made by scripts/install-deps --test")
    let list = try nudge("config", "list", now: Self.friday).stdout
    #expect(list.contains("week-start = (your locale's: sunday)"), "\(list)")
    // a reminder's decision counts the same weeks: met this week (15th-21st) once of twice
    let gym = try #require(
      try nudge.json("habit", "list", now: Self.friday) as? [[String: Any]]
    ).first
    #expect(gym?["period_done"] as? Int == 1)
    // the setting wins over the locale
    #expect(try nudge("config", "set", "week-start", "monday", now: Self.friday).status == 0)
    #expect(try nudge("week", now: Self.friday).stdout.hasPrefix("Your week · Mon 16 Nov"))
  }

  @Test func aBadValueIsRefusedInOneLine() throws {
    let nudge = InProcess()
    for bad in ["friday", "", "mon day", "1"] {
      let run = try nudge("config", "set", "week-start", bad, now: Self.friday)
      #expect(run.status == 64, "\(bad): \(run.stderr)")
      #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
      #expect(run.stderr.contains("monday, sunday or saturday"), "\(run.stderr)")
    }
    // nothing was stored: still the locale's
    let settings = try #require(
      try nudge.json("config", "list", now: Self.friday) as? [String: String])
    #expect(settings["week-start"] == "")
  }

  @Test func aReminderCountsTheSameWeeks() throws {
    // a once-a-week habit done on Sunday the 15th: met for a week begun on Sunday (en_US), not
    // for one begun on Monday the 16th (de_DE)
    for (locale, outcome) in [("en_US.UTF-8", "skipped-done"), ("de_DE.UTF-8", "shown")] {
      let notifier = ScriptedNotifier(.left)
      var nudge = InProcess()
      nudge.notifier = notifier
      nudge.environment["LANG"] = locale
      try #require(
        try nudge(
          "habit", "add", "Call mum", "--every", "1/week", "--at", "19:00",
          now: "2026-11-02T08:00:00+01:00"
        ).status == 0)
      try #require(
        try nudge("habit", "done", "call", "--day", "2026-11-15", now: Self.friday).status == 0)
      let run = try nudge("notify", "habit.h1", "--scheduled", now: "2026-11-20T19:00:02+01:00")
      #expect(run.stdout.contains("habit.h1: \(outcome)"), "\(locale): \(run.stdout)")
    }
  }
}
