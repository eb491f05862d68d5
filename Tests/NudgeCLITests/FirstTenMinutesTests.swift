import Foundation
import NudgeCore
import Testing

@testable import NudgeCLI

/// A newcomer's first ten minutes (issue 33): the mistakes they make are understood or
/// answered with the word they meant, and what Nudge says agrees with what is true.
@Suite struct FirstTenMinutesTests {
  // Friday 20 November 2026, 08:00 in Berlin
  let morning = "2026-11-20T08:00:00+01:00"

  @Test func editTakesTheDayBeforeOrAfterTheFlow() throws {
    let nudge = InProcess()
    try #require(
      try nudge.run(["review", "--commit-to", "walk", "--day", "yesterday", "--no-input"]).status
        == 0)
    let after = try nudge.run(["edit", "review", "yesterday", "--commit-to", "swim", "--no-input"])
    #expect(after.status == 0, "\(after.stderr)")
    #expect(after.stdout.contains("Thursday 19 November I will swim"))
    let before = try nudge.run(["edit", "yesterday", "review", "--commit-to", "run", "--no-input"])
    #expect(before.status == 0, "\(before.stderr)")
    #expect(before.stdout.contains("Thursday 19 November I will run"))
    // a weekday names the latest one: Thursday is yesterday
    let weekday = try nudge.run(["show", "thursday", "--json"])
    #expect(weekday.stdout.contains("\"commit_to\" : \"run\""))
    let deleted = try nudge.run(["delete", "review", "thu", "--yes"])
    #expect(deleted.status == 0, "\(deleted.stderr)")
    let misspelt = try nudge.run(["edit", "yesterday", "reveiw"])
    #expect(misspelt.status == 64)
    #expect(misspelt.stderr.contains("Did you mean 'review'?"))
  }

  @Test func aBareHourAndAnAfternoonHourAreTimesAndABadOneIs64() throws {
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

  @Test(arguments: [
    (["stats"], "Did you mean 'streak'?"),
    (["achievments"], "Did you mean 'achievements'?"),
    (["version"], "Did you mean '--version'?"),
    (["schedule", "sett", "morning", "9pm"], "Did you mean 'set'?"),
    (["schedule", "set", "mornin", "9pm"], "Did you mean 'morning'?"),
    (["config", "set", "terminl", "xterm"], "Did you mean 'terminal'?"),
    (["need-help", "--category", "stres", "--no-input"], "Did you mean 'stress'?"),
    (["prep", "--item", "watr=yes", "--no-input"], "Did you mean 'water=yes'?"),
    (["prep", "--dya", "yesterday"], "Did you mean '--day'?"),
    (["show", "yesterdy"], "Did you mean 'yesterday'?"),
    (["delete", "yesterday", "prepp"], "Did you mean 'prep'?"),
  ])
  func everyUnknownWordGetsTheWordItProbablyMeant(arguments: [String], hint: String) throws {
    let result = try InProcess().run(arguments)
    #expect(result.status == 64)
    #expect(result.stderr.contains(hint), "\(result.stderr)")
    #expect(result.stderr.split(separator: "\n").count == 1)
  }
}
