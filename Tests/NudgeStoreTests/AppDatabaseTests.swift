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

  @Test func theHistoryFactsFollowedDaysAreTheCheckinsWhoseSwapWasFollowed() throws {
    // check-ins followed, not followed and unanswered, and a prep (which has no swap)
    let db = try AppDatabase.inMemory()
    for (offset, followed) in [(0, true), (1, false), (2, nil), (4, true)] as [(Int, Bool?)] {
      try db.putEntry(
        CheckinEntry(
          day: day.adding(days: offset), followed: followed, savedAt: "2026-11-19T21:00:00Z"))
    }
    try db.putEntry(PrepEntry.self, day: day.adding(days: 3), savedAt: "2026-11-19T21:30:00Z") {
      _ in
    }
    let facts = try db.historyFacts()
    #expect(facts.followedDays == [day, day.adding(days: 4)])
    #expect(facts.checkinDays.count == 4)
  }

  @Test func theSleepPlansFactsComeFromItsRowsByItsOwnRules() throws {
    // nights with bedtimes (one unreadable), challenges completed: on a night that took one
    // on (day 0), turned one down (day 1), picked none (day 2), and a day with no night (3)
    let db = try AppDatabase.inMemory()
    func put(_ flow: String, _ offset: Int, _ answers: [String: String]) throws {
      try db.putFlowEntry(
        AnsweredEntry(
          flow: flow, day: day.adding(days: offset), answers: FlowAnswers(values: answers),
          savedAt: "2026-11-19T07:00:00Z"
        ).flowEntry)
    }
    try put("sleep", 0, ["bedtime": "23:40", "challenge": "screens-off"])
    try put("sleep", 1, ["bedtime": "00:15", "challenge": "screens-off", "accept": "no"])
    try put("sleep", 2, ["bedtime": "late"])
    for offset in 0...3 { try put("challenge", offset, ["completed": "yes"]) }
    let facts = try db.historyFacts()
    #expect(facts.bedtimes == [day: 23 * 60 + 40, day.adding(days: 1): 15])
    #expect(facts.challengesCompleted == [day])
    #expect(facts.definedFirsts == ["sleep": day, "challenge": day])
  }

  @Test func aDamagedAnswersColumnReadsAsItsTextAlwaysDid() throws {
    // Given check-ins whose answers a damaged file holds: bytes that are not UTF-8, and a NUL
    // with bytes after it (Nudge writes neither: FlatJSON escapes a NUL)
    let db = try AppDatabase.inMemory()
    try db.write { db in
      try db.execute(
        """
        INSERT INTO flow_entry (day, flow, key, answers, saved_at) VALUES
        ('2026-11-19', 'checkin', '', CAST(X'7B226665656C223A2263616626C3282C227D' AS TEXT),
         '2026-11-19T21:30:00Z'),
        ('2026-11-20', 'checkin', '', CAST(X'7B226665656C223A226F6B227D006A756E6B' AS TEXT),
         '2026-11-20T21:30:00Z')
        """)
    }
    // When they are read, Then as the column's text: repaired, and cut at the NUL
    let feels = try db.allEntries().map { CheckinEntry($0)?.feel }
    #expect(feels == ["caf&\u{FFFD}(,", "ok"])
  }

  @Test func entriesComeByDayThenFlowThenWhenSavedAsSQLWouldSortThem() throws {
    // Given help notes whose ids sort against the order they were saved in (two saved in the
    // same second, so their ids decide), on days around other flows' entries
    let db = try AppDatabase.inMemory()
    let notes = [
      ("zz", day, "2026-11-19T08:00:00Z"), ("b", day, "2026-11-19T12:00:00Z"),
      ("a", day, "2026-11-19T12:00:00Z"), ("m", day, "2026-11-19T09:30:00Z"),
      ("c", day.adding(days: 1), "2026-11-20T07:00:00Z"),
      ("0", day.adding(days: 1), "2026-11-20T23:00:00Z"),
      // the next day's notes, right after those in key order, saved earlier than them: each
      // day's run is ordered on its own
      ("x", day.adding(days: 2), "2026-11-20T06:00:00Z"),
      ("d", day.adding(days: 2), "2026-11-20T05:00:00Z"),
    ]
    for (id, day, at) in notes {
      try db.insertHelpNote(HelpNote(id: id, day: day, category: .habit, note: nil, at: at))
    }
    try db.putEntry(PrepEntry.self, day: day, savedAt: "2026-11-19T21:30:00Z") { _ in }
    try db.putEntry(CheckinEntry.self, day: day.adding(days: 1), savedAt: "2026-11-20T21:30:00Z") {
      $0.followed = true
    }
    // When every entry is read
    let read = try db.allEntries().map { "\($0.stored.day) \($0.stored.flow) \($0.stored.key)" }
    // Then they come as ORDER BY day, flow, saved_at, key gives them
    let sql = try db.read { db in
      try db.rows(
        "SELECT day, flow, key FROM flow_entry ORDER BY day, flow, saved_at, key"
      ) { row in
        let key = row.text(at: 2)!
        return "\(row.text(at: 0)!) \(row.text(at: 1)!) \(key.isEmpty ? row.text(at: 0)! : key)"
      }
    }
    #expect(read == sql)
    #expect(
      read.filter { $0.hasPrefix("2026-11-19 need-help") } == [
        "2026-11-19 need-help zz", "2026-11-19 need-help m", "2026-11-19 need-help a",
        "2026-11-19 need-help b",
      ])
    #expect(
      read.suffix(4) == [
        "2026-11-20 need-help c", "2026-11-20 need-help 0", "2026-11-21 need-help d",
        "2026-11-21 need-help x",
      ])
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
