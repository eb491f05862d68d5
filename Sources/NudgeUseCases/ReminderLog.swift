import NudgeCore
import NudgeStore

/// What became of a reminder once it was posted (clicked, done, dismissed, snoozed), written
/// to the reminder log; a snooze kept so it comes back, and taken when it is due.
public struct ReminderLog: Sendable {
  public let db: AppDatabase

  public init(db: AppDatabase) { self.db = db }

  /// Logs `entry`.
  public func log(_ entry: Reminder.LogEntry) throws(StoreError) {
    try db.logReminder(entry)
  }

  /// Keeps `snooze` and logs it as `entry`, in one write.
  public func snooze(_ snooze: Snooze, loggedAs entry: Reminder.LogEntry) throws(StoreError) {
    try db.inTransaction {
      try db.saveSnooze(snooze)
      try db.logReminder(entry)
    }
  }

  /// Takes `slot`'s snooze due by `now` (epoch seconds); nil when another process took it, or
  /// none is due.
  public func takeDueSnooze(_ slot: ReminderSource, now: Int) throws(StoreError) -> Snooze? {
    try db.takeDueSnooze(slot, now: now)
  }
}
