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

  @Test func aTimeThatFiresMoreThanOnceADayIsAskedAboutOrNeedsYes() throws {
    let nudge = InProcess()
    for expression in ["hourly", "07,19:00", "*:0/5"] {
      let refused = try nudge.run(["schedule", "set", "morning", expression])
      #expect(refused.status == 64, "\(expression): \(refused.stderr)")
      #expect(refused.stderr.contains("times a day; to keep it, add --yes"), "\(refused.stderr)")
      #expect(refused.stderr.split(separator: "\n").count == 1)
    }
    // nothing was saved
    let rows = try #require(try nudge.json("schedule") as? [[String: Any]])
    #expect(
      rows.map { $0["expression"] as? String } == [
        "*-*-* 07:00:00", "*-*-* 12:30:00", "*-*-* 21:30:00", "Sun *-*-* 18:00:00",
      ])
    // on a terminal it asks: Enter (no) keeps the old time, y takes the new one
    let kept = try nudge.typing("\n", "schedule", "set", "morning", "hourly")
    #expect(kept.status == 0, "\(kept.stderr)")
    #expect(
      kept.stdout.contains("*-*-* *:00:00 fires the morning reminder 24 times a day; keep it?"))
    #expect(kept.stdout.contains("Nothing changed."))
    let taken = try nudge.typing("y\n", "schedule", "set", "midday", "12:00,30")
    #expect(taken.status == 0, "\(taken.stderr)")
    #expect(taken.stdout.contains("fires the midday reminder 2 times a day"))
    #expect(try nudge.run(["schedule", "set", "evening", "*:0/5", "--yes"]).status == 0)
    let after = try #require(try nudge.json("schedule") as? [[String: Any]])
    #expect(
      after.map { $0["expression"] as? String } == [
        "*-*-* 07:00:00", "*-*-* 12:00,30:00", "*-*-* *:00/5:00", "Sun *-*-* 18:00:00",
      ])
  }

  /// A time that fires more often than once a minute is a timer, not a reminder: refused
  /// outright, with --yes and on a terminal too (it spun the firing loop: issue 56).
  @Test func aTimeThatFiresMoreThanOnceAMinuteIsRefusedEvenWithYes() throws {
    let nudge = InProcess()
    for expression in [
      "*:*:*", "*-*-* 00:00:00/0.000001", "*:*:0/30", "07:00:00,30", "07:00:00.5/1",
    ] {
      for extra in [[], ["--yes"]] {
        let refused = try nudge.run(["schedule", "set", "morning", expression] + extra)
        #expect(refused.status == 64, "\(expression): \(refused.stderr)")
        #expect(
          refused.stderr.contains("a reminder fires at most once a minute"), "\(refused.stderr)")
        #expect(refused.stderr.split(separator: "\n").count == 1)
      }
      let typed = try nudge.typing("y\n", "schedule", "set", "morning", expression)
      #expect(typed.status == 64, "\(expression): \(typed.stderr)")
    }
    let rows = try #require(try nudge.json("schedule") as? [[String: Any]])
    #expect(rows.first?["expression"] as? String == "*-*-* 07:00:00")
    // once a minute is still a time (asked about, taken with --yes)
    #expect(try nudge.run(["schedule", "set", "morning", "*:*", "--yes"]).status == 0)
  }

  /// A slot name with a dot is a plan's or a habit's reminder: refused with a line, never a
  /// crash (it ended in SIGILL, a force-unwrap: issue 57, item 1).
  @Test(arguments: ["walking.noon", "a.b", "coach.evening", "habit.h1"])
  func aDottedSlotIsRefusedNotACrash(slot: String) throws {
    let nudge = Nudge()
    for extra in [[], ["--yes"]] {
      for time in ["13:00", "25:00"] {
        let result = try nudge.run(["schedule", "set", slot, time] + extra)
        #expect(result.status == 64, "\(slot) \(time): \(result.status) \(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
      }
    }
  }
}
