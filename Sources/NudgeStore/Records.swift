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

extension PrepEntry: DayRecord {
  public static let databaseTableName = "prep"
}

extension ReviewEntry: DayRecord {
  public static let databaseTableName = "review"
}

extension CheckinEntry: DayRecord {
  public static let databaseTableName = "checkin"
}

extension HelpNote: FetchableRecord, PersistableRecord {
  public static let databaseTableName = "help_note"
}

extension Achievement: DatabaseValueConvertible {}

extension EarnedAchievement: FetchableRecord, PersistableRecord {
  public static let databaseTableName = "achievement"
  public static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy
    .convertFromSnakeCase
  public static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy
    .convertToSnakeCase
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

/// A celebration as drawn, with its draw number: what the Replay button replays.
public struct StoredCelebration: Codable, Equatable, Sendable {
  public var number: UInt64
  public var celebration: Celebration
}

/// A snoozed reminder, stored so it comes back even when the process that snoozed it is gone.
public struct Snooze: Equatable, Sendable {
  public var slot: Slot
  /// When it is due again (epoch seconds).
  public var due: Int
  /// The elapse it belongs to (nil for a reminder posted by hand).
  public var elapse: Int?

  public init(slot: Slot, due: Int, elapse: Int?) {
    self.slot = slot
    self.due = due
    self.elapse = elapse
  }

  init?(slot: Slot, _ text: String) {
    let parts = text.split(separator: " ")
    guard parts.count == 2, let due = Int(parts[0]), let elapse = Int(parts[1]) else { return nil }
    self.init(slot: slot, due: due, elapse: elapse < 0 ? nil : elapse)
  }

  static func key(_ slot: Slot) -> String { "snooze.\(slot.rawValue)" }
}

/// A day entry as a row of its table (`prep`, `review`, `checkin`): the columns are the
/// snake_case property names, like the JSON keys.
public protocol DayRecord: DayEntry, FetchableRecord, PersistableRecord {}

extension DayRecord {
  public static var databaseColumnDecodingStrategy: DatabaseColumnDecodingStrategy {
    .convertFromSnakeCase
  }
  public static var databaseColumnEncodingStrategy: DatabaseColumnEncodingStrategy {
    .convertToSnakeCase
  }
}

/// The columns queries filter and order on.
enum Columns {
  static let day = Column("day")
  static let at = Column("at")
  static let id = Column("id")
}
