import Foundation
import NudgeCore
import Testing

@Suite struct PausedFiringTests {
  @Test func aTimerFiringOnADayOffIsSkippedAndLogged() throws {
    let nudge = Nudge()
    try nudge("pause", "--for", "2d", now: "2026-11-24T06:00:00+01:00")
    let result = try nudge(
      "notify", "morning", "--scheduled", "--json", now: "2026-11-24T07:00:05+01:00")
    #expect(result.stdout.contains("skipped-paused"), "\(result.stdout)")
    let log = try #require(try nudge.json("log") as? [[String: Any]])
    #expect(log.last?["outcome"] as? String == "skipped-paused")
    try nudge("resume", now: "2026-11-25T06:00:00+01:00")
    let back = try nudge(
      "notify", "morning", "--scheduled", "--json", now: "2026-11-25T07:00:05+01:00")
    #expect(!back.stdout.contains("skipped-paused"))
  }
}
