import Foundation
import NudgeCore
import Testing

@testable import NudgeCLI

/// `nudge notify`: what the demo offers.
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
}
