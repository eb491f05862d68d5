import NudgeCore
import NudgeStore

/// Takes back the latest change made today (`nudge undo`), whatever it changed — an entry, a
/// help note, a habit or its day, the days off, a reminder time, a setting, a plan choice — in
/// one transaction: each key it changed returns to its value before, the change is marked
/// undone, and achievements follow the history.
public struct UndoChange: Sendable {
  public let db: AppDatabase

  public init(db: AppDatabase) { self.db = db }

  /// What an undo (or a redo) did.
  public enum Reverted: Sendable {
    case moved(JournalChange, Settled)
    /// A key is no longer as the undo (or redo) expects it (an import or a sync wrote it
    /// since): nothing was changed.
    case changedSince(JournalChange)
  }

  /// What a step along the journal did to the achievements.
  public typealias Settled = HabitChanges.Settled

  /// Takes back the latest change made on `madeOn` that is not undone yet; nil when that day
  /// has no change left to undo.
  public func callAsFunction(madeOn day: Day) throws(StoreError) -> Reverted? {
    try db.inTransaction {
      guard let change = try db.latestUndoable(madeOn: day) else { return nil }
      return try JournalStep(db: db).move(change, undo: true)
    }
  }
}

/// Re-applies what the latest undo of today took back (`nudge redo`), until the next change:
/// each key gets the value that change gave it again, the change can be undone again, and
/// achievements follow the history.
public struct RedoChange: Sendable {
  public let db: AppDatabase

  public init(db: AppDatabase) { self.db = db }

  /// Re-applies the change the latest undo on `madeOn` took back; nil when there is none (no
  /// undo that day, or a change made since).
  public func callAsFunction(madeOn day: Day) throws(StoreError) -> UndoChange.Reverted? {
    try db.inTransaction {
      guard let change = try db.latestRedoable(madeOn: day) else { return nil }
      return try JournalStep(db: db).move(change, undo: false)
    }
  }
}

/// One step along the change journal, shared by undo and redo.
private struct JournalStep {
  let db: AppDatabase

  func move(_ change: JournalChange, undo: Bool) throws(StoreError) -> UndoChange.Reverted {
    let ledger = AchievementLedger(db: db)
    let heldBefore = try ledger.held()
    guard try db.move(change, undo: undo) else { return .changedSince(change) }
    let (new, lost) = try ledger.settle(heldBefore: heldBefore)
    return .moved(change, UndoChange.Settled(newAchievements: new, lostAchievements: lost))
  }
}
