import NudgeCore
import NudgeStore

/// Takes back the latest change made today (`nudge undo`), in one transaction: the entry
/// returns to what it was before the change (or goes, when the change created it), the change
/// is marked undone, and achievements follow the history.
public struct UndoChange: Sendable {
  public let db: AppDatabase

  public init(db: AppDatabase) { self.db = db }

  /// What an undo (or a redo) did.
  public enum Reverted: Sendable {
    case undone(ChangeTakenBack)
    /// The entry is no longer as the undo (or redo) expects it (an import wrote it since):
    /// nothing was changed.
    case changedSince(EntryChange)
  }

  /// Takes back the latest change made on `madeOn` that is not undone yet; nil when that day
  /// has no change left to undo.
  public func callAsFunction(madeOn day: Day) throws(StoreError) -> Reverted? {
    try db.inTransaction {
      guard let change = try db.latestUndoableChange(madeOn: day) else { return nil }
      return try JournalStep(db: db).move(
        change, from: change.after, to: change.before, undone: true)
    }
  }
}

/// Re-applies what the latest undo of today took back (`nudge redo`), until the next change:
/// the entry gets the answers that change gave it again (or goes again, for a delete), the
/// change can be undone again, and achievements follow the history.
public struct RedoChange: Sendable {
  public let db: AppDatabase

  public init(db: AppDatabase) { self.db = db }

  /// Re-applies the change the latest undo on `madeOn` took back; nil when there is none (no
  /// undo that day, or a change made since).
  public func callAsFunction(madeOn day: Day) throws(StoreError) -> UndoChange.Reverted? {
    try db.inTransaction {
      guard let change = try db.latestRedoableChange(madeOn: day) else { return nil }
      return try JournalStep(db: db).move(
        change, from: change.before, to: change.after, undone: false)
    }
  }
}

/// One step along the change journal, shared by undo and redo.
private struct JournalStep {
  let db: AppDatabase

  /// Whether two entries hold the same answers, whenever each was saved (a run that changed
  /// nothing stamps a new time and journals nothing: it is no change to undo or redo over).
  static func sameAnswers(_ a: FlowEntry?, _ b: FlowEntry?) -> Bool {
    func unstamped(_ entry: FlowEntry?) -> StoredEntry? {
      guard var stored = entry?.stored else { return nil }
      stored.savedAt = ""
      return stored
    }
    return unstamped(a) == unstamped(b)
  }

  /// Puts `change`'s entry from `expected` to `target` (nil: no entry) and marks the change
  /// `undone` or not, inside the caller's transaction; only an entry still as `expected` moves.
  func move(
    _ change: EntryChange, from expected: FlowEntry?, to target: FlowEntry?, undone: Bool
  ) throws(StoreError) -> UndoChange.Reverted? {
    guard let touched = change.entry else { return nil }
    guard Self.sameAnswers(try db.entry(change.flow, key: touched.key), expected) else {
      return .changedSince(change)
    }
    let ledger = AchievementLedger(db: db)
    let heldBefore = try ledger.held()
    if let target {
      try db.putFlowEntry(target)
    } else {
      try db.removeFlowEntry(touched)
    }
    try db.markUndone(change, undone)
    let (new, lost) = try ledger.settle(heldBefore: heldBefore)
    return .undone(ChangeTakenBack(change: change, newAchievements: new, lostAchievements: lost))
  }
}
