import Foundation
import NudgeCore
import Testing

@testable import NudgeStore
@testable import NudgeUseCases

/// What an import may change: entries, with achievements recomputed from them; never a setting
/// that names a program, never a claim, never an emptier entry over a fuller one.
@Suite struct ImportTrustTests {
  let day = Day("2026-11-20")!

  @Test func forgedAchievementsAreIgnoredAndOldForgeriesTakenBack() throws {
    // Given a database that holds an achievement no entry supports (an older import's)
    let db = try AppDatabase.inMemory()
    try db.write { try $0.insert(EarnedAchievement(key: .streak100, earnedOn: day)) }
    // When a document claiming more is imported with one prep
    var document = ExportDocument(
      settings: [:], prep: [PrepEntry(day: day, water: true, savedAt: "2026-11-20T21:00:00+01:00")],
      review: [], checkin: [], help: [])
    document.achievements = [
      EarnedAchievement(key: .streak30, earnedOn: day),
      EarnedAchievement(key: .perfectWeek, earnedOn: day),
    ]
    let summary = try ImportDocument(db: db)(document, at: "2026-11-20T12:00:00Z")
    // Then only what the entries earn is held
    #expect(try db.achievements() == [.firstPrep: day])
    #expect(summary.newAchievements == [.firstPrep])
    #expect(summary.lostAchievements == [.streak100])
  }

  @Test func aSettingThatNamesAProgramIsSkippedAndSaid() throws {
    let db = try AppDatabase.inMemory()
    let document = ExportDocument(
      settings: ["terminal": "sh -c 'touch /tmp/pwned'", "snooze": "5m"], prep: [], review: [],
      checkin: [], help: [])
    let summary = try ImportDocument(db: db)(document, at: "2026-11-20T12:00:00Z")
    #expect(summary.settingsSkipped == ["terminal"])
    #expect(summary.settingsAdded == ["snooze=5m"])
    #expect(try db.settings().value(.terminal) == "")
    #expect(try db.settings().snoozeSeconds == 300)
  }

  @Test func aNewerButEmptierEntryNeverReplacesAFullerOne() throws {
    let db = try AppDatabase.inMemory()
    try FinishFlow(db: db)(ReviewEntry.self, day: day, savedAt: "2026-11-20T08:00:00+01:00") {
      $0.why = "health"
      $0.swap = "water"
      $0.commitTo = "drink water"
      $0.commitFrom = "soda"
    }
    let emptier = ReviewEntry(day: day, commitTo: "x", savedAt: "2026-11-20T09:00:00+01:00")
    let summary = try ImportDocument(db: db)(
      ExportDocument(settings: [:], prep: [], review: [emptier], checkin: [], help: []),
      at: "2026-11-20T12:00:00Z")
    #expect(summary.keptFuller == ["review 2026-11-20"])
    #expect(summary.updated == 0)
    #expect(try db.review(on: day)?.why == "health")
    let fuller = ReviewEntry(
      day: day, why: "sleep", swap: "tea", commitTo: "drink tea", commitFrom: "coffee",
      savedAt: "2026-11-20T10:00:00+01:00")
    #expect(
      try ImportDocument(db: db)(
        ExportDocument(settings: [:], prep: [], review: [fuller], checkin: [], help: []),
        at: "2026-11-20T12:00:00Z"
      ).updated == 1)
    #expect(try db.review(on: day)?.why == "sleep")
  }

  @Test func theSummaryNamesPausesAndSchedulesTaken() throws {
    let db = try AppDatabase.inMemory()
    let document = ExportDocument(
      settings: [:], prep: [], review: [], checkin: [], help: [],
      schedule: [SlotSchedule(slot: .midday, expression: "*-*-* 12:15:00", enabled: true)],
      pauses: [Pause(firstDay: day, lastDay: day.adding(days: 2))])
    let summary = try ImportDocument(db: db)(document, at: "2026-11-20T12:00:00Z")
    #expect(summary.schedulesAdded == [.midday])
    #expect(summary.pausesAdded == ["2026-11-20..2026-11-22"])
  }
}

