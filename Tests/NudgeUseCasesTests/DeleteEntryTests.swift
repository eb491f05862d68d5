import NudgeCore
import Testing

@testable import NudgeStore
@testable import NudgeUseCases

/// Delete: the entry goes, the delete is journaled, achievements no entry supports go with it.
@Suite struct DeleteEntryTests {
  let day = Day("2026-03-01")!

  @Test func deletingAHelpNoteJournalsItAndTakesBackItsFirst() throws {
    let db = try AppDatabase.inMemory()
    let note = HelpNote(
      id: "n1", day: day, category: .habit, note: "tea", at: "2026-03-01T12:00:00Z")
    try FinishFlow(db: db)(note, madeOn: day)
    let deleted = try #require(
      try DeleteEntry(db: db)(.needHelp, key: "n1", madeOn: day, at: "2026-03-01T13:00:00Z"))
    #expect(deleted.change.before == note.flowEntry && deleted.change.after == nil)
    #expect(deleted.lostAchievements == [.firstHelp])
    #expect(try db.helpNote(id: "n1") == nil)
    #expect(try db.latestUndoable(madeOn: day)?.entryChange?.kind == .deleted)
  }

  @Test func deletingWhatIsNotThereChangesNothing() throws {
    let db = try AppDatabase.inMemory()
    #expect(try DeleteEntry(db: db)(.review, key: "2026-03-01", madeOn: day, at: "x") == nil)
    #expect(try db.latestUndoable(madeOn: day) == nil)
  }
}
