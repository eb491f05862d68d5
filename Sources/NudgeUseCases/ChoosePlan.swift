import NudgeCore
import NudgeStore

/// A plan turned on or off (`nudge plan on|off NAME`), journaled for `undo`; returns every
/// plan's choice after.
public struct ChoosePlan: Sendable {
  public let db: AppDatabase

  public init(db: AppDatabase) { self.db = db }

  public func callAsFunction(_ plan: String, on: Bool, madeOn: Day, at: String)
    throws(StoreError) -> [String: Bool]
  {
    try db.journaling(
      .plan(plan, on: on), madeOn: madeOn, at: at, keys: .these([.data(.planChoice(plan))])
    ) { () throws(StoreError) in
      try db.choosePlan(plan, on: on)
      return try db.planChoices()
    }
  }
}
