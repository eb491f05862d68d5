import Foundation
import NudgeCore
import Testing

@testable import NudgeStore

/// A database that is not what it seems: names SQLite reads specially, files that are not
/// regular, a file deleted or replaced while it is open.
@Suite struct DatabaseFileTrustTests {
  func folder() -> String {
    let dir = NSTemporaryDirectory() + "nudge-trust-\(UUID().uuidString)"
    try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    return dir
  }

  @Test(arguments: [":memory:", "", "file:x.db", "file::memory:?cache=shared", ":temp:"])
  func namesSQLiteReadsSpeciallyAreRefused(name: String) {
    #expect(throws: StoreError.self) { try AppDatabase.open(path: name, creatingFolders: false) }
  }

  @Test func aFIFOIsRefusedAtOnceAndLeftAsItIs() throws {
    let path = folder() + "/fifo"
    #expect(mkfifo(path, 0o600) == 0)
    let error = #expect(throws: StoreError.self) { try AppDatabase.open(path: path) }
    #expect(error?.message.contains("is a FIFO") == true)
    var info = stat()
    #expect(stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
  }

  @Test func aDanglingLinkIsRefusedAndNothingIsCreated() throws {
    let dir = folder()
    try FileManager.default.createSymbolicLink(
      atPath: dir + "/db", withDestinationPath: dir + "/missing")
    let error = #expect(throws: StoreError.self) { try AppDatabase.open(path: dir + "/db") }
    #expect(error?.message.contains("link to a file that does not exist") == true)
    #expect(!FileManager.default.fileExists(atPath: dir + "/missing"))
  }

  @Test func aFileDeletedWhileOpenIsNoticedAndTheSaveGoesToANewOne() throws {
    // Given an open database whose file is then deleted
    let path = folder() + "/nudge.sqlite3"
    let db = try AppDatabase.open(path: path)
    let day = Day("2026-11-20")!
    try db.putEntry(PrepEntry.self, day: day.adding(days: -1), savedAt: "2026-11-19T21:00:00Z") {
      $0.water = true
    }
    for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
    // When the next save is made
    try db.putEntry(PrepEntry.self, day: day, savedAt: "2026-11-20T21:00:00Z") {
      $0.produce = true
    }
    // Then it is in a new database at the path, and that is said once
    #expect(db.takeReplacedNotice()?.contains("was deleted") == true)
    #expect(db.takeReplacedNotice() == nil)
    let reopened = try AppDatabase.open(path: path)
    #expect(try reopened.prep(on: day)?.produce == true)
    #expect(try reopened.prep(on: day.adding(days: -1)) == nil)
  }

  @Test func aFileReplacedByAnotherProgramsIsNotWrittenToTheSaveIsRescuedBesideIt() throws {
    let dir = folder()
    let path = dir + "/nudge.sqlite3"
    let db = try AppDatabase.open(path: path)
    for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
    let garbage = Array("not a database, but somebody's notes\n".utf8)
    #expect(FileManager.default.createFile(atPath: path, contents: Data(garbage)))
    try db.putEntry(PrepEntry.self, day: Day("2026-11-20")!, savedAt: "2026-11-20T21:00:00Z") {
      $0.water = true
    }
    #expect(FileManager.default.contents(atPath: path) == Data(garbage))
    let notice = try #require(db.takeReplacedNotice())
    #expect(notice.contains("not Nudge's") && notice.contains(".rescued-"))
    let rescued = try #require(
      try FileManager.default.contentsOfDirectory(atPath: dir).first {
        $0.contains(".rescued-") && !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm")
      })
    #expect(
      try AppDatabase.open(path: dir + "/" + rescued).prep(on: Day("2026-11-20")!)?.water == true)
  }

  @Test func aFileDeletedAloneWhileOpenLeavesNothingAside() throws {
    // Given an open database whose WAL holds a commit, and whose file alone is deleted
    let dir = folder()
    let path = dir + "/nudge.sqlite3"
    let db = try AppDatabase.open(path: path)
    try db.putEntry(PrepEntry.self, day: Day("2026-11-19")!, savedAt: "2026-11-19T21:00:00Z") {
      $0.water = true
    }
    #expect(unlink(path) == 0)
    // When the next save is made
    try db.putEntry(PrepEntry.self, day: Day("2026-11-20")!, savedAt: "2026-11-20T21:00:00Z") {
      $0.water = true
    }
    // Then it is in a new, whole database holding only it, and no emptied WAL is set aside
    #expect(db.takeReplacedNotice()?.contains("was deleted") == true)
    let reopened = try AppDatabase.open(path: path)
    #expect(try reopened.integrityCheck() == "ok")
    #expect(try reopened.prep(on: Day("2026-11-20")!)?.water == true)
    #expect(try reopened.prep(on: Day("2026-11-19")!) == nil)
    #expect(
      try !FileManager.default.contentsOfDirectory(atPath: dir).contains {
        $0.contains(".orphaned-")
      })
  }

  @Test func aFileReplacedByABackupWhileOpenIsNotOverwrittenByTheOldFilesWAL() throws {
    // Given a backup (another Nudge database, closed) and an open database whose WAL holds a
    // commit the file lacks
    let dir = folder()
    let path = dir + "/nudge.sqlite3"
    let backup = dir + "/backup.sqlite3"
    do {
      let copy = try AppDatabase.open(path: backup)
      try copy.putEntry(PrepEntry.self, day: Day("2026-11-10")!, savedAt: "2026-11-10T21:00:00Z") {
        $0.water = true
      }
    }
    let db = try AppDatabase.open(path: path)
    try db.putEntry(PrepEntry.self, day: Day("2026-11-19")!, savedAt: "2026-11-19T21:00:00Z") {
      $0.produce = true
    }
    // When the backup is moved into place and the next save is made
    #expect(rename(backup, path) == 0)
    try db.putEntry(PrepEntry.self, day: Day("2026-11-20")!, savedAt: "2026-11-20T21:00:00Z") {
      $0.water = true
    }
    // Then the save is in the backup, which is whole and holds nothing of the old file
    #expect(db.takeReplacedNotice()?.contains("was replaced") == true)
    let reopened = try AppDatabase.open(path: path)
    #expect(try reopened.integrityCheck() == "ok")
    #expect(try reopened.prep(on: Day("2026-11-10")!)?.water == true)
    #expect(try reopened.prep(on: Day("2026-11-20")!)?.water == true)
    #expect(try reopened.prep(on: Day("2026-11-19")!) == nil)
  }

  @Test func aWALLeftWithoutItsDatabaseIsSetAsideNotReadIntoANewOne() throws {
    // Given a database with entries whose WAL still holds commits when the file is deleted
    let dir = folder()
    let path = dir + "/nudge.sqlite3"
    let db = try AppDatabase.open(path: path)
    try db.putEntry(PrepEntry.self, day: Day("2026-11-19")!, savedAt: "2026-11-19T21:00:00Z") {
      $0.water = true
    }
    #expect(FileManager.default.fileExists(atPath: path + "-wal"))
    unlink(path)
    // When a new database is made there by another process
    let fresh = try AppDatabase.open(path: path)
    // Then it is whole and empty, and the orphaned WAL is kept aside
    #expect(try fresh.integrityCheck() == "ok")
    #expect(try fresh.prep(on: Day("2026-11-19")!) == nil)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: dir).contains {
        $0.hasPrefix("nudge.sqlite3-wal.orphaned-")
      })
    _ = db
  }

}
