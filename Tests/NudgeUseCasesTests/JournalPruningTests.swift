import Foundation
import NudgeCore
import Testing

@testable import NudgeStore
@testable import NudgeUseCases

/// The undo journal keeps only what undo and redo can still reach: today's changes (done and
/// undone). A write of today drops the days before; nothing else goes with them.
@Suite struct JournalPruningTests {
  let yesterday = Day("2026-03-01")!
  let today = Day("2026-03-02")!

  func tempPath() -> String {
    let dir = NSTemporaryDirectory() + "nudge-journal-\(UUID().uuidString)"
    try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    return dir + "/nudge.sqlite3"
  }

  func journal(_ db: AppDatabase) throws -> [String] {
    try db.read { conn in
      try conn.texts(
        "SELECT made_on || ' ' || kind || ' ' || key || ' ' || undone FROM change_journal ORDER BY id"
      )
    }
  }

  @Test func todaysWriteDropsYesterdaysChangesAndTodaysUndoAndRedoStillWork() throws {
    let path = tempPath()
    let db = try AppDatabase.open(path: path)
    let finish = FinishFlow(db: db)
    // Given yesterday: a review saved and edited, a prep saved then undone (kept for redo
    // while it was yesterday), a help note
    try finish(ReviewEntry.self, day: yesterday, savedAt: "2026-03-01T08:00:00Z", madeOn: yesterday)
    {
      $0.commitTo = "walk"
    }
    try finish(
      ReviewEntry.self, day: yesterday, savedAt: "2026-03-01T09:00:00Z", madeOn: yesterday,
      editing: true
    ) { $0.commitTo = "run" }
    try finish(PrepEntry.self, day: yesterday, savedAt: "2026-03-01T21:00:00Z", madeOn: yesterday) {
      $0.water = true
    }
    try finish(
      HelpNote(
        id: "n1", day: yesterday, category: .stress, note: "meeting", at: "2026-03-01T15:00:00Z"),
      madeOn: yesterday)
    #expect(try UndoChange(db: db)(madeOn: yesterday) != nil)  // the help note taken back
    #expect(try journal(db).count == 4)
    // When today's first change is made, just after midnight (a check-in of yesterday, late)
    try finish(
      CheckinEntry.self, day: yesterday, savedAt: "2026-03-02T05:00:00Z", madeOn: today
    ) { $0.feel = "tired" }
    // Then only today's change is left in the journal
    #expect(try journal(db) == ["2026-03-02 entry.saved entry/2026-03-01/checkin 0"])
    // and nothing else went: yesterday's entries are as they were left
    #expect(try db.review(on: yesterday)?.commitTo == "run")
    #expect(try db.prep(on: yesterday)?.water == true)
    #expect(try db.checkin(on: yesterday)?.feel == "tired")
    #expect(try db.helpNote(id: "n1") == nil)
    // nothing of yesterday can be undone (as before), today's can, and be redone
    #expect(try UndoChange(db: db)(madeOn: yesterday) == nil)
    try finish(PrepEntry.self, day: today, savedAt: "2026-03-02T21:00:00Z", madeOn: today) {
      $0.produce = true
    }
    guard case .moved(let undone, _) = try #require(try UndoChange(db: db)(madeOn: today)) else {
      Issue.record("today's prep was not undone")
      return
    }
    #expect(try undone.entryChange?.flow == .prep && db.prep(on: today) == nil)
    // another write today keeps today's undone change until it ends what redo reaches
    #expect(
      try journal(db) == [
        "2026-03-02 entry.saved entry/2026-03-01/checkin 0",
        "2026-03-02 entry.saved entry/2026-03-02/prep 1",
      ])
    guard case .moved = try #require(try RedoChange(db: db)(madeOn: today)) else {
      Issue.record("today's prep was not redone")
      return
    }
    #expect(try db.prep(on: today)?.produce == true)
    guard case .moved(let second, _) = try #require(try UndoChange(db: db)(madeOn: today)) else {
      Issue.record("the prep was not undone again")
      return
    }
    #expect(second.entryChange?.flow == .prep)
    guard case .moved(let third, _) = try #require(try UndoChange(db: db)(madeOn: today)) else {
      Issue.record("the late check-in was not undone")
      return
    }
    #expect(try third.entryChange?.flow == .checkin && db.checkin(on: yesterday) == nil)
    #expect(try UndoChange(db: db)(madeOn: today) == nil)
    // a delete the next day drops all of that, reopened from the file
    let reopened = try AppDatabase.open(path: path)
    let next = today.adding(days: 1)
    #expect(
      try DeleteEntry(db: reopened)(
        .review, key: yesterday.description, madeOn: next, at: "2026-03-03T10:00:00Z") != nil)
    #expect(try journal(reopened) == ["2026-03-03 entry.deleted entry/2026-03-01/review 0"])
    #expect(try reopened.prep(on: yesterday)?.water == true)
  }
}