/// Merging, idempotence and the achievements an import earns (moved from the store's tests).
@Suite struct ImportMergeTests {
  let start = Day("2026-03-01")!
  let day = Day("2026-11-19")!

  @Test func importIsIdempotentAndNewerSaveWins() throws {
    let source = try AppDatabase.inMemory()
    try FinishFlow(db: source)(ReviewEntry.self, day: day, savedAt: "2026-11-19T08:00:00Z") {
      $0.swap = "water"
    }
    try FinishFlow(db: source)(
      HelpNote(id: "n1", day: day, category: .stress, note: "meeting", at: "2026-11-19T12:00:00Z"))
    try source.setSetting(.rolloverHour, to: "3")
    let document = try source.exportDocument()

    let target = try AppDatabase.inMemory()
    try FinishFlow(db: target)(ReviewEntry.self, day: day, savedAt: "2026-11-19T07:00:00Z") {
      $0.swap = "tea"
    }
    let first = try ImportDocument(db: target)(document, at: "2026-11-20T12:00:00Z")
    #expect((first.added, first.updated, first.unchanged) == (1, 1, 0))
    #expect(first.newAchievements == [.firstHelp])  // first-review was already earned here
    let second = try ImportDocument(db: target)(document, at: "2026-11-20T12:00:00Z")
    #expect((second.added, second.updated, second.unchanged) == (0, 0, 2))
    #expect(second.newAchievements.isEmpty)
    #expect(try target.review(on: day)?.swap == "water")
    #expect(try target.exportDocument() == document)

    // An older save does not replace a newer one.
    var older = document
    older.review[0].swap = "juice"
    older.review[0].savedAt = "2026-11-19T06:00:00Z"
    _ = try ImportDocument(db: target)(older, at: "2026-11-20T12:00:00Z")
    #expect(try target.review(on: day)?.swap == "water")
  }

  @Test func anEntryOfACoachFlowAmongThePlanFlowsIsRefusedAndNothingImported() throws {
    let db = try AppDatabase.inMemory()
    let prep = PrepEntry(day: day, water: true, savedAt: "2026-11-19T21:00:00Z")
    try db.putFlowEntry(prep.flowEntry)
    var document = ExportDocument(
      settings: ["celebrations": "off"], prep: [], review: [], checkin: [], help: [])
    document.flows = [
      AnsweredEntry(
        flow: "prep", day: day, answers: FlowAnswers(values: ["water": "maybe"]),
        savedAt: "2026-11-20T21:00:00Z")
    ]
    #expect(throws: StoreError.self) {
      try ImportDocument(db: db)(document, at: "2026-11-20T12:00:00Z")
    }
    #expect(try db.prep(on: day) == prep)
    #expect(try db.storedSettings().isEmpty)
  }

  @Test func importIsAllOrNothing() throws {
    // Given a database whose help-note insert fails, as a full disk would midway
    let db = try AppDatabase.inMemory()
    try db.write {
      try $0.execute(
        """
        CREATE TRIGGER fail BEFORE INSERT ON flow_entry WHEN new.flow = 'need-help'
        BEGIN SELECT RAISE(ABORT, 'boom'); END
        """)
    }
    var document = ExportDocument(
      settings: ["celebrations": "off"], prep: [], review: [], checkin: [], help: [])
    document.prep = [PrepEntry(day: day, savedAt: "2026-11-19T21:00:00Z")]
    document.help = [
      HelpNote(id: "n", day: day, category: .other, note: nil, at: "2026-11-19T12:00:00Z")
    ]
    // When the import fails on its last step
    #expect(throws: (any Error).self) {
      try ImportDocument(db: db)(document, at: "2026-11-20T12:00:00Z")
    }
    // Then the steps before it were rolled back too
    #expect(try db.prep(on: day) == nil)
    #expect(try db.storedSettings().isEmpty)
  }

  @Test func importAwardsPastAchievementsOnTheirHistoricalDates() throws {
    let source = try AppDatabase.inMemory()
    for i in 0..<8 {
      let day = start.adding(days: i)
      try FinishFlow(db: source)(ReviewEntry.self, day: day, savedAt: "\(day)T08:00:00Z") {
        $0.swap = "water"
      }
    }
    var document = try source.exportDocument()
    document.achievements = []  // an export from before achievements: history only

    let target = try AppDatabase.inMemory()
    let summary = try ImportDocument(db: target)(document, at: "2026-11-20T12:00:00Z")
    #expect(Set(summary.newAchievements) == [.firstReview, .streak3, .streak7, .morningWeek])
    let earned = try target.achievements()
    #expect(earned[.firstReview] == start)
    #expect(earned[.streak3] == start.adding(days: 2))
    #expect(earned[.morningWeek] == start.adding(days: 6))
    #expect(
      try ImportDocument(db: target)(document, at: "2026-11-20T12:00:00Z").newAchievements.isEmpty)
  }

  @Test func olderHistoryMovesAnAchievementToItsEarlierDay() throws {
    let db = try AppDatabase.inMemory()
    try FinishFlow(db: db)(
      PrepEntry.self, day: start.adding(days: 10), savedAt: "2026-03-11T21:00:00Z"
    ) {
      _ in
    }
    var document = ExportDocument(settings: [:], prep: [], review: [], checkin: [], help: [])
    document.prep = [PrepEntry(day: start, savedAt: "2026-03-01T21:00:00Z")]
    _ = try ImportDocument(db: db)(document, at: "2026-11-20T12:00:00Z")
    #expect(try db.achievements()[.firstPrep] == start)
  }
}

