import NudgeCore
import NudgeStore

/// A plan turned on or off (`nudge plan on|off NAME`); returns every plan's choice after.
public struct ChoosePlan: Sendable {
  public let db: AppDatabase

  public init(db: AppDatabase) { self.db = db }

  public func callAsFunction(_ plan: String, on: Bool) throws(StoreError) -> [String: Bool] {
    try db.inTransaction {
      try db.choosePlan(plan, on: on)
      return try db.planChoices()
    }
  }
}
