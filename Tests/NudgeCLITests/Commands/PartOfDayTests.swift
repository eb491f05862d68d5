import Foundation
import NudgeCore
import Testing

@Suite struct PartOfDayTests {
  @Test func onlyAShorthandOrPlainWordsFarFromTheSlotAreAskedAbout() throws {
    let nudge = InProcess()
    // systemd's spelt-out expression at 23:15 is taken as written (a script's, a test's)
    #expect(try nudge.run(["schedule", "set", "morning", "*-*-* 23:15:00"]).status == 0)
    let daily = try nudge.run(["schedule", "set", "morning", "daily"])
    #expect(daily.status == 64)
    #expect(daily.stderr.contains("--yes"))
    #expect(try nudge.run(["schedule", "set", "morning", "daily", "--yes"]).status == 0)
    let pause = try nudge.run(["pause", "--for", "3h"])
    #expect(pause.status == 64)
  }
}
