import NudgeCore
import Testing

@testable import NudgeStore
@testable import NudgeUseCases

/// Undo: the latest change made today comes back out, one at a time, and achievements follow.
@Suite struct UndoChangeTests {
  let day = Day("2026-03-01")!

  @Test func undoTakesBackAnEditThenTheSaveThenNothing() throws {
    // Given a review saved, then edited, on one day
    let db = try AppDatabase.inMemory()
    let finish = FinishFlow(db: db)
    try finish(ReviewEntry.self, day: day, savedAt: "2026-03-01T08:00:00Z", madeOn: day) {
      $0.commitTo = "walk"
    }
    try finish(
      ReviewEntry.self, day: day, savedAt: "2026-03-01T09:00:00Z", madeOn: day, editing: true
    ) { $0.commitTo = "run" }
    let undo = UndoChange(db: db)
    // When undone once: the earlier answer is back
    guard case .moved(let edit, _) = try #require(try undo(madeOn: day)) else {
      Issue.record("the edit was not undone")
      return
    }
    #expect(edit.entryChange?.kind == .edited)
    #expect(try db.review(on: day)?.commitTo == "walk")
    // When undone again: the save goes, and the achievement it earned with it
    #expect(try db.achievements()[.firstReview] == day)
    guard case .moved(let save, let settled) = try #require(try undo(madeOn: day)) else {
      Issue.record("the save was not undone")
      return
    }
    #expect(save.entryChange?.kind == .saved)
    #expect(settled.lostAchievements == [.firstReview])
    #expect(try db.review(on: day) == nil)
    #expect(try db.achievements().isEmpty)
    // Then nothing is left to undo, and another day's changes are not today's
    #expect(try undo(madeOn: day) == nil)
  }

  @Test func anEntryChangedSinceIsNotPutBack() throws {
    // Given a prep saved, then replaced by another writer (an import) without a journal entry
    let db = try AppDatabase.inMemory()
    try FinishFlow(db: db)(PrepEntry.self, day: day, savedAt: "2026-03-01T21:00:00Z", madeOn: day) {
      $0.water = true
    }
    var replaced = try #require(try db.prep(on: day))
    replaced.produce = true
    try db.putEntry(replaced)
    // When undone
    let outcome = try #require(try UndoChange(db: db)(madeOn: day))
    // Then nothing changes and the change is named
    guard case .changedSince(let change) = outcome else {
      Issue.record("an entry changed since was undone")
      return
    }
    #expect(change.entryChange?.flow == .prep)
    #expect(try db.prep(on: day) == replaced)
  }

  @Test func undoingADeleteBringsTheEntryAndItsAchievementBack() throws {
    let db = try AppDatabase.inMemory()
    try FinishFlow(db: db)(PrepEntry.self, day: day, savedAt: "2026-03-01T21:00:00Z", madeOn: day) {
      $0.water = true
    }
    let deleted = try #require(
      try DeleteEntry(db: db)(.prep, key: day.description, madeOn: day, at: "2026-03-01T22:00:00Z"))
    #expect(deleted.lostAchievements == [.firstPrep])
    #expect(try db.prep(on: day) == nil)
    guard case .moved(let back, let settled) = try #require(try UndoChange(db: db)(madeOn: day))
    else {
      Issue.record("the delete was not undone")
      return
    }
    #expect(back.entryChange?.kind == .deleted)
    #expect(settled.newAchievements == [.firstPrep])
    #expect(try db.prep(on: day)?.water == true)
  }
}
