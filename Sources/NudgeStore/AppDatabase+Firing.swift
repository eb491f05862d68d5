import CSQLite
import NudgeCore

/// The reminder's life in the store: the claim of a (slot, elapse) pair, and the reminder log
/// (written by `FireReminder`, for a skip or a duplicate with its claim, and by
/// `Reminder.Session`, for each outcome of a posting). What a firing does is decided by
/// `FireReminder`.
extension AppDatabase {
  /// Claims (slot, elapse) for one reminder: false when another run claimed it first (refused
  /// by the UNIQUE key, not a check-then-insert).
  public func claimFiring(slot: ReminderSource, elapse: Int) throws(StoreError) -> Bool {
    try write { db in try db.claim(slot: slot, elapse: elapse) }
  }

  /// The stored schedule of `slot` (its default when it was never changed).
  public func schedule(_ slot: ReminderSource) throws(StoreError) -> SlotSchedule {
    try read { db in try db.schedule(slot) }
  }

  /// Logs what happened to a reminder (shown, clicked, done, snoozed…).
  public func logReminder(_ entry: Reminder.LogEntry) throws(StoreError) {
    try write { db in try db.logReminder(entry) }
  }

  /// The reminder log, newest last.
  public func reminderLog(limit: Int) throws(StoreError) -> [Reminder.LogEntry] {
    try read { db in
      try db.fetchAll(Reminder.LogEntry.self, "ORDER BY id DESC LIMIT ?", [SQLValue(limit)])
        .reversed()
    }
  }

  /// Whether (slot, elapse) has been handled already.
  public func isClaimed(slot: ReminderSource, elapse: Int) throws(StoreError) -> Bool {
    try read { db in try db.isClaimed(slot: slot, elapse: elapse) }
  }
}

extension SQLiteConnection {
  /// Claims (slot, elapse) for one reminder: false when another run claimed it first (refused
  /// by the UNIQUE key, not a check-then-insert).
  fileprivate func claim(slot: ReminderSource, elapse: Int) throws -> Bool {
    do {
      try execute(
        "INSERT INTO reminder_claim (slot, elapse) VALUES (?, ?)",
        [SQLValue(slot), SQLValue(elapse)])
      return true
    } catch let error as SQLiteError where error.code == SQLITE_CONSTRAINT {
      return false
    }
  }

  /// Adds a line to the reminder log.
  func logReminder(_ entry: Reminder.LogEntry) throws { try insert(entry) }

  /// Whether (slot, elapse) has been handled already.
  func isClaimed(slot: ReminderSource, elapse: Int) throws -> Bool {
    try integer(
      "SELECT EXISTS (SELECT 1 FROM reminder_claim WHERE slot = ? AND elapse = ?)",
      [SQLValue(slot), SQLValue(elapse)]) == 1
  }

}
