import Foundation
import NudgeCore
import Testing

@testable import NudgeStore

@Suite struct AppDatabaseTests {
  let day = Day("2026-11-19")!

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
    try db.putEntry(PrepEntry.self, day: day, savedAt: "2026-11-19T21:30:00Z") { _ in }
    try db.putEntry(CheckinEntry.self, day: day.adding(days: 1), savedAt: "2026-11-20T21:30:00Z") {
      $0.followed = true
    }
    try db.insertHelpNote(
      HelpNote(
        id: "a", day: day.adding(days: 3), category: .habit, note: nil, at: "2026-11-22T12:00:00Z"))
    #expect(try db.doneDays() == [day, day.adding(days: 1), day.adding(days: 3)])
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
