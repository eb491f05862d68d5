import NudgeCore
import Testing

/// The coach's entries are stored as answers by the ids `plans/coach.plan` gives its
/// questions, in the forms those questions take, and read back unchanged.
@Suite struct StoredEntryTests {
  static let day = Day("2026-11-19")!
  static let coach = PlanCatalogue.load(files: [], commandWords: []).entries
    .first { $0.plan.name == "coach" }!.plan

  static let entries: [FlowEntry] = [
    PrepEntry(
      day: day, stickyNotes: true, produce: false, water: true, breakfast: false,
      other: "oats soaked", savedAt: "2026-11-19T21:30:00+01:00"
    ).flowEntry,
    ReviewEntry(
      day: day, why: "energy", challenge: .other, challengeOther: "office cake",
      swap: "fruit", commitTo: "eat fruit", commitFrom: "cake",
      savedAt: "2026-11-19T07:05:00+01:00"
    ).flowEntry,
    CheckinEntry(
      day: day, followed: false, feel: "tired", blocker: "meeting ran late",
      savedAt: "2026-11-19T21:00:00+01:00"
    ).flowEntry,
    HelpNote(
      id: "0f1e2d3c", day: day, category: .stress, note: "deadline", coach: "breathing 2:00",
      at: "2026-11-19T15:10:00+01:00"
    ).flowEntry,
  ]

  @Test(arguments: entries)
  func itsAnswersAreItsDefinitionsQuestionsInTheFormsTheyTake(entry: FlowEntry) throws {
    let stored = entry.stored
    let definition = try #require(Self.coach.flows.first { $0.word == stored.flow })
    // what the mini-coach did is a note of the help flow's own, not a question asked
    var asked = stored.answers
    if entry.flow == .needHelp { #expect(asked.removeValue(forKey: "coach") != nil) }
    #expect(Set(asked.keys).isSubset(of: Set(definition.questions.map(\.id))), "\(asked)")
    #expect(throws: Never.self) { try FlowAnswers(values: asked).checked(against: definition) }
    #expect(try FlowEntry(stored: stored) == entry)
  }

  @Test func aBlankPrepKeepsItsFourNoesAndNothingElse() throws {
    let stored = PrepEntry(day: Self.day, savedAt: "now").flowEntry.stored
    #expect(
      stored.answers == ["sticky-notes": "no", "produce": "no", "water": "no", "breakfast": "no"])
    #expect(stored.key == "2026-11-19")
  }

  @Test(arguments: [
    ("review", nil, ["challenge": "gremlins"], "'gremlins' as the challenge of review 2026-11-19"),
    ("prep", nil, ["water": "maybe"], "'maybe' as the water of prep 2026-11-19"),
    ("need-help", "n1", ["note": "x"], "help note n1 without a category"),
    (
      "need-help", nil, ["category": "stress"],
      "an entry of need-help on 2026-11-19 without the id it needs"
    ),
    ("sleep", "n1", [:], "an entry of sleep on 2026-11-19 with an id, 'n1'"),
    ("no such flow!", nil, [:], "an entry of 'no such flow!', which is not a flow name"),
  ])
  func anAnswerThisNudgeCannotReadIsRefusedNamingIt(
    flow: String, id: String?, answers: [String: String], message: String
  ) {
    let stored = StoredEntry(flow: flow, day: Self.day, id: id, answers: answers, savedAt: "now")
    #expect(throws: InputError(message)) { try FlowEntry(stored: stored) }
  }
}
