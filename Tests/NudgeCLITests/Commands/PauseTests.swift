import Foundation
import NudgeCore
import Testing

@testable import NudgeCLI

/// `nudge pause`: reminders held, the streak kept, the next reminder after it, ended or resumed.
@Suite struct PauseTests {
  /// A pause that ends next year says the year wherever its end is shown (it read "Paused
  /// until Wed 17 Feb" for 2027: issue 56, item 8).
  @Test func aPauseIntoNextYearShowsItsYear() throws {
    let nudge = InProcess()
    let now = "2026-12-20T08:00:00+01:00"
    let paused = try nudge.run(["pause", "--for", "60d", "--yes"], now: now)
    #expect(
      paused.stdout.contains("Paused until Wednesday 17 February 2027 (60 days)"),
      "\(paused.stdout)")
    #expect(try nudge.run([], now: now).stdout.contains("Paused until Wed 17 Feb 2027 ·"))
    #expect(try nudge.run(["schedule"], now: now).stdout.contains("Paused until Wed 17 Feb 2027:"))
    // this year's end: no year
    let short = InProcess()
    _ = try short.run(["pause", "--for", "3d", "--yes"], now: now)
    #expect(try short.run([], now: now).stdout.contains("Paused until Tue 22 Dec ·"))
  }

  @Test func aPauseHoldsTheRemindersAndTheNextOneIsAfterIt() throws {
    let nudge = InProcess()
    try #require(try nudge.run(["pause", "--until", "sunday"]).status == 0)
    let shown = try nudge.run(["schedule"])
    #expect(shown.stdout.contains("Paused until Sun 22 Nov: no reminder fires until then"))
    #expect(shown.stdout.contains("next Mon 23 Nov 07:00"), "\(shown.stdout)")
    let rows = try #require(try nudge.json("schedule") as? [[String: Any]])
    #expect(
      rows.first { $0["slot"] as? String == "evening" }?["next"] as? String
        == "2026-11-23T21:30:00+01:00")
  }

  @Test func sickDaysMarkedAfterTheFactMendTheStreakAndItsMilestones() throws {
    let nudge = InProcess()
    // six done days, three sick ones (no freeze yet: it takes seven), then one more done day
    for day in [1, 2, 3, 4, 5, 6, 10] {
      try #require(
        try nudge.run(
          ["prep", "--item", "water=yes", "--no-input"],
          now: String(format: "2026-12-%02dT21:30:00+01:00", day)
        ).status == 0)
    }
    let now = "2026-12-11T09:00:00+01:00"
    var streak = try #require(try nudge.json("streak", now: now) as? [String: Any])
    #expect(streak["current"] as? Int == 1)
    // off a terminal, marking past days needs --yes, and says the command that does it
    let unasked = try nudge.run(
      ["pause", "--from", "last monday", "--until", "wednesday"], now: now)
    #expect(unasked.status == 64)
    #expect(
      unasked.stderr.contains(
        "mark Mon 7 – Wed 9 Dec (already past) as days off; to mark them: nudge pause --from 2026-12-07 --until 2026-12-09 --yes"
      ), "\(unasked.stderr)")
    #expect(
      try nudge.run(["pause", "--from", "2026-12-07", "--for", "3d", "--yes"], now: now).status == 0
    )
    streak = try #require(try nudge.json("streak", now: now) as? [String: Any])
    #expect(streak["current"] as? Int == 7)
    #expect(streak["freezes_held"] as? Int == 1)
    #expect(streak["paused_until"] is NSNull)
    let earned = try #require(try nudge.json("achievements", now: now) as? [[String: Any]])
    #expect(
      earned.first { $0["key"] as? String == "streak-7" }?["earned_on"] as? String == "2026-12-10")
    // reminders go on: the pause is over
    #expect(try nudge.run(["resume"], now: now).status == 1)
    // a longer marking over part of it keeps the rest; one reaching today pauses from now on
    let both = try nudge.run(["pause", "--from", "yesterday", "--for", "3d", "--yes"], now: now)
    #expect(both.status == 0, "\(both.stderr)")
    #expect(
      both.stdout.contains(
        "Paused until Saturday 12 December (2 days), and Thu 10 Dec marked as days off."),
      "\(both.stdout)")
    let exported = try nudge.run(["export"], now: now).stdout
    let pauses = try #require(
      (try JSONSerialization.jsonObject(with: Data(exported.utf8)) as? [String: Any])?["pauses"]
        as? [[String: Any]])
    // days off in a row are one pause
    #expect(
      pauses.map { "\($0["first_day"] ?? "")..\($0["last_day"] ?? "")" }
        == ["2026-12-07..2026-12-12"], "\(pauses)")
    // days marked after the fact never shorten a pause already planned ahead
    try #require(
      try nudge.run(["pause", "--until", "2026-12-20"], now: "2026-12-12T09:00:00+01:00").status
        == 0)
    try #require(
      try nudge.run(
        ["pause", "--from", "2026-12-08", "--until", "2026-12-12", "--yes"],
        now: "2026-12-12T09:00:00+01:00"
      ).status == 0)
    let planned = try #require(
      try nudge.json("streak", now: "2026-12-12T09:10:00+01:00") as? [String: Any])
    #expect(planned["paused_until"] as? String == "2026-12-20", "\(planned)")
    // bad days: each a one-line usage error, nothing stored
    for args in [
      ["--from", "2026-12-01", "--for", "2d"], ["--from", "2027-12-20", "--for", "2d"],
      ["--from", "2026-12-09", "--until", "2026-12-08"], ["--from", "someday", "--for", "1d"],
    ] {
      let refused = try nudge.run(["pause"] + args + ["--yes"], now: now)
      #expect(refused.status == 64, "\(args)")
      #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
    }
  }

  @Test func aPauseSkipsRemindersKeepsTheStreakAndEndsOrResumes() throws {
    let nudge = InProcess()
    for day in 10...16 {
      try #require(
        try nudge.run(
          ["prep", "--item", "water=yes", "--no-input"], now: "2026-11-\(day)T21:30:00+01:00"
        )
        .status == 0)
    }
    let paused = try nudge.run(["pause", "--for", "5d"], now: "2026-11-17T09:00:00+01:00")
    #expect(paused.status == 0, "\(paused.stderr)")
    #expect(paused.stdout.contains("Paused until Saturday 21 November"))
    let today = try nudge.run([], now: "2026-11-19T09:00:00+01:00")
    #expect(today.stdout.contains("Paused until Sat 21 Nov"))
    // the streak waits through the days off: 7 days, no freeze used
    let streak = try #require(
      try nudge.json("streak", now: "2026-11-22T09:00:00+01:00") as? [String: Any])
    #expect(streak["current"] as? Int == 7)
    #expect((streak["frozen"] as? [Any])?.isEmpty == true)
    #expect(streak["freezes_held"] as? Int == 1)
    let during = try #require(
      try nudge.json("streak", now: "2026-11-19T09:00:00+01:00") as? [String: Any])
    #expect(during["paused_until"] as? String == "2026-11-21")
    // resume ends it early: the rest of the days count again
    let resumed = try nudge.run(["resume"], now: "2026-11-19T10:00:00+01:00")
    #expect(resumed.status == 0, "\(resumed.stderr)")
    let after = try #require(
      try nudge.json("streak", now: "2026-11-22T09:00:00+01:00") as? [String: Any])
    #expect(after["current"] as? Int == 0)
    #expect(try nudge.run(["resume"], now: "2026-11-19T10:00:00+01:00").status == 1)
    // the export carries the pause; a bad length is one line with an example
    let exported = try nudge.run(["export"], now: "2026-11-19T10:00:00+01:00")
    #expect(exported.stdout.contains("\"pauses\""))
    let bad = try nudge.run(["pause", "--for", "soon"], now: "2026-11-19T10:00:00+01:00")
    #expect(bad.status == 64)
    #expect(bad.stderr.contains("nudge pause --for 5d"))
  }

  /// A week of preps from the 10th, then three days off from the 17th, one of them done.
  func weekThenPause() throws -> InProcess {
    let nudge = InProcess()
    for day in 10...16 {
      try #require(
        try nudge.run(
          ["prep", "--item", "water=yes", "--no-input"], now: "2026-11-\(day)T21:30:00+01:00"
        )
        .status == 0)
    }
    try #require(
      try nudge.run(["pause", "--for", "3d"], now: "2026-11-17T09:00:00+01:00").status == 0)
    try #require(
      try nudge.run(["checkin", "--feel", "fine", "--no-input"], now: "2026-11-18T21:00:00+01:00")
        .status == 0)
    return nudge
  }

  @Test func pausedDaysAreMarkedInTheRingAndTheHeatmapAndListedInTheJSON() throws {
    let nudge = try weekThenPause()
    let now = "2026-11-21T09:00:00+01:00"  // a Saturday; the 20th missed and frozen
    let shown = try nudge.run(["streak"], now: now)
    #expect(shown.status == 0, "\(shown.stderr)")
    let lines = shown.stdout.split(separator: "\n").map(String.init)
    // off a terminal: no colour, a character of its own (the 18th was done all the same)
    #expect(lines.contains("   This week:  █ █ - █ - * ○  3/7"), "\(shown.stdout)")
    #expect(lines.contains { $0.hasPrefix("   Tue ") && $0.hasSuffix("█ -") }, "\(shown.stdout)")
    #expect(lines.contains { $0.hasPrefix("   Thu ") && $0.hasSuffix("█ -") }, "\(shown.stdout)")
    #expect(shown.stdout.contains("· missed  - paused (day off)"))
    #expect(!shown.stdout.contains("\u{1B}["))
    let report = try #require(try nudge.json("streak", now: now) as? [String: Any])
    #expect(report["paused_days"] as? [String] == ["2026-11-17", "2026-11-18", "2026-11-19"])
    #expect(report["frozen"] as? [String] == ["2026-11-20"])
    // the JSON's days are the range shown: a week's heatmap still holds the ring's 7 days
    let oneWeek = try #require(
      try nudge.json("streak", "--weeks", "1", now: "2026-11-23T09:00:00+01:00")
        as? [String: Any])
    #expect(oneWeek["paused_days"] as? [String] == ["2026-11-17", "2026-11-18", "2026-11-19"])
    let later = try #require(
      try nudge.json("streak", "--weeks", "1", now: "2026-11-26T09:00:00+01:00")
        as? [String: Any])
    #expect(later["paused_days"] as? [String] == [])
    let twelve = try #require(
      try nudge.json("streak", now: "2026-11-26T09:00:00+01:00") as? [String: Any])
    #expect(twelve["paused_days"] as? [String] == ["2026-11-17", "2026-11-18", "2026-11-19"])
  }

  @Test func aYearsHeatmapDrawsFiftyThreeWeeksAndFitsTheTerminal() throws {
    let nudge = try weekThenPause()
    let now = "2026-11-21T09:00:00+01:00"
    func rows(_ result: Nudge.Result) -> [String] {
      result.stdout.split(separator: "\n").map(String.init).filter {
        ["   Mon ", "   Tue ", "   Wed ", "   Thu ", "   Fri ", "   Sat ", "   Sun "].contains(
          String($0.prefix(7)))
      }
    }
    // wide enough: a space between the columns, 7 + 53 * 2 - 1 characters
    let wide = try nudge.run(["streak", "--weeks", "53"], now: now, env: ["COLUMNS": "120"])
    #expect(wide.status == 0, "\(wide.stderr)")
    let wideRows = rows(wide)
    #expect(wideRows.count == 7)
    #expect(wideRows[0].count == 7 + 53 * 2 - 1, "\(wide.stdout)")  // Monday the 16th: done
    #expect(wideRows[1].hasSuffix("█ -"))
    #expect(wide.stdout.contains("17 Nov"))  // the first week's Monday, in 2025
    #expect(wide.stdout.contains("- paused (day off)  ○ today, in progress"))
    // 80 columns: the weeks side by side, 53 of them, and nothing past the edge
    let narrow = try nudge.run(["streak", "--weeks", "53"], now: now, env: ["COLUMNS": "80"])
    let narrowRows = rows(narrow)
    #expect(narrowRows[0].count == 7 + 53)
    #expect(narrowRows[1].hasSuffix("█-"))
    // from the ring's day letters: the heatmap's labels, its days and the legend (the lines
    // above are the streak's own)
    let heatmap = narrow.stdout.split(separator: "\n").drop { !$0.hasPrefix("       ") }
    #expect(heatmap.count == 1 + 1 + 7 + 2)
    #expect(heatmap.allSatisfy { $0.count <= 80 }, "\(narrow.stdout)")
    // the default is still 12
    #expect(rows(try nudge.run(["streak"], now: now))[0].count == 7 + 12 * 2 - 1)
  }

  @Test func weeksOutOfRangeOrNotANumberIsOneLineSayingWhatIsAllowed() throws {
    let nudge = InProcess()
    for bad in ["0", "54", "-1", "twelve", "1.5", ""] {
      let result = try nudge.run(["streak", "--weeks", bad])
      #expect(result.status == 64, "\(bad): \(result.stderr)")
      #expect(result.stderr.contains("--weeks takes a whole number from 1 to 53"), "\(bad)")
      #expect(result.stderr.split(separator: "\n").count == 1)
      #expect(result.stdout.isEmpty)
    }
    // refused before anything is opened: no database made
    #expect(!FileManager.default.fileExists(atPath: nudge.databasePath))
    #expect(try nudge.run(["streak", "--weeks", "53"]).status == 0)
  }
}

