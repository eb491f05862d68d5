import Testing

@testable import NudgeCore

@Suite struct PauseStreakTests {
  let today = Day("2026-11-21")!
  func days(_ offsets: ClosedRange<Int>) -> Set<Day> { Set(offsets.map { today.adding(days: $0) }) }

  @Test func pausedDaysNeitherExtendNorBreakNorUseAFreeze() {
    // 7 days done (a freeze held), then five days off, then today pending
    let s = StreakRule.evaluate(
      doneDays: days(-12 ... -6), today: today, paused: days(-5 ... -1))
    #expect(s.current == 7)
    #expect(s.frozen.isEmpty)
    #expect(s.freezesHeld == 1)
    // without the pause the same gap breaks it
    #expect(StreakRule.evaluate(doneDays: days(-12 ... -6), today: today).current == 0)
  }

  @Test func aFlowDoneWhilePausedStillCounts() {
    let s = StreakRule.evaluate(
      doneDays: days(-4 ... -3).union(days(-1 ... -1)), today: today, paused: days(-2...0))
    #expect(s.current == 3)
  }

  @Test func theLengthOfAPauseIsReadAsAPersonWritesIt() throws {
    #expect(try Pause.lastDay(until: nil, for: "5d", today: today) == today.adding(days: 4))
    #expect(try Pause.lastDay(until: nil, for: "2w", today: today) == today.adding(days: 13))
    #expect(try Pause.lastDay(until: "2026-12-01", for: nil, today: today) == Day("2026-12-01"))
    #expect(throws: InputError.self) {
      try Pause.lastDay(until: "2026-11-01", for: nil, today: today)
    }
    #expect(throws: InputError.self) { try Pause.lastDay(until: nil, for: "0d", today: today) }
    #expect(throws: InputError.self) { try Pause.lastDay(until: nil, for: nil, today: today) }
    #expect(throws: InputError.self) { try Pause.lastDay(until: nil, for: "400d", today: today) }
  }
}
