import NudgeCore
import Testing

/// The words a newcomer types for a day, and the suggestion for a word Nudge does not know.
@Suite struct NewcomerWordsTests {
  // Friday 20 November 2026
  let friday = Day(year: 2026, month: 11, day: 20)

  @Test(arguments: [
    ("today", "2026-11-20", "2026-11-20"), ("Yesterday", "2026-11-19", "2026-11-19"),
    ("tomorrow", "2026-11-21", "2026-11-21"), ("monday", "2026-11-16", "2026-11-23"),
    ("mon", "2026-11-16", "2026-11-23"), ("fridays", "2026-11-20", "2026-11-20"),
    ("sat", "2026-11-14", "2026-11-21"), ("2026-11-02", "2026-11-02", "2026-11-02"),
  ])
  func aDayIsNamedAsPeopleSayIt(word: String, past: String, future: String) {
    #expect(Day.named(word, today: friday, toward: .past)?.description == past)
    #expect(Day.named(word, today: friday, toward: .future)?.description == future)
  }

  @Test(arguments: ["tomorow", "2026-13-01", "", "next week", "fri day"])
  func otherWordsAreNoDay(word: String) {
    #expect(Day.named(word, today: friday, toward: .past) == nil)
  }

  @Test func aSlipGetsTheClosestWordAndNothingFarGetsAGuess() {
    let commands = ["streak", "review", "achievements", "schedule", "prep"]
    #expect(Suggestion.closest(to: "reveiw", among: commands) == "review")
    #expect(Suggestion.closest(to: "achievments", among: commands) == "achievements")
    #expect(Suggestion.closest(to: "sched", among: commands) == "schedule")
    #expect(Suggestion.closest(to: "stats", among: commands) == nil)
    #expect(
      Suggestion.closest(to: "stats", among: commands, synonyms: ["stats": "streak"]) == "streak")
    #expect(Suggestion.closest(to: "xyz", among: commands) == nil)
    #expect(Suggestion.hint(for: "tomorow", among: Day.dayWords) == " Did you mean 'tomorrow'?")
    #expect(Suggestion.editDistance("kitten", "sitting") == 3)
  }

  @Test func aPauseRunsUntilTomorrowOrTheNextWeekday() throws {
    #expect(
      try Pause.lastDay(until: "tomorrow", for: nil, today: friday).description == "2026-11-21")
    #expect(
      try Pause.lastDay(until: "Tuesday", for: nil, today: friday).description == "2026-11-24")
    #expect(throws: InputError.self) {
      try Pause.lastDay(until: "yesterday", for: nil, today: friday)
    }
  }

  @Test func aMisspeltLinkNamesTheOneItProbablyMeant() {
    #expect(throws: InputError.self) { try DeepLink.parse("nudge://reveiw") }
    do {
      _ = try DeepLink.parse("nudge://reveiw")
    } catch {
      #expect(error.message.contains("(did you mean 'review'?)"))
    }
    do {
      _ = try DeepLink.parse("nudge://celebrate?achievement=frist-prep")
    } catch {
      #expect(error.message.contains("(did you mean 'first-prep'?)"))
    }
  }
}
