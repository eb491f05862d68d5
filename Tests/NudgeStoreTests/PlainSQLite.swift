@testable import NudgeStore

/// Writes a plain SQLite file for tests (another program's database, a tampered header).
enum PlainSQLite {
  static func make(path: String, sql: String) throws {
    try SQLiteConnection(path: path, create: true).execute(sql)
  }
}
