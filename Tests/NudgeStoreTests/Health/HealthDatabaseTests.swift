import Foundation
import NudgeCore
import Testing

@testable import NudgeStore

/// The health store as a real SQLite file: 0600, the same file again writes nothing, a newer
/// export ends as it would in an empty store, a partial one only adds, a foreign or newer file
/// is refused and left as it was.
@Suite struct HealthDatabaseTests {
  static func path() -> String {
    let dir = NSTemporaryDirectory() + "nudge-hdb-\(UUID().uuidString)"
    return dir + "/sub/health.sqlite3"
  }

  static func night(_ day: Day, hrv: Double) -> HealthDigest.Night {
    let start = Instant(seconds: day.ordinal * 86400 - 3600)
    return HealthDigest.Night(
      night: HealthNight(
        day: day, source: "Watch", sleepStart: start, wake: Instant(seconds: start.seconds + 25200),
        sleepStartOffset: 0, wakeOffset: 0, asleepMinutes: 400, inBedMinutes: 420,
        stageMinutes: [.core: 200, .deep: 100, .rem: 100]),
      signals: [
        .hrv: HealthSignalReading(value: hrv, sampleCount: 3, cappedCount: 0, source: "Watch")
      ])
  }

  static func batch(_ days: ClosedRange<Int>, size: Int, hrv: Double = 45) -> HealthImportBatch {
    let first = Day(year: 2026, month: 11, day: 1)
    return HealthImportBatch(
      origin: "apple-health",
      file: HealthFileIdentity(path: "/x/export.zip", size: size, modified: size),
      nights: days.map { night(first.adding(days: $0), hrv: hrv + Double($0)) },
      days: days.map {
        HealthDigest.ActivityDay(
          day: first.adding(days: $0), steps: 1000, activeEnergyKcal: 300,
          summaryActiveEnergyKcal: 300, bodyMassKg: nil)
      }, workouts: [], skipped: [:])
  }

  /// Every row of every table, as text.
  static func dump(_ store: HealthDatabase) throws -> [String] {
    var rows: [String] = []
    for table in ["nights", "night_signals", "days", "workouts"] {
      rows += try store.db.rows("SELECT * FROM \(table) ORDER BY 1, 2, 3") { row in
        (0..<row.columnCount).map { row.text(at: $0) ?? "null" }.joined(separator: "|")
      }
    }
    return rows
  }

  @Test func theSameFileAgainWritesNothingAndANewerOneEndsAsInAnEmptyStore() throws {
    let path = Self.path()
    let store = try #require(try HealthDatabase.at(path, create: true))
    var info = stat()
    #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o600)
    let first = try store.take(Self.batch(0...9, size: 1))
    #expect(first.written == 10 + 10 + 10)
    #expect(try store.take(Self.batch(0...9, size: 1)).unchanged)
    // a newer export: the same ten days (one night's HRV changed), three more
    var newer = Self.batch(0...12, size: 2)
    newer.nights[4].signals[.hrv]?.value = 99
    let second = try store.take(newer)
    #expect(second.written == 1 + 3 * 3)
    let fresh = try #require(try HealthDatabase.at(Self.path(), create: true))
    _ = try fresh.take(newer)
    #expect(try Self.dump(store) == Self.dump(fresh))
    #expect(try store.holdings().nights == 13)
  }

  @Test func aPartialFileOnlyAddsWhatTheStoreLacks() throws {
    let store = try #require(try HealthDatabase.at(Self.path(), create: true))
    _ = try store.take(Self.batch(0...9, size: 1))
    let before = try Self.dump(store)
    var partial = Self.batch(5...11, size: 3, hrv: 10)
    partial.partial = true
    let result = try store.take(partial)
    #expect(result.removed == 0)
    let after = try Self.dump(store)
    #expect(Set(before).isSubset(of: Set(after)))
    #expect(try store.holdings().nights == 12)
  }

  @Test func aForeignOrNewerFileIsRefusedAndLeftAsItWas() throws {
    let path = Self.path()
    _ = try HealthDatabase.at(path, create: true)
    #expect(try HealthDatabase.at(Self.path(), create: false) == nil)
    let db = try SQLiteConnection(path: path)
    try db.execute("PRAGMA user_version = 9")
    let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    #expect(throws: StoreError.self) { try HealthDatabase.at(path, create: false) }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
    try db.execute("PRAGMA user_version = 1; PRAGMA application_id = 7")
    #expect(throws: StoreError.self) { try HealthDatabase.at(path, create: false) }
    #expect(HealthDatabase.forget(path: path))
    #expect(!FileManager.default.fileExists(atPath: path))
  }
}
