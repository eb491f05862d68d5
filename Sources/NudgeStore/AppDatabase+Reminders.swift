import CSQLite
import NudgeCore

extension AppDatabase {
  // MARK: - Triggers

  /// When the slot's timer last fired (epoch seconds), as systemd remembers a timer's last
  /// trigger: the base its next elapse is counted from.
  public func lastTrigger(_ slot: Slot) throws(StoreError) -> Int? {
    try read { db in try db.lastTrigger(slot) }
  }

  /// Records a firing of the slot's timer at `at`.
  public func recordTrigger(_ slot: Slot, at: Int) throws(StoreError) {
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
  public func takeDueSnooze(_ slot: Slot, now: Int) throws(StoreError) -> Snooze? {
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

  /// Claims (slot, elapse) for one reminder and logs its outcome, atomically. A second claim of
  /// the same pair is refused by the UNIQUE key (not a check-then-insert), logs `duplicate`
  /// and returns false.
  public func claimFiring(slot: Slot, elapse: Int, outcome: ReminderOutcome, at: String)
    throws(StoreError)
    -> Bool
  {
    try write { db in try db.claimFiring(slot: slot, elapse: elapse, outcome: outcome, at: at) }
  }

  /// Whether (slot, elapse) has been handled already.
  public func isClaimed(slot: Slot, elapse: Int) throws(StoreError) -> Bool {
    try read { db in try db.isClaimed(slot: slot, elapse: elapse) }
  }

  /// Logs what happened to a reminder (clicked, done, snoozed…).
  public func logReminder(_ entry: ReminderLogEntry) throws(StoreError) {
    try write { db in try db.logReminder(entry) }
  }

  /// The reminder log, newest last.
  public func reminderLog(limit: Int) throws(StoreError) -> [ReminderLogEntry] {
    try read { db in
      try db.fetchAll(ReminderLogEntry.self, "ORDER BY id DESC LIMIT ?", [SQLValue(limit)])
        .reversed()
    }
  }
}

/// The reminder reads and writes on a connection, for several of them in one transaction
/// (`AppDatabase.write { db in … }`); the `AppDatabase` methods of the same names are each one.
extension SQLiteConnection {
  func lastTrigger(_ slot: Slot) throws -> Int? {
    try fetchOne(SlotTrigger.self, key: slot.rawValue)?.at
  }

  func recordTrigger(_ slot: Slot, at: Int) throws { try save(SlotTrigger(slot: slot, at: at)) }

  func saveSnooze(_ snooze: Snooze) throws { try save(snooze) }

  /// Every stored snooze, in the slots' order.
  func snoozes() throws -> [Snooze] {
    let stored = try fetchAll(Snooze.self)
    return Slot.allCases.compactMap { slot in stored.first { $0.slot == slot } }
  }

  func takeDueSnooze(_ slot: Slot, now: Int) throws -> Snooze? {
    guard let snooze = try fetchOne(Snooze.self, key: slot.rawValue), snooze.due <= now else {
      return nil
    }
    try delete(Snooze.self, key: slot.rawValue)
    return snooze
  }

  /// The slot's schedule, its default when it was never changed.
  func schedule(_ slot: Slot) throws -> SlotSchedule {
    try fetchOne(SlotSchedule.self, key: slot.rawValue) ?? .defaults(slot)
  }

  func schedules() throws -> [SlotSchedule] {
    let stored = try fetchAll(SlotSchedule.self)
    return Slot.allCases.map { slot in stored.first { $0.slot == slot } ?? .defaults(slot) }
  }

  /// Claims (slot, elapse) and logs the outcome (`duplicate` and false when it was claimed).
  func claimFiring(slot: Slot, elapse: Int, outcome: ReminderOutcome, at: String) throws -> Bool {
    do {
      try execute(
        "INSERT INTO reminder_claim (slot, elapse) VALUES (?, ?)",
        [SQLValue(slot), SQLValue(elapse)])
    } catch let error as SQLiteError where error.code == SQLITE_CONSTRAINT {
      try insert(ReminderLogEntry(slot: slot, elapse: elapse, outcome: .duplicate, at: at))
      return false
    }
    try insert(ReminderLogEntry(slot: slot, elapse: elapse, outcome: outcome, at: at))
    return true
  }

  func isClaimed(slot: Slot, elapse: Int) throws -> Bool {
    try integer(
      "SELECT EXISTS (SELECT 1 FROM reminder_claim WHERE slot = ? AND elapse = ?)",
      [SQLValue(slot), SQLValue(elapse)]) == 1
  }

  func logReminder(_ entry: ReminderLogEntry) throws { try insert(entry) }

  /// Whether `day` is a day off (`nudge pause`).
  func isPaused(_ day: Day) throws -> Bool {
    try integer(
      "SELECT EXISTS (SELECT 1 FROM pause WHERE first_day <= ?1 AND last_day >= ?1)",
      [SQLValue(day)]) == 1
  }
}
