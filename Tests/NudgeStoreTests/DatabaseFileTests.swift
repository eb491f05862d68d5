import Foundation
import NudgeCore
import Testing

@testable import NudgeStore

@Suite struct DatabaseFileTests {
  func tempDir() -> String {
    let dir = NSTemporaryDirectory() + "nudge-store-\(UUID().uuidString)"
    try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    return dir
  }

  func mode(_ path: String) throws -> Int {
    (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
  }

  @Test func createsPrivateDirectoryAndFileThenReopens() throws {
    let path = tempDir() + "/data/nudge/nudge.sqlite3"
    let db = try AppDatabase.open(path: path)
    try db.putEntry(PrepEntry.self, day: Day("2026-11-19")!, savedAt: "2026-11-19T21:00:00Z") {
      $0.water = true
    }
    #expect(try mode(path) == 0o600)
    #expect(try mode((path as NSString).deletingLastPathComponent) == 0o700)
    let again = try AppDatabase.open(path: path)
    #expect(try again.prep(on: Day("2026-11-19")!)?.water == true)
    #expect(try again.integrityCheck() == "ok")
  }

  func expectRefusedUnchanged(_ bytes: Data, kind: (StoreError) -> Bool) throws {
    let path = tempDir() + "/nudge.sqlite3"
    _ = FileManager.default.createFile(atPath: path, contents: bytes)
    #expect {
      _ = try AppDatabase.open(path: path)
    } throws: { error in
      (error as? StoreError).map(kind) ?? false
    }
    #expect(FileManager.default.contents(atPath: path) == bytes)
    #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
  }

  @Test func refusesGarbageEmptyAndForeignFilesWithoutTouchingThem() throws {
    func notNudge(_ e: StoreError) -> Bool { if case .notNudgeDatabase = e { true } else { false } }
    try expectRefusedUnchanged(Data("hello, this is not a database\n".utf8), kind: notNudge)
    try expectRefusedUnchanged(Data(), kind: notNudge)
    try expectRefusedUnchanged(
      Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31) }), kind: notNudge)

    // another program's SQLite database
    let foreign = tempDir() + "/other.sqlite3"
    try PlainSQLite.make(path: foreign, sql: "CREATE TABLE t(x); INSERT INTO t VALUES (1);")
    try expectRefusedUnchanged(try Data(contentsOf: URL(fileURLWithPath: foreign)), kind: notNudge)
  }

  @Test func refusesTruncatedDatabase() throws {
    let path = tempDir() + "/nudge.sqlite3"
    let db = try AppDatabase.open(path: path)
    for i in 0..<300 {
      try db.insertHelpNote(
        HelpNote(
          id: "n\(i)", day: Day("2026-01-01")!.adding(days: i), category: .other,
          note: String(repeating: "x", count: 200), at: "2026-01-01T12:00:00Z"))
    }
    let full = try Data(contentsOf: URL(fileURLWithPath: path))
    #expect(full.count > 16384)
    try expectRefusedUnchanged(
      full.prefix(full.count / 2), kind: { if case .notNudgeDatabase = $0 { true } else { false } })
  }

  @Test func refusesNewerSchemaWithoutTouchingIt() throws {
    let path = tempDir() + "/nudge.sqlite3"
    _ = try AppDatabase.open(path: path)
    try PlainSQLite.make(path: path, sql: "PRAGMA user_version = 99")
    let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    try expectRefusedUnchanged(bytes, kind: { if case .newerSchema = $0 { true } else { false } })
  }

  @Test func aValueThisNudgeDoesNotKnowAsksForAnUpdateAndChangesNothing() throws {
    // Given a log line whose outcome a newer Nudge might write
    let path = tempDir() + "/nudge.sqlite3"
    try AppDatabase.open(path: path).logReminder(
      Reminder.LogEntry(slot: .morning, elapse: nil, outcome: .demo, at: "2026-11-19T07:00:00Z"))
    try PlainSQLite.make(path: path, sql: "UPDATE reminder_log SET outcome = 'teleported'")
    let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    // When the log is read
    #expect {
      _ = try AppDatabase.open(path: path).reminderLog(limit: 10)
    } throws: { error in
      // Then the error names the value and asks for an update, not to move the file away
      guard case .unreadable(let message) = error as? StoreError else { return false }
      return message.contains("'teleported' in its outcome column")
        && message.contains("Update Nudge")
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
  }

  @Test func readOnlyDirectoryIsACannotCreateError() throws {
    let dir = tempDir()
    chmod(dir, 0o500)
    defer { chmod(dir, 0o700) }
    try withoutRootFileAccess {
      #expect(throws: StoreError.self) { try AppDatabase.open(path: dir + "/sub/nudge.sqlite3") }
    }
  }
}
