import Foundation
import NudgeCore
import Testing

@testable import NudgeCLI

/// The end every flow shares: which day a save counts for, backfills, examples that work when pasted, refusals that name the day.
@Suite struct FlowEndTests {
  @Test func aPastDaysRefusalNamesTheDayInItsExample() throws {
    let morning = "2026-11-20T07:30:00+01:00"
    let r = try InProcess().run(
      ["review", "--day", "2026-11-18", "--swap", "tea", "--no-input"], now: morning)
    #expect(r.status == 64)
    #expect(r.stderr.contains("--commit-from soda --day 2026-11-18 --no-input"))
  }

  @Test func everyExampleNudgePrintsWorksWhenPasted() throws {
    let morning = "2026-11-20T07:30:00+01:00"
    for example in [
      PrepCommand.example, ReviewCommand.example, ReviewCommand.commitExample,
      CheckinCommand.example, CheckinCommand.exampleWithoutSwap, NeedHelpCommand.example,
    ] {
      let nudge = InProcess()
      if example == CheckinCommand.example {  // a swap to follow
        try nudge.run(Array(try CommandLineWords.split(ReviewCommand.commitExample).dropFirst()))
      }
      let words = try CommandLineWords.split(example)
      #expect(words.first == "nudge")
      let result = try nudge.run(Array(words.dropFirst()), now: morning)
      #expect(result.status == 0, "\(example): \(result.stderr)")
    }
    // and the refusals name them
    let refused = try InProcess().run(
      ["review", "--swap", "tea", "--no-input"], now: morning)
    #expect(refused.stderr.contains(ReviewCommand.commitExample))
    let offTerminal = try InProcess().run(["review"], now: morning)
    #expect(offTerminal.stderr.contains(ReviewCommand.example))
  }

  @Test func aCheckinAfterMidnightSaysWhichDayItCountsFor() throws {
    let nudge = InProcess()
    let result = try nudge.run(
      ["checkin", "--feel", "tired", "--no-input"], now: "2026-11-21T01:30:00+01:00")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("It counts for Friday 20 November"))
  }

  @Test func backfillingNamesTheDayAndItsTense() throws {
    let morning = "2026-11-20T07:30:00+01:00"
    let nudge = InProcess()
    let now = "2026-11-20T21:00:00+01:00"
    try #require(
      try nudge.run(
        [
          "review", "--day", "2026-11-18", "--commit-to", "walk", "--commit-from", "the bus",
          "--no-input",
        ], now: now
      ).status == 0)
    let checkin = try nudge.typing("y\nproud\n\n", "checkin", "--day", "2026-11-18", now: now)
    #expect(checkin.status == 0, "\(checkin.stderr)")
    // the day is named once, in the heading; the rest says "that morning", "that day"
    #expect(checkin.stdout.contains("(filling in Wednesday 18 November)"))
    #expect(checkin.stdout.contains("That morning: I will walk instead of the bus."))
    #expect(checkin.stdout.contains("Did you follow your swap that day?"))
    let asked = checkin.stdout.prefix { $0 != "✓" }
    #expect(asked.components(separatedBy: "18 November").count == 2, "\(asked)")
    #expect(checkin.stdout.contains("You followed your swap that day."))
    #expect(!checkin.stdout.contains("Tomorrow is a fresh try"))
    #expect(!checkin.stdout.contains("This morning"))
    let again = try nudge.run(
      ["checkin", "--day", "2026-11-18", "--followed", "no", "--no-input"], now: now)
    #expect(again.stdout.contains("Updated Wednesday 18 November"))
    #expect(!again.stdout.contains("Filled in"))
  }
}
