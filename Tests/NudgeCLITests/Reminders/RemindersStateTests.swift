import Foundation
import NudgeCore
import Testing

@testable import NudgeCLI

/// What the installed timers are doing, as the schedule and the today view say it.
@Suite struct RemindersStateTests {
  @Test func theScheduleAndTheTodayViewSayWhenNothingWillFire() throws {
    let morning = "2026-11-20T08:00:00+01:00"
    var nudge = InProcess()
    let fresh = try nudge.run(["schedule"])
    #expect(fresh.stdout.hasPrefix("Reminders are not installed: nudge install\n"))
    try #require(try nudge.run(["prep", "--item", "water=yes", "--no-input"]).status == 0)
    #expect(try nudge.run([]).stdout.contains("Reminders are not installed: nudge install"))
    // written without a user manager: not enabled, not "installed", and said so
    nudge.platform = TestPlatform(refusesPrograms: true)
    let written = try nudge.run(["install"])
    #expect(written.status == 69)
    #expect(written.stdout.contains("Wrote the reminder units"))
    #expect(!written.stdout.contains("Enabled") && !written.stdout.contains("Installed"))
    #expect(written.stderr.contains("no timer was enabled or started"))
    #expect(try nudge.run(["schedule"]).stdout.contains("Reminders will not fire here"))
    // a running daemon fires them
    nudge.platform = TestPlatform(refusesPrograms: true, daemon: true)
    #expect(!(try nudge.run(["schedule"]).stdout.contains("Reminders")))
    // a user manager whose timers are active fires them
    let manager = TestPlatform(userManager: true)
    nudge.platform = manager
    let installed = try nudge.run(["install"])
    #expect(installed.status == 0, "\(installed.stderr)")
    #expect(installed.stdout.contains("Installed and started the reminder timers"))
    let running = try nudge.run(["schedule"])
    #expect(!running.stdout.contains("Reminders"), "\(running.stdout)")
    #expect(
      manager.started.contains([
        "systemctl", "--user", "is-active", "--quiet", "nudge-morning.timer", "nudge-evening.timer",
      ]))
    #expect(!(try nudge.run([]).stdout.contains("Reminders")))
    // a timer someone disabled: named, with the fix
    nudge.platform = TestPlatform(userManager: true, inactiveUnits: ["nudge-evening.timer"])
    #expect(
      try nudge.run(["schedule"]).stdout.contains(
        "Reminders are not running (evening timer off): nudge install"))
  }
}
