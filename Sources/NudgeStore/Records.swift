import GRDB
import NudgeCore

extension Day: DatabaseValueConvertible {
  public var databaseValue: DatabaseValue { description.databaseValue }

  public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Day? {
    String.fromDatabaseValue(dbValue).flatMap(Day.init)
  }
}

extension Challenge: DatabaseValueConvertible {}
extension HelpCategory: DatabaseValueConvertible {}

extension PrepEntry: FetchableRecord, PersistableRecord {
  public static let databaseTableName = "prep"
}

extension ReviewEntry: FetchableRecord, PersistableRecord {
  public static let databaseTableName = "review"
}

extension CheckinEntry: FetchableRecord, PersistableRecord {
  public static let databaseTableName = "checkin"
}

extension HelpNote: FetchableRecord, PersistableRecord {
  public static let databaseTableName = "help_note"
}

extension Achievement: DatabaseValueConvertible {}

extension EarnedAchievement: FetchableRecord, PersistableRecord {
  public static let databaseTableName = "achievement"
}

/// One stored setting (`nudge config`).
struct SettingRow: Codable, FetchableRecord, PersistableRecord {
  static let databaseTableName = "setting"
  var key: String
  var value: String
}

/// Internal bookkeeping that is not a setting (the last reward message, the draw count).
struct StateRow: Codable, FetchableRecord, PersistableRecord {
  static let databaseTableName = "state"
  var key: String
  var value: String
}

extension Slot: DatabaseValueConvertible {}
extension ReminderOutcome: DatabaseValueConvertible {}

extension SlotSchedule: FetchableRecord, PersistableRecord {
  public static let databaseTableName = "slot_schedule"
}

/// One line of the reminder log (`nudge log`).
public struct ReminderLogEntry: Codable, Equatable, Sendable, FetchableRecord, PersistableRecord {
  public static let databaseTableName = "reminder_log"
  public var slot: Slot
  /// The elapse (seconds since the epoch) the firing was for; nil for a demo.
  public var elapse: Int?
  public var outcome: ReminderOutcome
  public var at: String

  public init(slot: Slot, elapse: Int?, outcome: ReminderOutcome, at: String) {
    self.slot = slot
    self.elapse = elapse
    self.outcome = outcome
    self.at = at
  }
}
