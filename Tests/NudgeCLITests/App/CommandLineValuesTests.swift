import Foundation
import NudgeCore
import Testing

@testable import NudgeCLI

/// Day and time values wherever a command takes one: today, tomorrow, weekdays; numbers that
/// start with a dash refused as numbers, naming their option.
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

  @Test func aNegativeNumberIsRefusedAsANumberNamingItsOption() throws {
    let nudge = InProcess()
    let refusals: [([String], String)] = [
      (["pause", "--for", "-3d"], "--for '-3d' is not a length: use a positive number of days"),
      (["pause", "--until", "-1"], "--until '-1' is not a day"),
      (["history", "--days", "-1"], "--days must be from 1 to 3650 days, not -1."),
      (["log", "--limit", "-5"], "--limit must be from 1 to 100000 entries, not -5."),
      (["week", "--ago", "-1"], "--ago must be from 0 to 52 weeks, not -1."),
      (["schedule", "preview", "daily", "--count", "-2"], "--count must be from 1 to 100000"),
      (["notify", "morning", "--wait", "-5"], "--wait must be from 0 to 86400 seconds"),
      (["notify", "morning", "--server-wait", "-0.5"], "not -0.5."),
      (
        ["need-help", "--breathing-seconds", "-60", "--category", "stress", "--no-input"],
        "--breathing-seconds must be from 5 to 600 seconds, not -60."
      ),
    ]
    for (arguments, said) in refusals {
      let run = try nudge.run(arguments)
      #expect(run.status == 64, "\(arguments): \(run.stderr)")
      #expect(run.stderr.contains(said), "\(arguments): \(run.stderr)")
      #expect(!run.stderr.contains("Missing value"), "\(arguments)")
      #expect(run.stderr.split(separator: "\n").count == 1, "\(arguments): \(run.stderr)")
    }
    // nothing was saved: no pause to end, no craving note
    #expect(try nudge.run(["resume"]).status == 1)
    #expect((try history(nudge, "2026-11-20T09:00:00+01:00")[0]["help"] as? [Any])?.isEmpty == true)
    // the numbers still work, "=" too, and a missing one is still said to be missing
    #expect(try nudge.run(["history", "--days", "2"]).status == 0)
    #expect(try nudge.run(["history", "--days=3"]).status == 0)
    let missing = try nudge.run(["history", "--days"])
    #expect(missing.status == 64)
    #expect(missing.stderr.contains("Missing value for '--days <n>'"))
  }
}
