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
