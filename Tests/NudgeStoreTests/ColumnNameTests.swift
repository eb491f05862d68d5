import NudgeCore
import Testing

@testable import NudgeStore

/// A property's column is its coding key in snake_case, and every record's columns are its
/// table's.
@Suite struct ColumnNameTests {
  private struct Key: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  @Test func aKeyIsItsSnakeCase() {
    for (key, column) in [
      ("day", "day"), ("savedAt", "saved_at"), ("recentMessages", "recent_messages"),
      ("firstDay", "first_day"), ("aB", "a_b"), ("", ""), ("café", "café"), ("dayÉté", "day_été"),
    ] {
      #expect(columnName(Key(key)) == column, "\(key)")
      #expect(unicodeColumnName(key) == column, "\(key)")
    }
  }

  /// Encodes `record` and reads it back through its table: each column it names is one the
  /// schema made, and the row reads back the same.
  func roundTrip<R: TableRecord>(_ record: R) throws {
    let db = try AppDatabase.inMemory()
    try db.write { connection in
      let table = Set(try connection.texts("SELECT name FROM pragma_table_info('\(R.tableName)')"))
      let columns = try record.columns().map(\.name)
      #expect(!columns.isEmpty)
      #expect(Set(columns).isSubset(of: table), "\(R.tableName): \(columns) vs \(table)")
      try connection.insert(record)
      let read = try connection.fetchAll(R.self)
      #expect(read.count == 1)
      #expect(try read.first?.columns().map(\.name) == columns)
      #expect(try read.first?.columns().map(\.value) == record.columns().map(\.value))
    }
  }

  @Test func everyRecordsColumnsAreItsTables() throws {
    let day = Day("2026-11-20")!
    try roundTrip(EarnedAchievement(key: .streak7, earnedOn: day))
    try roundTrip(SlotSchedule(slot: .evening, expression: "21:30", enabled: false))
    try roundTrip(Pause(firstDay: day, lastDay: day.adding(days: 2)))
    try roundTrip(Snooze(slot: .morning, due: 1_800_000_000, elapse: nil))
    try roundTrip(
      Reminder.LogEntry(
        slot: .slot(.morning), elapse: 1_800_000_000, outcome: .missedDND,
        at: "2026-11-20T07:00:00+01:00", detail: "held"))
    try roundTrip(SlotTrigger(slot: .midday, at: 1_800_000_000))
    try roundTrip(
      RewardState(draws: 3, recentMessages: ["a", "b"], lastCelebration: nil))
    try roundTrip(SaidNote(note: "welcome"))
    try roundTrip(SettingRow(key: "snooze", value: "5m"))
  }
}
