import Foundation
import NudgeCore
import Testing

@testable import NudgeStore

@Suite struct AppDatabaseTests {
  let day = Day("2026-11-19")!

  @Test func savingAgainTheSameDayUpdatesInsteadOfDuplicating() throws {
    // Given an empty database
    let db = try AppDatabase.inMemory()
    // When prep is saved twice on one day with different items
    try db.complete(PrepEntry.self, day: day, savedAt: "2026-11-19T21:30:00+01:00") {
      $0.water = true
    }
    try db.complete(PrepEntry.self, day: day, savedAt: "2026-11-20T00:40:00+01:00") {
      $0.produce = true
    }
    // Then one entry holds both answers and the later timestamp
    let entry = try #require(try db.prep(on: day))
    #expect(entry.water && entry.produce && !entry.breakfast)
    #expect(entry.savedAt == "2026-11-20T00:40:00+01:00")
    #expect(try db.exportDocument().prep.count == 1)
  }

  @Test func aStoredSnoozeIsTakenOnceAndOnlyWhenDue() throws {
    // Given a snoozed evening reminder due at 1000
    let db = try AppDatabase.inMemory()
    try db.saveSnooze(Snooze(slot: .evening, due: 1000, elapse: 400))
    #expect(try db.snoozes() == [Snooze(slot: .evening, due: 1000, elapse: 400)])
    // When it is taken before, at and after it is due
    #expect(try db.takeDueSnooze(.evening, now: 999) == nil)
    #expect(try db.takeDueSnooze(.morning, now: 1000) == nil)
    let taken = try db.takeDueSnooze(.evening, now: 1000)
    // Then exactly one taker gets it
    #expect(taken == Snooze(slot: .evening, due: 1000, elapse: 400))
    #expect(try db.takeDueSnooze(.evening, now: 2000) == nil)
    #expect(try db.snoozes().isEmpty)
  }

  @Test func doneDaysUnionAllFlows() throws {
    let db = try AppDatabase.inMemory()
    try db.complete(PrepEntry.self, day: day, savedAt: "2026-11-19T21:30:00Z") { _ in }
    try db.complete(CheckinEntry.self, day: day.adding(days: 1), savedAt: "2026-11-20T21:30:00Z") {
      $0.followed = true
    }
    try db.complete(
      HelpNote(
        id: "a", day: day.adding(days: 3), category: .habit, note: nil, at: "2026-11-22T12:00:00Z"))
    #expect(try db.doneDays() == [day, day.adding(days: 1), day.adding(days: 3)])
  }

  @Test func importIsIdempotentAndNewerSaveWins() throws {
    let source = try AppDatabase.inMemory()
    try source.complete(ReviewEntry.self, day: day, savedAt: "2026-11-19T08:00:00Z") {
      $0.swap = "water"
    }
    try source.complete(
      HelpNote(id: "n1", day: day, category: .stress, note: "meeting", at: "2026-11-19T12:00:00Z"))
    try source.setSetting(.rolloverHour, to: "3")
    let document = try source.exportDocument()

    let target = try AppDatabase.inMemory()
    try target.complete(ReviewEntry.self, day: day, savedAt: "2026-11-19T07:00:00Z") {
      $0.swap = "tea"
    }
    let first = try target.importDocument(document)
    #expect((first.added, first.updated, first.unchanged) == (1, 1, 0))
    #expect(first.newAchievements == [.firstHelp])  // first-review was already earned here
    let second = try target.importDocument(document)
    #expect((second.added, second.updated, second.unchanged) == (0, 0, 2))
    #expect(second.newAchievements.isEmpty)
    #expect(try target.review(on: day)?.swap == "water")
    #expect(try target.exportDocument() == document)

    // An older save does not replace a newer one.
    var older = document
    older.review[0].swap = "juice"
    older.review[0].savedAt = "2026-11-19T06:00:00Z"
    _ = try target.importDocument(older)
    #expect(try target.review(on: day)?.swap == "water")
  }

  @Test func importIsAllOrNothing() throws {
    // Given a database whose help-note insert fails, as a full disk would midway
    let db = try AppDatabase.inMemory()
    try db.write {
      try $0.execute(
        "CREATE TRIGGER fail BEFORE INSERT ON help_note BEGIN SELECT RAISE(ABORT, 'boom'); END")
    }
    var document = ExportDocument(
      settings: ["celebrations": "off"], prep: [], review: [], checkin: [], help: [])
    document.prep = [PrepEntry(day: day, savedAt: "2026-11-19T21:00:00Z")]
    document.help = [
      HelpNote(id: "n", day: day, category: .other, note: nil, at: "2026-11-19T12:00:00Z")
    ]
    // When the import fails on its last step
    #expect(throws: (any Error).self) { try db.importDocument(document) }
    // Then the steps before it were rolled back too
    #expect(try db.prep(on: day) == nil)
    #expect(try db.storedSettings().isEmpty)
  }
}

/// Runs `body` with this thread's file access checked as `nobody`'s when the tests run as root
/// (CI does), since root ignores directory permissions. Linux's filesystem user and group IDs
/// belong to one thread (`setfsuid(2)`, called directly: glibc does not pass it on to the
/// others) and leaving fsuid 0 drops CAP_DAC_OVERRIDE with it, so tests running in parallel
/// keep root's access; both come back before this returns.
func withoutRootFileAccess(_ body: () throws -> Void) throws {
  guard geteuid() == 0 else { return try body() }
  typealias SetFSID = @convention(c) (UInt32) -> Int32
  let libc = try #require(dlopen(nil, RTLD_NOW))
  defer { dlclose(libc) }
  let setfsuid = unsafeBitCast(try #require(dlsym(libc, "setfsuid")), to: SetFSID.self)
  let setfsgid = unsafeBitCast(try #require(dlsym(libc, "setfsgid")), to: SetFSID.self)
  let nobody: UInt32 = 65534
  // each returns the ID in effect before; an invalid one (-1) changes nothing
  let group = UInt32(bitPattern: setfsgid(nobody))
  let user = UInt32(bitPattern: setfsuid(nobody))
  defer {
    _ = setfsuid(user)
    _ = setfsgid(group)
  }
  try #require(setfsuid(UInt32.max) == nobody && setfsgid(UInt32.max) == nobody)
  try body()
}
