import NudgeCore

/// A type stored as one row of a table. Its columns are named like its JSON keys (snake_case
/// property names); the schema is in `Schema.swift`, frozen per version.
public protocol TableRecord {
  static var tableName: String { get }
  /// The primary-key column a row is found by.
  static var keyColumn: String { get }
  /// Reads a row selected with `SELECT *`.
  init(row: Row) throws
  /// The row's columns and their values, key column included.
  var columns: KeyValuePairs<String, SQLValue> { get }
}

/// One row of a `SELECT *`, read by column name.
public struct Row {
  let statement: SQLiteConnection.Statement
  let indexes: [String: Int32]

  private func index(_ column: String) throws -> Int32 {
    guard let index = indexes[column] else { throw UnreadableValue(column: column, text: nil) }
    return index
  }

  func text(_ column: String) throws -> String? { statement.text(at: try index(column)) }

  func text(_ column: String, default fallback: String = "") throws -> String {
    try text(column) ?? fallback
  }

  func int(_ column: String) throws -> Int? { statement.integer(at: try index(column)) }

  func bool(_ column: String) throws -> Bool? { try int(column).map { $0 != 0 } }

  func bool(_ column: String, default fallback: Bool) throws -> Bool {
    try bool(column) ?? fallback
  }

  /// A column holding a value of a `RawRepresentable` type (a day, an enum case).
  func value<T: TextColumn>(_ column: String) throws -> T? {
    guard let text = try text(column) else { return nil }
    guard let value = T(column: text) else { throw UnreadableValue(column: column, text: text) }
    return value
  }

  func value<T: TextColumn>(_ column: String) throws -> T {
    guard let value: T = try value(column) else { throw UnreadableValue(column: column, text: nil) }
    return value
  }
}

/// A column this Nudge cannot read: missing, NULL, or holding a value it does not know (one a
/// newer Nudge wrote, say).
struct UnreadableValue: Error {
  let column: String
  let text: String?
}

/// A value stored as text in one column.
protocol TextColumn {
  init?(column: String)
  var column: String { get }
}

extension TextColumn where Self: RawRepresentable, RawValue == String {
  init?(column: String) { self.init(rawValue: column) }
  var column: String { rawValue }
}

extension Day: TextColumn {
  init?(column: String) { self.init(column) }
  var column: String { description }
}

extension Challenge: TextColumn {}
extension HelpCategory: TextColumn {}
extension Achievement: TextColumn {}
extension Slot: TextColumn {}
extension Flow: TextColumn {}
extension ChangeKind: TextColumn {}
extension ReminderOutcome: TextColumn {}

extension SQLValue {
  init(_ text: String?) { self = text.map { .text($0) } ?? .null }
  init(_ number: Int?) { self = number.map { .integer(Int64($0)) } ?? .null }
  init(_ flag: Bool?) { self = flag.map { .integer($0 ? 1 : 0) } ?? .null }
  init<T: TextColumn>(_ value: T?) { self = value.map { .text($0.column) } ?? .null }
}

extension SQLiteConnection {
  /// Every row of `SELECT * FROM table` plus `rest` (a WHERE, ORDER BY or LIMIT clause).
  func fetchAll<R: TableRecord>(
    _ type: R.Type, _ rest: String = "", _ arguments: [SQLValue] = []
  ) throws -> [R] {
    var indexes: [String: Int32]? = nil
    return try rows("SELECT * FROM \(R.tableName) \(rest)", arguments) { statement in
      if indexes == nil {
        indexes = Dictionary(
          uniqueKeysWithValues: (0..<statement.columnCount).map { (statement.name(at: $0), $0) })
      }
      return try R(row: Row(statement: statement, indexes: indexes!))
    }
  }

  /// The row whose key column holds `key`.
  func fetchOne<R: TableRecord>(_ type: R.Type, key: String) throws -> R? {
    try fetchAll(R.self, "WHERE \(R.keyColumn) = ?", [.text(key)]).first
  }

