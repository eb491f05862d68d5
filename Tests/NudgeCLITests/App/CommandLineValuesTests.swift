import Foundation
import NudgeCore
import Testing

@testable import NudgeCLI

/// Day and time values wherever a command takes one: today, tomorrow, weekdays.
@Suite struct CommandLineValuesTests {
  @Test func daysAreTodayTomorrowAndWeekdaysWhereverADayIsAsked() throws {
    let nudge = InProcess()
    let pause = try nudge.run(["pause", "--until", "tomorrow"])
    #expect(pause.status == 0, "\(pause.stderr)")
    #expect(pause.stdout.contains("Paused until Saturday 21 November"))
    let tuesday = try nudge.run(["pause", "--until", "tuesday"])
    #expect(tuesday.stdout.contains("Paused until Tuesday 24 November"))
    let prep = try nudge.run(["prep", "--item", "water=yes", "--day", "wednesday", "--no-input"])
    #expect(prep.status == 0, "\(prep.stderr)")
    #expect(prep.stdout.contains("Wednesday 18 November"))
    let ahead = try nudge.run(["prep", "--item", "water=yes", "--day", "tomorrow", "--no-input"])
    #expect(ahead.status == 64)
    let typo = try nudge.run(["pause", "--until", "tomorow"])
    #expect(typo.status == 64)
    #expect(typo.stderr.contains("Did you mean 'tomorrow'?"))
  }
}
