import NudgeCore
import NudgeStore

/// A habit added (journaled) or changed, its day recorded (done or skipped, from a terminal or
/// its reminder), a habit removed or a Loop backup brought in —
/// each but the addition in one transaction with the achievements it earns or takes back
/// (`AchievementLedger`) and, for a day done now, the celebration it draws.
public struct HabitChanges: Sendable {
  public let db: AppDatabase

  public init(db: AppDatabase) { self.db = db }

  /// What a change did to the achievements.
  public struct Settled: Sendable {
    public var newAchievements: [Achievement] = []
    public var lostAchievements: [Achievement] = []

    public init(newAchievements: [Achievement] = [], lostAchievements: [Achievement] = []) {
      self.newAchievements = newAchievements
      self.lostAchievements = lostAchievements
    }
  }

  /// Records `check` of habit `id` (replacing that day's), journaled; returns what it replaced
  /// and what it earned (or, a done turned into a skip, took back).
  public func record(
    _ check: HabitCheck, habit id: Int, madeOn: Day, at: String, kind: HabitChange.Kind? = nil
  ) throws(StoreError) -> (replaced: HabitCheck?, settled: Settled) {
    try settling { () throws(StoreError) in
      try db.putHabitCheck(check, habit: id, madeOn: madeOn, at: at, kind: kind)
    }
  }

  /// Records `check` of `habit` as `record(_:habit:madeOn:at:)` does and, when it makes today
  /// count that did not before (not a day filled in, nor one done again), draws its
  /// celebration with `reward` in the same transaction.
  public func record(
    _ check: HabitCheck, of habit: Habit, madeOn: Day, at: String, reward: RewardDraw?
  ) throws(StoreError) -> (
    replaced: HabitCheck?, settled: Settled, celebration: StoredCelebration?
  ) {
    try db.inTransaction {
      let (replaced, settled) = try record(check, habit: habit.id, madeOn: madeOn, at: at)
      var drawn: StoredCelebration? = nil
      if let reward, check.day == madeOn, replaced?.meets(habit) != true, check.meets(habit) {
        drawn = try CelebrationDraw(db: db, reward: reward)(
          newAchievements: settled.newAchievements, updated: false)
      }
      return (replaced, settled, drawn)
    }
  }

  /// Adds `habit` (journaled for `undo`); returns it with the id and travelling id it was given.
  public func add(_ habit: Habit, madeOn: Day, at: String) throws(StoreError) -> Habit {
    try db.addHabit(habit, madeOn: madeOn, at: at)
  }

  /// Stores `habit`'s changed name, question, reminder, target or archive state (journaled),
  /// with what that earns or takes back (a target raised can leave days short of it).
  @discardableResult
  public func update(_ habit: Habit, madeOn: Day, at: String) throws(StoreError) -> Settled {
    try settling { () throws(StoreError) in try db.updateHabit(habit, madeOn: madeOn, at: at) }
      .settled
  }

  /// Removes a habit (its days go with it: what they earned is taken back).
  public func remove(_ habit: Habit, madeOn: Day, at: String) throws(StoreError) -> Settled {
    try settling { () throws(StoreError) in try db.removeHabit(habit, madeOn: madeOn, at: at) }
      .settled
  }

  /// Writes imported habits and their days, and what they earn; `at`: when (a new habit's id
  /// starts with it).
  public func importHabits(_ habits: [(habit: Habit, checks: [HabitCheck])], at: String)
    throws(StoreError) -> (count: AppDatabase.HabitImportCount, settled: Settled)
  {
    try settling { () throws(StoreError) in try db.importHabits(habits, at: at) }
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
