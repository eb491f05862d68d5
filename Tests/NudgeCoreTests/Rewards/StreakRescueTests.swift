import Testing

@testable import NudgeCore

@Suite struct StreakRescueTests {
  let today = Day("2026-11-21")!
  func days(_ offsets: ClosedRange<Int>) -> Set<Day> { Set(offsets.map { today.adding(days: $0) }) }

  @Test func aStreakThatBrokeYesterdayIsSavedByFillingYesterdayIn() {
    let done = days(-5 ... -2)
    let rescue = StreakRescue.days(doneDays: done, frozen: [], today: today)
    #expect(rescue == StreakRescue(days: [today.adding(days: -1)], brokenLength: 4))
  }

  @Test func nothingToSaveWithoutAStreakOrBeyondTheBackfillWindow() {
    #expect(StreakRescue.days(doneDays: [], frozen: [], today: today) == nil)
    #expect(StreakRescue.days(doneDays: days(-1 ... -1), frozen: [], today: today) == nil)
    #expect(StreakRescue.days(doneDays: days(-20 ... -9), frozen: [], today: today) == nil)
  }

  @Test func aFrozenDayNeedsNoFillingIn() {
    let done = days(-12 ... -2)
    let frozen: Set<Day> = [today.adding(days: -1)]
    #expect(StreakRescue.days(doneDays: done, frozen: frozen, today: today) == nil)
  }
}
