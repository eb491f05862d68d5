import Foundation
import NudgeCore
import Testing

@testable import NudgeCLI

/// `nudge pause`: reminders held, the streak kept, the next reminder after it, ended or resumed.
@Suite struct PauseTests {
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
    let unasked = try nudge.run(["pause", "--from", "monday", "--until", "wednesday"], now: now)
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
    #expect(
      pauses.map { $0["first_day"] as? String ?? "" } == ["2026-12-07", "2026-12-10"], "\(pauses)")
    // bad days: each a one-line usage error, nothing stored
    for args in [
      ["--from", "2026-12-01", "--for", "2d"], ["--from", "tomorrow", "--for", "2d"],
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
}
