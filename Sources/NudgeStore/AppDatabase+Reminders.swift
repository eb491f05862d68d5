import CSQLite
import NudgeCore

extension AppDatabase {
  // MARK: - Triggers

  /// When the slot's timer last fired (epoch seconds), as systemd remembers a timer's last
  /// trigger: the base its next elapse is counted from.
  public func lastTrigger(_ slot: ReminderSource) throws(StoreError) -> Int? {
    try read { db in try db.lastTrigger(slot) }
  }

  /// Records a firing of the slot's timer at `at`.
  public func recordTrigger(_ slot: ReminderSource, at: Int) throws(StoreError) {
    try write { db in try db.recordTrigger(slot, at: at) }
  }

  // MARK: - Snoozes

  /// Stores a snoozed reminder: `slot` is due again at `due` (epoch seconds) for `elapse`.
  public func saveSnooze(_ snooze: Snooze) throws(StoreError) {
    try write { db in try db.saveSnooze(snooze) }
  }

  /// Every stored snooze, due or not.
  public func snoozes() throws(StoreError) -> [Snooze] {
    try read { db in try db.snoozes() }
  }

  /// Takes the slot's snooze when it is due at `now`; nil when there is none or another
  /// process took it first (so a snooze is re-posted once, by whoever comes first).
  public func takeDueSnooze(_ slot: ReminderSource, now: Int) throws(StoreError) -> Snooze? {
    try write { db in try db.takeDueSnooze(slot, now: now) }
  }

  // MARK: - Reminders

  /// Each slot's schedule, defaults for slots never changed.
  public func schedules() throws(StoreError) -> [SlotSchedule] {
    try read { db in try db.schedules() }
  }

  public func saveSchedule(_ schedule: SlotSchedule) throws(StoreError) {
    try write { db in try db.save(schedule) }
  }
}

/// The reminder reads and writes on a connection, for several of them in one transaction
/// (`AppDatabase.write { db in … }`); the `AppDatabase` methods of the same names are each one.
extension SQLiteConnection {
  func lastTrigger(_ slot: ReminderSource) throws -> Int? {
    try fetchOne(SlotTrigger.self, key: slot.rawValue)?.at
  }

  func recordTrigger(_ slot: ReminderSource, at: Int) throws {
    try save(SlotTrigger(slot: slot, at: at))
  }

  func saveSnooze(_ snooze: Snooze) throws { try save(snooze) }

  /// Every stored snooze, in the slots' order.
  func snoozes() throws -> [Snooze] {
    let stored = try fetchAll(Snooze.self)
    return ReminderSource.allCases.compactMap { slot in stored.first { $0.slot == slot } }
  }

  func takeDueSnooze(_ slot: ReminderSource, now: Int) throws -> Snooze? {
    guard let snooze = try fetchOne(Snooze.self, key: slot.rawValue), snooze.due <= now else {
      return nil
    }
    try delete(Snooze.self, key: slot.rawValue)
    return snooze
  }

  /// The slot's schedule, its default when it was never changed.
  func schedule(_ slot: ReminderSource) throws -> SlotSchedule {
    try fetchOne(SlotSchedule.self, key: slot.rawValue) ?? .defaults(slot)
  }

  func schedules() throws -> [SlotSchedule] {
    let stored = try fetchAll(SlotSchedule.self)
    return ReminderSource.allCases.map { slot in stored.first { $0.slot == slot } ?? .defaults(slot)
    }
  }

  /// Whether `day` is a day off (`nudge pause`).
  func isPaused(_ day: Day) throws -> Bool {
    try integer(
      "SELECT EXISTS (SELECT 1 FROM pause WHERE first_day <= ?1 AND last_day >= ?1)",
      [SQLValue(day)]) == 1
  }
}