  func exists<R: TableRecord>(_ type: R.Type, key: String) throws -> Bool {
    try integer(
      "SELECT EXISTS (SELECT 1 FROM \(R.tableName) WHERE \(R.keyColumn) = ?)", [.text(key)])
      == 1
  }

  /// Adds the record's row; fails (SQLITE_CONSTRAINT) when its key is taken.
  func insert<R: TableRecord>(_ record: R) throws {
    try write(record, verb: "INSERT")
  }

  /// Adds the record's row, or replaces the row that has its key.
  func save<R: TableRecord>(_ record: R) throws {
    try write(record, verb: "INSERT OR REPLACE")
  }

  private func write<R: TableRecord>(_ record: R, verb: String) throws {
    let columns = record.columns
    let names = columns.map(\.key).joined(separator: ", ")
    let marks = Array(repeating: "?", count: columns.count).joined(separator: ", ")
    try execute(
      "\(verb) INTO \(R.tableName) (\(names)) VALUES (\(marks))", columns.map(\.value))
  }

  func delete<R: TableRecord>(_ type: R.Type, key: String) throws {
    try execute("DELETE FROM \(R.tableName) WHERE \(R.keyColumn) = ?", [.text(key)])
  }
}

// MARK: - The records

extension PrepEntry: TableRecord {
  public static let tableName = "prep"
  public static let keyColumn = "day"

  public init(row: Row) throws {
    self.init(
      day: try row.value("day"), stickyNotes: try row.bool("sticky_notes", default: false),
      produce: try row.bool("produce", default: false),
      water: try row.bool("water", default: false),
      breakfast: try row.bool("breakfast", default: false), other: try row.text("other"),
      savedAt: try row.text("saved_at", default: ""))
  }

  public var columns: KeyValuePairs<String, SQLValue> {
    [
      "day": SQLValue(day), "sticky_notes": SQLValue(stickyNotes), "produce": SQLValue(produce),
      "water": SQLValue(water), "breakfast": SQLValue(breakfast), "other": SQLValue(other),
      "saved_at": SQLValue(savedAt),
    ]
  }
}

extension ReviewEntry: TableRecord {
  public static let tableName = "review"
  public static let keyColumn = "day"

  public init(row: Row) throws {
    self.init(
      day: try row.value("day"), why: try row.text("why"), challenge: try row.value("challenge"),
      challengeOther: try row.text("challenge_other"), swap: try row.text("swap"),
      commitTo: try row.text("commit_to"), commitFrom: try row.text("commit_from"),
      savedAt: try row.text("saved_at", default: ""))
  }

  public var columns: KeyValuePairs<String, SQLValue> {
    [
      "day": SQLValue(day), "why": SQLValue(why), "challenge": SQLValue(challenge),
      "challenge_other": SQLValue(challengeOther), "swap": SQLValue(swap),
      "commit_to": SQLValue(commitTo), "commit_from": SQLValue(commitFrom),
      "saved_at": SQLValue(savedAt),
    ]
  }
}

extension CheckinEntry: TableRecord {
  public static let tableName = "checkin"
  public static let keyColumn = "day"

  public init(row: Row) throws {
    self.init(
      day: try row.value("day"), followed: try row.bool("followed"), feel: try row.text("feel"),
      blocker: try row.text("blocker"), savedAt: try row.text("saved_at", default: ""))
  }

  public var columns: KeyValuePairs<String, SQLValue> {
    [
      "day": SQLValue(day), "followed": SQLValue(followed), "feel": SQLValue(feel),
      "blocker": SQLValue(blocker), "saved_at": SQLValue(savedAt),
    ]
  }
}

extension HelpNote: TableRecord {
  public static let tableName = "help_note"
  public static let keyColumn = "id"

  public init(row: Row) throws {
    self.init(
      id: try row.text("id", default: ""), day: try row.value("day"),
      category: try row.value("category"), note: try row.text("note"),
      coach: try row.text("coach"), at: try row.text("at", default: ""))
  }

