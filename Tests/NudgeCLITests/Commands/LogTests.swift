import Foundation
import NudgeCore
import Testing

@testable import NudgeCLI

/// `nudge log`: the reminder log in order.
@Suite struct LogTests {
  @Test func theLogIsInTimeOrder() throws {
    let morning = "2026-11-20T08:00:00+01:00"
    var nudge = InProcess()
    nudge.notifier = ScriptedNotifier([], unavailable: "no notification server")
    // the later one logged first (a clock set back, a catch-up)
    _ = try nudge.run(["notify", "evening"], now: "2026-11-20T21:30:00+01:00")
    _ = try nudge.run(["notify", "morning"], now: "2026-11-20T07:00:00+01:00")
    let lines = try nudge.run(["log"]).stdout.split(separator: "\n")
    #expect(lines.count == 2)
    #expect(lines.first?.contains("07:00") == true && lines.last?.contains("21:30") == true)
    let json = try #require(try nudge.json("log") as? [[String: Any]])
    #expect(json.map { $0["slot"] as? String } == ["morning", "evening"])
  }
}