/// Pauses a person can plan and take back (issue 57, items 2 and 3): a holiday set up ahead,
/// listed, removed, and a wrong pause undone with the achievement it gave.
@Suite struct PausesPlannedAndTakenBackTests {
  @Test func aHolidayIsPlannedAheadListedAndRemoved() throws {
    let nudge = InProcess()
    let now = "2026-12-10T09:00:00+01:00"
    let planned = try nudge.run(
      ["pause", "--from", "2026-12-11", "--until", "2026-12-14"], now: now)
    #expect(planned.status == 0, "\(planned.stderr)")
    #expect(
      planned.stdout.contains("Days off planned: Fri 11 – Mon 14 Dec (4 days, starting in 1 day)."),
      "\(planned.stdout)")
    // the today view says it ahead; reminders go on until then and skip its days
    let today = try nudge.run([], now: now).stdout
    #expect(today.contains("Days off Fri 11 – Mon 14 Dec · planned"), "\(today)")
    #expect(!today.contains("Paused until"))
    let rows = try #require(try nudge.json("schedule", now: now) as? [[String: Any]])
    let evening = rows.first { $0["slot"] as? String == "evening" }
    #expect(evening?["next"] as? String == "2026-12-10T21:30:00+01:00")
    let later = try #require(
      try nudge.json("schedule", now: "2026-12-10T22:00:00+01:00") as? [[String: Any]])
    #expect(
      later.first { $0["slot"] as? String == "evening" }?["next"] as? String
        == "2026-12-15T21:30:00+01:00", "\(later)")
    // once there, it is today's pause
    #expect(try nudge.run([], now: "2026-12-12T09:00:00+01:00").stdout.contains("Paused until"))
    // listed, numbered from the latest; resume names it and how to cancel it
    let listed = try #require(try nudge.json("pause", "list", now: now) as? [[String: Any]])
    #expect(listed.count == 1)
    #expect(listed.first?["when"] as? String == "ahead")
    #expect(listed.first?["number"] as? Int == 1)
    let resume = try nudge.run(["resume"], now: now)
    #expect(resume.status == 1)
    #expect(resume.stderr.contains("the next starts Fri 11 Dec"), "\(resume.stderr)")
    let removed = try nudge.run(["pause", "remove", "1"], now: now)
    #expect(removed.status == 0, "\(removed.stderr)")
    #expect(removed.stdout.contains("Removed the pause Fri 11 – Mon 14 Dec"))
    #expect((try nudge.json("pause", "list", now: now) as? [Any])?.isEmpty == true)
    // a weekday means the coming one: on a Thursday, "friday" is tomorrow
    let friday = try nudge.run(["pause", "--from", "friday", "--for", "4d", "--json"], now: now)
    #expect(friday.status == 0, "\(friday.stderr)")
    #expect(friday.stdout.contains("\"first_day\" : \"2026-12-11\""), "\(friday.stdout)")
    // what cannot be a pause: one line, the usage exit
    for word in ["x", "0", "7", "99999999999999999999", "2026-13-01", ""] {
      let refused = try nudge.run(["pause", "remove", word], now: now)
      #expect([1, 64].contains(refused.status), "\(word)")
      #expect(refused.stderr.split(separator: "\n").count == 1, "\(word): \(refused.stderr)")
    }
  }

  /// The issue's Thursday: a pause meant for the coming Friday marked the last one, lifting
  /// the streak over days already past and awarding "7-day streak"; undo, redo and `pause
  /// remove` each put the streak and the achievement right.
  @Test func aWrongPauseIsTakenBackWithTheAchievementItGave() throws {
    let nudge = InProcess()
    for day in [16, 17, 18, 19, 23, 24, 25, 26] {
      try #require(
        try nudge.run(
          ["prep", "--item", "water=yes", "--no-input"], now: "2026-11-\(day)T21:00:00+01:00"
        ).status == 0)
    }
    let now = "2026-11-26T21:30:00+01:00"
    func current() throws -> Int? {
      (try nudge.json("streak", now: now) as? [String: Any])?["current"] as? Int
    }
    func holdsStreak7() throws -> Bool {
      let earned = try #require(try nudge.json("achievements", now: now) as? [[String: Any]])
      return earned.contains { $0["key"] as? String == "streak-7" && !($0["earned_on"] is NSNull) }
    }
    #expect(try current() == 4)
    let marked = try nudge.run(
      ["pause", "--from", "last friday", "--for", "4d", "--yes"], now: now)
    #expect(marked.stdout.contains("Marked Fri 20 – Mon 23 Nov as days off"), "\(marked.stdout)")
    #expect(marked.stdout.contains("New achievement: 7-day streak."))
    #expect(try current() == 8)
    #expect(try holdsStreak7())
    let undone = try nudge.run(["undo"], now: now)
    #expect(undone.status == 0, "\(undone.stderr)")
    #expect(undone.stdout.contains("Undone: the pause Fri 20 – Mon 23 Nov"), "\(undone.stdout)")
    #expect(undone.stdout.contains("Achievement taken back: 7-day streak"), "\(undone.stdout)")
    #expect(try current() == 4)
    #expect(try !holdsStreak7())
    let redone = try nudge.run(["redo"], now: now)
    #expect(redone.stdout.contains("Redone: the pause Fri 20 – Mon 23 Nov"), "\(redone.stdout)")
    #expect(try current() == 8)
    let removed = try nudge.run(["pause", "remove", "2026-11-21"], now: now)
    #expect(removed.status == 0, "\(removed.stderr)")
    #expect(removed.stdout.contains("Achievement taken back: 7-day streak"), "\(removed.stdout)")
    #expect(try current() == 4)
    #expect(try !holdsStreak7())
    // and the removal is undone in turn
    #expect(
      try nudge.run(["undo"], now: now).stdout.contains("removing the pause Fri 20 – Mon 23 Nov"))
    #expect(try current() == 8)
  }

  /// Two changes in the same second, in two journals: undo takes back the later (it took back
  /// the habit's: issue 57, item 8).
  @Test func undoTakesBackTheLaterOfTwoChangesInOneSecond() throws {
    let nudge = InProcess()
    let now = "2026-11-20T15:00:00+01:00"
    let note = try #require(
      try nudge.json("need-help", "--category", "stress", "--no-input", "--json", now: now)
        as? [String: Any])
    let id = try #require(note["id"] as? String, "\(note)")
    try #require(try nudge.run(["habit", "add", "Read"], now: now).status == 0)
    try #require(try nudge.run(["habit", "done", "read"], now: now).status == 0)
    try #require(
      try nudge.run(["delete", "help", String(id.prefix(8)), "--yes"], now: now).status == 0)
    let undone = try nudge.run(["undo"], now: now)
    #expect(undone.stdout.contains("is back"), "\(undone.stdout)")
    #expect(!undone.stdout.contains("'Read'"), "\(undone.stdout)")
    // then the habit's, then the help note's save
    #expect(try nudge.run(["undo"], now: now).stdout.contains("'Read' done"))
    // and a pause in the same second sorts the same way
    try #require(try nudge.run(["pause", "--for", "2d"], now: now).status == 0)
    #expect(try nudge.run(["undo"], now: now).stdout.contains("Undone: the pause"))
  }
}