  public var columns: KeyValuePairs<String, SQLValue> {
    [
      "id": SQLValue(id), "day": SQLValue(day), "category": SQLValue(category),
      "note": SQLValue(note), "coach": SQLValue(coach), "at": SQLValue(at),
    ]
  }
}

extension EarnedAchievement: TableRecord {
  public static let tableName = "achievement"
  public static let keyColumn = "key"

  public init(row: Row) throws {
    self.init(key: try row.value("key"), earnedOn: try row.value("earned_on"))
  }

  public var columns: KeyValuePairs<String, SQLValue> {
    ["key": SQLValue(key), "earned_on": SQLValue(earnedOn)]
  }
}

/// A row of a two-column key-value table; `Table` names which.
struct KeyValueRow<Table: KeyValueTable>: TableRecord {
  static var tableName: String { Table.name }
  static var keyColumn: String { "key" }
  var key: String
  var value: String

  init(key: String, value: String) {
    self.key = key
    self.value = value
  }

  init(row: Row) throws {
    self.init(key: try row.text("key", default: ""), value: try row.text("value", default: ""))
  }

  var columns: KeyValuePairs<String, SQLValue> { ["key": SQLValue(key), "value": SQLValue(value)] }
}

/// A key-value table's name.
protocol KeyValueTable { static var name: String { get } }

/// The stored settings (`nudge config`).
enum SettingTable: KeyValueTable { static let name = "setting" }

/// Internal bookkeeping that is not a setting (the last reward message, the draw count).
enum StateTable: KeyValueTable { static let name = "state" }

/// One stored setting.
typealias SettingRow = KeyValueRow<SettingTable>
/// One line of bookkeeping.
typealias StateRow = KeyValueRow<StateTable>

extension SlotSchedule: TableRecord {
  public static let tableName = "slot_schedule"
  public static let keyColumn = "slot"

  public init(row: Row) throws {
    self.init(
      slot: try row.value("slot"), expression: try row.text("expression", default: ""),
      enabled: try row.bool("enabled", default: false))
  }

  public var columns: KeyValuePairs<String, SQLValue> {
    ["slot": SQLValue(slot), "expression": SQLValue(expression), "enabled": SQLValue(enabled)]
  }
}

/// One line of the reminder log (`nudge log`).
public struct ReminderLogEntry: Codable, Equatable, Sendable {
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

extension ReminderLogEntry: TableRecord {
  public static let tableName = "reminder_log"
  /// Rows are never looked up by key; `id` orders them.
  public static let keyColumn = "id"

  public init(row: Row) throws {
    self.init(
      slot: try row.value("slot"), elapse: try row.int("elapse"), outcome: try row.value("outcome"),
      at: try row.text("at", default: ""))
  }

  public var columns: KeyValuePairs<String, SQLValue> {
    [
      "slot": SQLValue(slot), "elapse": SQLValue(elapse), "outcome": SQLValue(outcome),
      "at": SQLValue(at),
    ]
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

extension Pause: TableRecord {
  public static let tableName = "pause"
  public static let keyColumn = "first_day"

  public init(row: Row) throws {
    self.init(firstDay: try row.value("first_day"), lastDay: try row.value("last_day"))
  }

  public var columns: KeyValuePairs<String, SQLValue> {
    ["first_day": SQLValue(firstDay), "last_day": SQLValue(lastDay)]
  }
}

/// A day entry as a row of its table (`prep`, `review`, `checkin`).
public protocol DayRecord: DayEntry, TableRecord {
  static var flow: Flow { get }
  /// The entry as one of any flow's (for the change journal).
  var flowEntry: FlowEntry { get }
}

extension PrepEntry: DayRecord {
  public static let flow = Flow.prep
  public var flowEntry: FlowEntry { .prep(self) }
}

extension ReviewEntry: DayRecord {
  public static let flow = Flow.review
  public var flowEntry: FlowEntry { .review(self) }
}

extension CheckinEntry: DayRecord {
  public static let flow = Flow.checkin
  public var flowEntry: FlowEntry { .checkin(self) }
}
