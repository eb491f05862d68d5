import NudgeCore
import NudgeStore

/// Takes a sync conflict's kept version instead of the one that won (`nudge sync take`), in
/// one transaction with the achievements held to the history it leaves: one the version that
/// won had earned, and the taken one does not, is taken back here as the other computers take
/// it back when the change reaches them, so every computer ends with the same achievements.
public struct TakeConflict: Sendable {
  public let db: AppDatabase

  public init(db: AppDatabase) { self.db = db }

  /// Takes conflict `id`; nil when there is no such conflict (nothing changed).
  public func callAsFunction(_ id: Int, madeOn: Day, at: String) throws(StoreError) -> (
    new: [Achievement], lost: [Achievement]
  )? {
    try db.inTransaction {
      let ledger = AchievementLedger(db: db)
      let held = try ledger.held()
      guard try db.takeSyncConflict(id, madeOn: madeOn, at: at) else { return nil }
      return try ledger.settle(heldBefore: held)
    }
  }
}
