import NudgeCore
import NudgeStore

/// Deletes an entry (`nudge delete`), in one transaction: removes it, journals the delete for
/// `undo`, and takes back the achievements whose condition no longer holds.
public struct DeleteEntry: Sendable {
  public let db: AppDatabase

  public init(db: AppDatabase) { self.db = db }

  /// Deletes the entry of `flow` found by `key` (a day, or a help note's id), the change made
  /// on `madeOn` at `at`; nil when there is none.
  public func callAsFunction(_ flow: Flow, key: String, madeOn: Day, at: String)
    throws(StoreError) -> ChangeTakenBack?
  {
    try db.inTransaction {
      guard let entry = try db.entry(flow, key: key) else { return nil }
      let ledger = AchievementLedger(db: db)
      let heldBefore = try ledger.held()
      try db.removeFlowEntry(entry)
      try db.journalChange(madeOn: madeOn, at: at, kind: .deleted, before: entry, after: nil)
      let (_, lost) = try ledger.settle(heldBefore: heldBefore, awarding: false)
      let change = EntryChange(
        id: 0, madeOn: madeOn, at: at, kind: .deleted, flow: flow, before: entry, after: nil)
      return ChangeTakenBack(change: change, newAchievements: [], lostAchievements: lost)
    }
  }
}
