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

  @Test func changesOfEveryKindMadeInOneSecondUndoLatestFirstAndRedoInTheirOrder() throws {
    // Given, in one second: a pause, a setting, a reminder time, a plan turned on, a habit
    // added and its day done, a prep saved
    let db = try AppDatabase.inMemory()
    let at = "2026-03-01T21:00:00Z"
    _ = try PauseDays(db: db)(
      Pause(firstDay: Day("2026-03-05")!, lastDay: Day("2026-03-06")!), today: day, at: at)
    _ = try ChangeSetting(db: db).set(.snooze, to: "5m", madeOn: day, at: at)
    _ = try ChangeSchedule(db: db)([.morning], madeOn: day, at: at) {
      $0.expression = "*-*-* 08:15:00"
    }
    _ = try ChoosePlan(db: db)("sleep", on: true, madeOn: day, at: at)
    let habit = try HabitChanges(db: db).add(
      Habit(id: 0, name: "Floss", question: "Did you floss?", every: .daily, since: day),
      madeOn: day, at: at)
    _ = try HabitChanges(db: db).record(
      HabitCheck(day: day, .done, savedAt: at), habit: habit.id, madeOn: day, at: at)
    try FinishFlow(db: db)(PrepEntry.self, day: day, savedAt: at, madeOn: day) { $0.water = true }
    func state() throws -> [String] {
      [
        "\(try db.pauses().count) pause", try db.settings().value(.snooze),
        try db.schedules().first { $0.slot == .morning }?.expression ?? "-",
        "\(try db.planChoices()["sleep"] ?? false)", "\(try db.habits().map(\.name))",
        "\(try db.habitChecks(habit.id).count) days", "\(try db.prep(on: day) != nil)",
      ]
    }
    let all = try state()
    // When all are undone, one at a time: each takes back the latest change left
    var kinds: [String] = []
    var states: [[String]] = []
    while case .moved(let change, _)? = try UndoChange(db: db)(madeOn: day) {
      kinds.append(change.subject.kindText)
      states.append(try state())
    }
    // Then they went latest first, each by its own kind, and nothing is left of them
    #expect(
      kinds == [
        "entry.saved", "habit.done", "habit.added", "plan.on", "schedule.set", "setting.snooze",
        "pause.paused",
      ])
    #expect(try state() == ["0 pause", "15m", "*-*-* 07:00:00", "false", "[]", "0 days", "false"])
    // and redo re-applies them in the order they were made, back to where they all were
    var redone: [String] = []
    while case .moved(let change, _)? = try RedoChange(db: db)(madeOn: day) {
      redone.append(change.subject.kindText)
    }
    #expect(redone == kinds.reversed())
    #expect(try state() == all)
    #expect(states.count == 7)
  }

  @Test func anUndoOnAComputerThatSyncsIsAChangeThatTravels() throws {
    // Given a computer that syncs, a prep saved and the celebrations turned off, both written
    // out already (nothing pending)
    let db = try AppDatabase.inMemory()
    try db.joinSync(
      device: "0123456789abcdef", name: "laptop", folder: "/srv/sync", at: "2026-03-01T20:00:00Z")
    try FinishFlow(db: db)(PrepEntry.self, day: day, savedAt: "2026-03-01T21:00:00Z", madeOn: day) {
      $0.water = true
    }
    _ = try ChangeSetting(db: db).set(
      .celebrations, to: "off", madeOn: day, at: "2026-03-01T21:01:00Z")
    try db.write { try $0.execute("DELETE FROM sync_dirty") }
    // When both are undone
    #expect(try UndoChange(db: db)(madeOn: day) != nil)
    #expect(try UndoChange(db: db)(madeOn: day) != nil)
    // Then each key the undos wrote is marked to go to the other computers
    let pending = try db.read { try $0.texts("SELECT key FROM sync_dirty ORDER BY key") }
    #expect(pending == ["entry/2026-03-01/prep", "setting/celebrations"])
    #expect(try db.prep(on: day) == nil)
  }
}
