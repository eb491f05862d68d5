import GRDB

/// Writes a plain SQLite file for tests (another program's database, a tampered header).
enum GRDBQueue {
  static func make(path: String, sql: String) throws -> Bool {
    let queue = try DatabaseQueue(path: path)
    try queue.writeWithoutTransaction { try $0.execute(sql: sql) }
    try queue.close()
    return true
  }
}