/// Importing what is already there compares it in memory and writes nothing.
@Suite struct ReimportTests {
  let day = Day("2026-11-20")!

  func document() -> ExportDocument {
    let at = "2026-11-20T21:00:00+01:00"
    return ExportDocument(
      settings: ["snooze": "5m"],
      prep: (0..<30).map { PrepEntry(day: day.adding(days: -$0), water: true, savedAt: at) },
      review: [ReviewEntry(day: day, why: "a/b \"c\"", commitTo: "tea", savedAt: at)],
      checkin: [CheckinEntry(day: day, followed: true, savedAt: at)],
      help: [HelpNote(id: "n1", day: day, category: .stress, note: "walked", at: at)],
      pauses: [Pause(firstDay: day.adding(days: 40), lastDay: day.adding(days: 41))])
  }

  @Test func theSameDocumentAgainWritesNothing() throws {
    let dir = NSTemporaryDirectory() + "nudge-reimport-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let path = dir + "/nudge.sqlite3"
    let db = try AppDatabase.open(path: path)
    let first = try ImportDocument(db: db)(document(), at: "2026-11-20T12:00:00Z")
    #expect(first.added == 33)
    // another connection sees `data_version` change only when someone commits a change
    let watcher = try SQLiteConnection(path: path)
    let version = try watcher.integer("PRAGMA data_version")
    let exported = try db.exportDocument()

    let again = try ImportDocument(db: db)(document(), at: "2026-11-20T12:00:00Z")
    #expect(again == ImportDocument.Summary(unchanged: 33))
    #expect(try watcher.integer("PRAGMA data_version") == version)
    #expect(try db.exportDocument() == exported)

    // a newer save of one day is the one write
    var newer = document()
    newer.checkin[0] = CheckinEntry(
      day: day, followed: true, feel: "good", savedAt: "2026-11-20T22:00:00+01:00")
    let changed = try ImportDocument(db: db)(newer, at: "2026-11-20T12:00:00Z")
    #expect(changed.updated == 1 && changed.unchanged == 32)
    #expect(try watcher.integer("PRAGMA data_version") != version)
    #expect(try db.checkin(on: day)?.feel == "good")
  }
}
