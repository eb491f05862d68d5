import NudgeCore
import NudgeStore

/// Takes back the latest change made today (`nudge undo`), in one transaction: the entry
/// returns to what it was before the change (or goes, when the change created it), the change
/// is marked undone, and achievements follow the history.
public struct UndoChange: Sendable {
  public let db: AppDatabase

  public init(db: AppDatabase) { self.db = db }

  /// What an undo did.
  public enum Outcome: Sendable {
    case undone(ChangeTakenBack)
    /// The entry is no longer as that change left it (an import wrote it since): nothing was
    /// undone.
    case changedSince(EntryChange)
  }

  /// Takes back the latest change made on `madeOn` that is not undone yet; nil when that day
  /// has no change left to undo.
  public func callAsFunction(madeOn day: Day) throws(StoreError) -> Outcome? {
    try db.inTransaction {
      guard let change = try db.latestUndoableChange(madeOn: day), let touched = change.entry
      else { return nil }
      // only an entry still as the change left it is put back
      guard try db.entry(change.flow, key: touched.key) == change.after else {
        return .changedSince(change)
      }
      let ledger = AchievementLedger(db: db)
      let heldBefore = try ledger.held()
      if let before = change.before {
        try db.putFlowEntry(before)
      } else {
        try db.removeFlowEntry(touched)
      }
      try db.markUndone(change)
      let (new, lost) = try ledger.settle(heldBefore: heldBefore)
      return .undone(ChangeTakenBack(change: change, newAchievements: new, lostAchievements: lost))
    }
  }
}
