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

@Suite struct WrapTests {
  @Test func wrapsAtSpacesIndentsAndCutsLongWords() {
    let lines = TerminalText.wrap(
      "  My Why: energy for my kids and for the long afternoons", width: 20, indent: 4)
    #expect(
      lines == ["  My Why: energy for", "    my kids and for", "    the long", "    afternoons"])
    #expect(lines.allSatisfy { TerminalText.columns($0) <= 20 })
    let long = TerminalText.wrap(String(repeating: "x", count: 25), width: 10)
    #expect(long == ["xxxxxxxxxx", "xxxxxxxxxx", "xxxxx"])
    #expect(TerminalText.wrap("", width: 10) == [""])
  }

  @Test func wideCharactersTakeTwoColumns() {
    #expect(TerminalText.columns("ab👩‍👩‍👧c") == 5)
    #expect(TerminalText.columns("日本") == 4)
  }
}

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

@Suite struct WeekTests {
  let monday = Day("2026-11-16")!

  func day(
    _ offset: Int, prep: Bool = false, followed: Bool? = nil, help: [(String, HelpCategory)] = []
  )
    -> HistoryDay
  {
    let date = monday.adding(days: offset)
    return HistoryDay(
      date: date,
      prep: prep ? PrepEntry(day: date, water: true, savedAt: "\(date)T22:40:00+01:00") : nil,
      review: followed == nil
        ? nil
        : ReviewEntry(
          day: date, commitTo: "walk", commitFrom: "the bus", savedAt: "\(date)T07:00:00+01:00"),
      checkin: followed.map {
        CheckinEntry(day: date, followed: $0, savedAt: "\(date)T21:00:00+01:00")
      },
      help: help.enumerated().map { i, h in
        HelpNote(
          id: "\(date)-\(i)", day: date, category: h.1, note: nil, at: "\(date)T\(h.0):00+01:00")
      })
  }

  @Test func aWeekIsSummedUpInAFewLines() {
    let days = [
      day(0, prep: true, followed: true, help: [("15:10", .stress)]),
      day(1, prep: true, followed: false, help: [("16:00", .stress), ("09:00", .habit)]),
      day(2), day(3, prep: true), day(4, followed: true, help: [("15:30", .stress)]), day(5),
      day(6),
    ]
    let before = (0..<7).map { HistoryDay(date: monday.adding(days: $0 - 7)) }
    let week = WeekSummary(days: days, before: before)
    #expect(week.daysDone == 4)
    #expect(week.swapsAnswered == 3 && week.swapsFollowed == 2)
    #expect(week.cravingsByCategory.first == .init(category: .stress, count: 3))
    #expect(week.prepMissing.first?.count == 3)
    let text = week.lines.joined(separator: "\n")
    #expect(text.contains("Days with a flow: 4 of 7 (the week before: 0)."))
    #expect(text.contains("Cravings: 3 of 4 were stress, all in the afternoon."))
    #expect(text.contains("Swaps: followed in 2 of 3 check-ins."))
    #expect(text.contains("You committed: I will walk instead of the bus (3 days)."))
  }

  @Test func aFlowDoneWellAwayFromItsReminderSuggestsMovingIt() {
    let late = Array(repeating: 22 * 60 + 40, count: 5) + [21 * 60 + 30, 21 * 60 + 35]
    let move = SlotSuggestion.better(slotMinutes: 21 * 60 + 30, times: late)
    #expect(move?.usual == 22 * 60 + 40)
    #expect(move?.suggested == 22 * 60 + 15)
    // four days away is not enough
    #expect(SlotSuggestion.better(slotMinutes: 21 * 60 + 30, times: Array(late.dropFirst())) == nil)
  }
}
