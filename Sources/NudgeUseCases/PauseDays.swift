import NudgeCore
import NudgeStore

/// Marks days off (`nudge pause`), today on or days already past, in one transaction: the
/// pause is stored and achievements follow the history it gives (a streak that waited over
/// sick days may reach a milestone it had missed).
public struct PauseDays: Sendable {
  public let db: AppDatabase

  public init(db: AppDatabase) { self.db = db }

  /// Stores `pause` as of `today`; returns the achievements it gave and took away.
  public func callAsFunction(_ pause: Pause, today: Day) throws(StoreError) -> (
    new: [Achievement], lost: [Achievement]
  ) {
    try db.inTransaction {
      let ledger = AchievementLedger(db: db)
      let heldBefore = try ledger.held()
      try db.startPause(pause, today: today)
      return try ledger.settle(heldBefore: heldBefore)
    }
  }
}
