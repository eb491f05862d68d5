import Foundation
import NudgeCore
import Testing

@testable import NudgeCLI

/// `nudge notify`: what the demo offers, and how it is logged.
@Suite struct NotifyTests {
  @Test func theDemoNeverOffersAFlowThatIsDoneToday() throws {
    var nudge = InProcess()
    nudge.notifier = ScriptedNotifier([], unavailable: "no notification server")
    try #require(try nudge.run(["review", "--commit-to", "walk", "--no-input"]).status == 0)
    let demo = try nudge.run(["notify", "demo"])
    #expect(demo.status == 69)
    #expect(!demo.stdout.contains("Review your prep"), "\(demo.stdout)")
    #expect(demo.stdout.contains("Run: nudge need-help"), "\(demo.stdout)")
    // everything done in the evening: the week's look back, never a done flow
    for flow in [
      ["prep", "--item", "water=yes"], ["checkin", "--followed", "yes"],
      ["need-help", "--category", "habit"],
    ] {
      try #require(
        try nudge.run(flow + ["--no-input"], now: "2026-11-20T20:00:00+01:00").status == 0)
    }
    let evening = try nudge.run(["notify", "demo"], now: "2026-11-20T20:05:00+01:00")
    #expect(evening.stdout.contains("Run: nudge week"), "\(evening.stdout)")
  }

  @Test func theDemoWithoutAServerIsLoggedAsTheDemoNeverAsItsSlot() throws {
    var nudge = InProcess()
    nudge.notifier = ScriptedNotifier([], unavailable: "no notification server")
    let demo = try nudge.run(["notify", "demo"], now: "2026-11-20T07:30:00+01:00")
    #expect(demo.status == 69)
    #expect(demo.stdout.contains("Nudge · Review your prep"), "\(demo.stdout)")
    let log = try nudge.run(["log"], now: "2026-11-20T07:31:00+01:00")
    #expect(log.stdout == "Fri 20 Nov 07:30  demo     undelivered\n")
    #expect(!log.stdout.contains("morning"))
    let rows = try #require(try nudge.json("log") as? [[String: Any]])
    #expect(rows.count == 1)
    #expect(rows.first?["slot"] as? String == "demo")
    #expect(rows.first?["outcome"] as? String == "undelivered")
    // a real morning reminder is still logged as the morning's
    let morning = try nudge.run(["notify", "morning"], now: "2026-11-20T07:32:00+01:00")
    #expect(morning.stdout.contains("morning: undelivered"), "\(morning.stdout)")
    let both = try #require(try nudge.json("log") as? [[String: Any]])
    #expect(both.map { $0["slot"] as? String } == ["demo", "morning"])
  }
}
