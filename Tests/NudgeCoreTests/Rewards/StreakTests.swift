import Testing

@testable import NudgeCore

@Suite struct StreakTests {
  /// Days as offsets from today (0 = today, -1 = yesterday…).
  func evaluate(_ offsets: [Int]) -> StreakSummary {
    let today = Day("2026-11-21")!
    return StreakRule.evaluate(doneDays: Set(offsets.map { today.adding(days: $0) }), today: today)
  }

  @Test func emptyHistoryHasNoStreak() {
    #expect(
      evaluate([])
        == StreakSummary(
          current: 0, longest: 0, todayDone: false, frozen: [], freezesHeld: 0, weekDone: 0))
  }

  @Test func todayPendingNeverBreaksTheStreak() {
    let s = evaluate([-3, -2, -1])
    #expect(s.current == 3)
    #expect(!s.todayDone)
  }

  @Test func countsTodayWhenDone() {
    #expect(evaluate([-2, -1, 0]).current == 3)
  }

  @Test func breaksAfterMissedDayWithoutFreeze() {
    let s = evaluate([-5, -4, -3, -1, 0])
    #expect(s.current == 2)
    #expect(s.longest == 3)
    #expect(s.frozen.isEmpty)
  }

  @Test func freezeCoversOneMissedDayAfterSevenDoneDays() {
    // 7 done days earn a freeze; -2 is missed and covered; the frozen day adds nothing.
    let s = evaluate([-9, -8, -7, -6, -5, -4, -3, -1, 0])
    #expect(s.current == 9)
    #expect(s.frozen == [Day("2026-11-19")!])
    #expect(s.freezesHeld == 0)
  }

  @Test func twoDayGapBreaksWithOnlyOneFreeze() {
    // one freeze held (7 done days), two missed days: the streak breaks, the freeze stays held
    let s = evaluate([-10, -9, -8, -7, -6, -5, -4, -1, 0])
    #expect(s.current == 2)
    #expect(s.longest == 7)
    #expect(s.frozen.isEmpty)
    #expect(s.freezesHeld == 1)
  }

  @Test func twoHeldFreezesCoverTwoMissedDaysInARow() {
    // the case: 21 days in a row (2 freezes held), then two missed days, today pending
    let s = evaluate(Array(-23 ... -3))
    #expect(s.freezesHeld == 0)
    #expect(s.current == 21)
    #expect(s.frozen == [Day("2026-11-19")!, Day("2026-11-20")!])
    // and the streak goes on when today is done
    let done = evaluate(Array(-23 ... -3) + [0])
    #expect(done.current == 22)
  }

  @Test func threeMissedDaysBreakTwoFreezes() {
    let s = evaluate(Array(-24 ... -4) + [0])
    #expect(s.current == 1)
    #expect(s.longest == 21)
    #expect(s.frozen.isEmpty)
    #expect(s.freezesHeld == 2)
  }

  @Test func yesterdayMissedIsFrozenWhileTodayIsPending() {
    let s = evaluate([-8, -7, -6, -5, -4, -3, -2])
    #expect(s.current == 7)
    #expect(s.frozen == [Day("2026-11-20")!])
  }

  @Test func holdsAtMostTwoFreezes() {
    #expect(evaluate(Array(-29...0)).freezesHeld == 2)
  }

  @Test func weekRingCountsTheLastSevenDays() {
    #expect(evaluate([-8, -6, -3, 0]).weekDone == 3)
  }
}
