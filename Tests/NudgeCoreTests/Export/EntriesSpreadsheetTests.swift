import Testing

@testable import NudgeCore

/// `nudge export --csv`: RFC 4180 text a spreadsheet opens as is, answer columns in the order
/// the plans ask them, typed text kept whole and never run as a formula.
@Suite struct EntriesSpreadsheetTests {
  static let builtIn = PlanCatalogue.load(files: [], commandWords: []).questionsAsked
  static let day = Day("2026-11-20")!

  func entry(_ flow: String, _ answers: [String: String], id: String? = nil) -> StoredEntry {
    StoredEntry(
      flow: flow, day: Self.day, id: id, answers: answers, savedAt: "2026-11-20T21:00:00+01:00")
  }

  /// The rows after the byte order mark, split at CRLF (the last line's CRLF included).
  func lines(_ text: String) -> [String] {
    #expect(text.hasPrefix("\u{FEFF}"))
    #expect(text.hasSuffix("\r\n"))
    return text.dropFirst().split(separator: "\r\n", omittingEmptySubsequences: false)
      .dropLast().map(String.init)
  }

  @Test func theQuestionOrderIsThePlansOwn() {
    var seen: Set<String> = []
    #expect(
      Self.builtIn.map(\.id).filter { seen.insert($0).inserted } == [
        "sticky-notes", "produce", "water", "breakfast", "other", "why", "challenge",
        "challenge_other", "swap", "commit_to", "commit_from", "followed", "feel", "blocker",
        "category", "note", "bedtime", "wake", "rested", "accept", "completed",
      ])
  }

  @Test func theColumnsAreTheAnswersHeldInThePlansOrderThenTheRestByName() {
    let entries = [
      entry("need-help", ["category": "stress", "note": "late", "coach": "breathing"], id: "n1"),
      entry("sleep", ["bedtime": "23:10", "note": "noisy"]),
      entry("checkin", ["followed": "yes", "feel": "good"]),
      entry("prep", ["water": "yes", "sticky-notes": "no"]),
      entry("mine", ["zzz": "1", "aaa": "2"]),
    ]
    #expect(
      EntriesSpreadsheet.answerColumns(of: entries, questions: Self.builtIn).map(\.header) == [
        "sticky-notes", "water", "followed", "feel", "category", "need-help.note", "bedtime",
        "sleep.note", "aaa", "coach", "zzz",
      ])
    #expect(EntriesSpreadsheet.answerColumns(of: [], questions: Self.builtIn) == [])
  }

  @Test func aRowPerEntryUnderAHeaderWithEmptyFieldsForMissingAnswers() {
    let text = EntriesSpreadsheet.csv(
      [
        entry("prep", ["water": "yes", "produce": "no"]),
        entry("need-help", ["category": "habit", "note": "after lunch"], id: "n1"),
        entry("sleep", ["bedtime": "23:10", "rested": "4", "note": "noisy"]),
      ], questions: Self.builtIn)
    #expect(
      lines(text) == [
        "day,flow,saved_at,produce,water,category,need-help.note,bedtime,rested,sleep.note",
        "2026-11-20,prep,2026-11-20T21:00:00+01:00,no,yes,,,,,",
        "2026-11-20,need-help,2026-11-20T21:00:00+01:00,,,habit,after lunch,,,",
        "2026-11-20,sleep,2026-11-20T21:00:00+01:00,,,,,23:10,4,noisy",
      ])
    #expect(lines(EntriesSpreadsheet.csv([], questions: Self.builtIn)) == ["day,flow,saved_at"])
  }

  @Test func fieldsWithACommaAQuoteOrALineBreakAreQuotedTheirQuotesDoubled() {
    let cases: [(String, String)] = [
      ("plain words", "plain words"),
      ("tea, not soda", "\"tea, not soda\""),
      ("the \"good\" kind", "\"the \"\"good\"\" kind\""),
      ("two\nlines", "\"two\nlines\""),
      ("a\r\nb", "\"a\r\nb\""),
      ("", ""),
      ("naïve café ☕ 👨‍👩‍👧", "naïve café ☕ 👨‍👩‍👧"),
      ("'quoted'", "'quoted'"),
    ]
    for (value, field) in cases {
      #expect(EntriesSpreadsheet.quoted(value) == field, "\(value)")
    }
    let text = EntriesSpreadsheet.csv(
      [entry("prep", ["other": "oats, \"soaked\"\nand nuts"])], questions: Self.builtIn)
    #expect(
      text
        == "\u{FEFF}day,flow,saved_at,other\r\n"
        + "2026-11-20,prep,2026-11-20T21:00:00+01:00,\"oats, \"\"soaked\"\"\nand nuts\"\r\n")
  }

  @Test func aCellThatStartsLikeAFormulaGetsAnApostrophe() {
    let cases: [(String, String)] = [
      ("=HYPERLINK(\"http://x\",\"click\")", "'=HYPERLINK(\"http://x\",\"click\")"),
      ("+1+1", "'+1+1"),
      ("-2+3", "'-2+3"),
      ("@SUM(A1:A9)", "'@SUM(A1:A9)"),
      ("\t=1", "'\t=1"),
      ("\r=1", "'\r=1"),
      ("-", "'-"),
      ("- a list", "'- a list"),
      // a plain number stays a number
      ("-3", "-3"),
      ("+2.5", "+2.5"),
      ("-.5", "'-.5"),
      ("4", "4"),
      // only the start counts
      ("a=b", "a=b"),
      ("tea - not soda", "tea - not soda"),
      (" =1", " =1"),
    ]
    for (value, cell) in cases {
      #expect(EntriesSpreadsheet.guarded(value) == cell, "\(value)")
    }
    // guarded, then quoted: the apostrophe is inside the quotes
    let text = EntriesSpreadsheet.csv(
      [entry("review", ["swap": "=1,2", "commit_to": "@home"])], questions: Self.builtIn)
    #expect(lines(text).last == "2026-11-20,review,2026-11-20T21:00:00+01:00,\"'=1,2\",'@home")
  }

  @Test func theSleepPlansChallengeIsAColumnApartFromTheMorningFocuss() {
    let text = EntriesSpreadsheet.csv(
      [
        entry("review", ["challenge": "sugary-drinks", "commit_to": "tea"]),
        entry("sleep", ["challenge": "screens-off", "bedtime": "23:00"]),
      ], questions: Self.builtIn)
    #expect(
      lines(text) == [
        "day,flow,saved_at,review.challenge,commit_to,bedtime,sleep.challenge",
        "2026-11-20,review,2026-11-20T21:00:00+01:00,sugary-drinks,tea,,",
        "2026-11-20,sleep,2026-11-20T21:00:00+01:00,,,23:00,screens-off",
      ])
  }

  @Test func habitDaysAreRowsOfTheirOwnByDayWithTheirStateAndAmount() {
    let earlier = Day("2026-11-19")!
    let text = EntriesSpreadsheet.csv(
      [entry("checkin", ["feel": "good"])], questions: Self.builtIn,
      habitDays: [
        .init(
          habit: "Read", unit: "pages",
          check: HabitCheck(
            day: Self.day, done: true, value: 22, note: "on the train, \"again\"",
            savedAt: "2026-11-20T22:00:00Z")),
        .init(
          habit: "=Floss", unit: nil,
          check: HabitCheck(day: earlier, done: false, savedAt: "2026-11-19T22:00:00Z")),
        .init(
          habit: "Run", unit: nil,
          check: HabitCheck(day: earlier, .failed, note: "=rain", savedAt: "2026-11-19T22:00:00Z")),
      ])
    #expect(
      lines(text) == [
        "day,flow,saved_at,feel,habit,habit_state,habit_amount,habit_unit,habit_note",
        "2026-11-19,habit,2026-11-19T22:00:00Z,,'=Floss,skipped,,,",
        // a no is its own state; a note is guarded and quoted as any answer is
        "2026-11-19,habit,2026-11-19T22:00:00Z,,Run,failed,,,'=rain",
        "2026-11-20,checkin,2026-11-20T21:00:00+01:00,good,,,,,",
        "2026-11-20,habit,2026-11-20T22:00:00Z,,Read,done,22,pages,\"on the train, \"\"again\"\"\"",
      ])
  }
}
