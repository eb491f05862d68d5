import NudgeCore
import NudgeStore

/// A habit's day recorded (done or skipped, from a terminal or its reminder), a habit's change
/// taken back, a habit removed or a Loop backup brought in — each in one transaction with the
/// achievements it earns or takes back (`AchievementLedger`).
public struct HabitChanges: Sendable {
  public let db: AppDatabase

  public init(db: AppDatabase) { self.db = db }

  /// What a change did to the achievements.
  public struct Settled: Sendable {
    public var newAchievements: [Achievement] = []
    public var lostAchievements: [Achievement] = []
  }

  /// Records `check` of habit `id` (replacing that day's), journaled; returns what it replaced
  /// and what it earned (or, a done turned into a skip, took back).
  public func record(_ check: HabitCheck, habit id: Int, madeOn: Day, at: String)
    throws(StoreError) -> (replaced: HabitCheck?, settled: Settled)
  {
    try settling { () throws(StoreError) in
      try db.putHabitCheck(check, habit: id, madeOn: madeOn, at: at)
    }
  }

  /// Takes back a habit's change (`nudge undo`); returns the habit's name.
  public func undo(_ change: HabitChange) throws(StoreError) -> (name: String, settled: Settled) {
    try settling { () throws(StoreError) in try db.undoHabitChange(change) }
  }

  /// Re-applies a habit's change an undo took back (`nudge redo`); returns the habit's name.
  public func redo(_ change: HabitChange) throws(StoreError) -> (name: String, settled: Settled) {
    try settling { () throws(StoreError) in try db.redoHabitChange(change) }
  }

  /// Removes a habit (its days go with it: what they earned is taken back).
  public func remove(_ habit: Habit, madeOn: Day, at: String) throws(StoreError) -> Settled {
    try settling { () throws(StoreError) in try db.removeHabit(habit, madeOn: madeOn, at: at) }
      .settled
  }

  /// Writes imported habits and their days, and what they earn.
  public func importHabits(_ habits: [(habit: Habit, checks: [HabitCheck])]) throws(StoreError)
    -> (count: AppDatabase.HabitImportCount, settled: Settled)
  {
    try settling { () throws(StoreError) in try db.importHabits(habits) }
  }

  /// Runs `change` and settles the achievements after it, in one transaction.
  private func settling<T>(_ change: () throws(StoreError) -> T) throws(StoreError) -> (
    T, settled: Settled
  ) {
    try db.inTransaction {
      let ledger = AchievementLedger(db: db)
      let heldBefore = try ledger.held()
      let result = try change()
      let (new, lost) = try ledger.settle(heldBefore: heldBefore)
      return (result, Settled(newAchievements: new, lostAchievements: lost))
    }
  }
}
