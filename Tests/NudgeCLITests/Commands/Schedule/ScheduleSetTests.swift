import Foundation
import NudgeCore
import Testing

@testable import NudgeCLI

/// `nudge schedule set`: plain times and what is refused.
@Suite struct ScheduleSetTests {
  @Test func aBareHourAndAnAfternoonHourAreTimesAndABadOneIs64() throws {
    let morning = "2026-11-20T08:00:00+01:00"
    let nudge = InProcess()
    let seven = try nudge.run(["schedule", "set", "morning", "7"])
    #expect(seven.status == 0, "\(seven.stderr)")
    #expect(seven.stdout.contains("morning: every day at 07:00"))
    let evening = try nudge.run(["schedule", "set", "evening", "7pm"])
    #expect(evening.stdout.contains("evening: every day at 19:00"))
    for bad in ["25:00", "7:75", "Mon..Fry 7:00"] {
      let refused = try nudge.run(["schedule", "set", "morning", bad])
      #expect(refused.status == 64, "\(bad): \(refused.stderr)")
      #expect(refused.stderr.split(separator: "\n").count == 1)
    }
  }
}
