import NudgeCore
import NudgeStore
import Testing

@testable import NudgeUseCases

/// A firing decided and written in one transaction: once per elapse, skips logged with their
/// claim, a snooze taken once.
@Suite struct FireReminderTests {
  let utc = ZoneRules.utc
  /// 07:00 every day (epoch seconds), as the morning slot's default expression elapses.
  struct Daily: ReminderCalendar {
    func elapses(_ schedule: SlotSchedule) -> (Int) -> Int? {
      { after in (after / 86400 + (after % 86400 >= 7 * 3600 ? 1 : 0)) * 86400 + 7 * 3600 }
    }
  }
  let daily = Daily()
  let morning = Instant(seconds: Day("2026-11-20")!.ordinal * 86400 + 7 * 3600 + 5)

  @Test func anElapseIsPostedOnceAndARacingFiringIsADuplicate() throws {
    let db = try AppDatabase.inMemory()
    let fire = FireReminder(db: db)
    guard
      case .post(let post) = try fire(.scheduled(.morning), at: morning, in: utc, calendar: daily)
    else {
      Issue.record("the first firing did not post")
      return
    }
    #expect(post.elapse == morning.seconds - 5)
    let again = try fire(
      .scheduled(.morning), at: morning.adding(seconds: 1), in: utc, calendar: daily)
    #expect(again == .logged(.morning, .duplicate, elapse: morning.seconds - 5))
    #expect(try db.reminderLog(limit: 10).map(\.outcome) == [.duplicate])
  }

  @Test func aLateFiringIsSkippedAsStaleAndLoggedWithItsClaim() throws {
    let db = try AppDatabase.inMemory()
    let late = morning.adding(seconds: 5 * 3600)  // past the 4-hour window
    let plan = try FireReminder(db: db)(.scheduled(.morning), at: late, in: utc, calendar: daily)
    #expect(plan == .logged(.morning, .skippedStale, elapse: morning.seconds - 5))
    #expect(try db.isClaimed(slot: .morning, elapse: morning.seconds - 5))
  }

  @Test func aSnoozeIsTakenOnceAndStaysQuietOnADayOff() throws {
    let db = try AppDatabase.inMemory()
    try db.saveSnooze(Snooze(slot: .morning, due: morning.seconds, elapse: nil))
    let fire = FireReminder(db: db)
    guard case .post = try fire(.snoozed(.morning), at: morning, in: utc, calendar: daily) else {
      Issue.record("a due snooze was not posted")
      return
    }
    #expect(
      try fire(.snoozed(.morning), at: morning, in: utc, calendar: daily) == .nothingDue(.morning))
    try db.saveSnooze(Snooze(slot: .morning, due: morning.seconds, elapse: nil))
    try db.startPause(
      Pause(firstDay: Day("2026-11-20")!, lastDay: Day("2026-11-21")!), today: Day("2026-11-20")!)
    #expect(
      try fire(.snoozed(.morning), at: morning, in: utc, calendar: daily)
        == .logged(.morning, .skippedPaused, elapse: nil))
  }
}
