import NudgeCore

/// A type stored as one row of a table, read and written through its Codable conformance
/// (`RowCoder.swift`): each stored property is one column, named like its JSON key (snake_case),
/// so a new column is the schema's edit (`Schema.swift`, frozen per version) plus the property.
public protocol TableRecord: Codable {
  static var tableName: String { get }
  /// The primary-key column a row is found by, and an upsert's conflict target.
  static var keyColumn: String { get }
}

/// One row of a `SELECT *`, read by column name.
struct Row {
  let statement: SQLiteConnection.Statement
  let indexes: [String: Int32]

  private func index(_ column: String) throws -> Int32 {
    guard let index = indexes[column] else { throw UnreadableValue(column: column, text: nil) }
    return index
  }

  /// Whether the query selected `column`.
  func has(_ column: String) -> Bool { indexes[column] != nil }

  func text(_ column: String) throws -> String? { statement.text(at: try index(column)) }

  func int(_ column: String) throws -> Int? { statement.integer(at: try index(column)) }

  func bool(_ column: String) throws -> Bool? { try int(column).map { $0 != 0 } }
}

/// A column this Nudge cannot read: missing, NULL, or holding a value it does not know (one a
/// newer Nudge wrote, say).
struct UnreadableValue: Error {
  let column: String
  let text: String?
  /// What it holds, when more than a column's text says it ("'gremlins' as the challenge of
  /// review 2026-11-19").
  var what: String? = nil
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

extension Achievement: TextColumn {}
extension ReminderSource: TextColumn {}
extension Flow: TextColumn {}
extension ChangeKind: TextColumn {}
extension Reminder.Outcome: TextColumn {}
extension Reminder.LoggedSlot: TextColumn {}

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
    let columns = try record.columns()
    try execute(Self.insertion(R.self, columns), columns.map(\.value))
  }

  /// Adds the record's row, or updates the columns of the row that has its key in place (an
  /// upsert: the row is not deleted and inserted again, as `INSERT OR REPLACE` would).
  func save<R: TableRecord>(_ record: R) throws {
    let columns = try record.columns()
    let updates = columns.map(\.name).filter { $0 != R.keyColumn }
      .map { "\($0) = excluded.\($0)" }
    let onConflict =
      updates.isEmpty ? "DO NOTHING" : "DO UPDATE SET " + updates.joined(separator: ", ")
    try execute(
      Self.insertion(R.self, columns) + " ON CONFLICT (\(R.keyColumn)) \(onConflict)",
      columns.map(\.value))
  }

  private static func insertion<R: TableRecord>(
    _ type: R.Type, _ columns: [(name: String, value: SQLValue)]
  ) -> String {
    let names = columns.map(\.name).joined(separator: ", ")
    let marks = Array(repeating: "?", count: columns.count).joined(separator: ", ")
    return "INSERT INTO \(R.tableName) (\(names)) VALUES (\(marks))"
  }

  func delete<R: TableRecord>(_ type: R.Type, key: String) throws {
    try execute("DELETE FROM \(R.tableName) WHERE \(R.keyColumn) = ?", [.text(key)])
  }
}

// MARK: - The records

extension EarnedAchievement: TableRecord {
  public static let tableName = "achievement"
  public static let keyColumn = "key"
}

extension SlotSchedule: TableRecord {
  public static let tableName = "slot_schedule"
  public static let keyColumn = "slot"
}

extension Pause: TableRecord {
  public static let tableName = "pause"
  public static let keyColumn = "first_day"
}

extension Reminder.LogEntry: TableRecord {
  public static let tableName = "reminder_log"
  /// Rows are never looked up by key; `id` (AUTOINCREMENT, no property) orders them.
  public static let keyColumn = "id"
}

extension Snooze: TableRecord {
  public static let tableName = "snooze"
  public static let keyColumn = "slot"
}

/// When a slot's timer last fired (epoch seconds), as systemd remembers a timer's last trigger.
/// A table of its own, not a column of `slot_schedule`: a schedule row means "changed here"
/// (exports carry it, imports keep it), and a firing must not make a default schedule one.
struct SlotTrigger: TableRecord {
  static let tableName = "slot_trigger"
  static let keyColumn = "slot"
  var slot: ReminderSource
  var at: Int
}

/// What the reward draw remembers between draws: one row (id 1), absent before the first draw.
struct RewardState: TableRecord {
  static let tableName = "reward_state"
  static let keyColumn = "id"
  var id = 1
  /// How many celebrations were drawn: the next one's number.
  var draws: UInt64 = 0
  /// The latest messages shown, newest first (JSON), so the next draw avoids them.
  var recentMessages: [String] = []
  /// The latest drawn celebration (JSON), what a Replay button replays.
  var lastCelebration: StoredCelebration? = nil
}

/// A note said once (`firstTime(_:)`): its row means it was said.
struct SaidNote: TableRecord {
  static let tableName = "said_note"
  static let keyColumn = "note"
  var note: String
}

/// One stored setting (`nudge config`).
struct SettingRow: TableRecord {
  static let tableName = "setting"
  static let keyColumn = "key"
  var key: String
  var value: String
}
