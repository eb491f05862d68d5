import NudgeCore
import Testing

@Suite struct HabitStrengthTests {
  typealias Mark = HabitStrength.DayMark

  func daily(_ days: [Mark?]) -> Double {
    HabitStrength.score(days: days, numerator: 1, denominator: 1, target: nil)
  }

  func close(_ a: Double, _ b: Double, within tolerance: Double = 1e-12) -> Bool {
    abs(a - b) <= tolerance
  }

  // Expected values computed by hand from Loop's formula (python3):
  //   m = 0.5 ** (1 / 13) = 0.9480775143391714 (a daily habit)
  //   one day done from 0: 1 - m = 0.05192248566082858
  //   three days done: 1 - m**3 = 0.14781960357142554
  //   three done then one missed: (1 - m**3) * m = 0.14014444232459883
  @Test func matchesLoopsFormulaForADailyHabit() {
    #expect(close(HabitStrength.multiplier(frequency: 1), 0.9480775143391714))
    #expect(close(daily([.done(1)]), 0.05192248566082858))
    #expect(close(daily([.done(1), .done(1), .done(1)]), 0.14781960357142554))
    #expect(close(daily([.done(1), .done(1), .done(1), nil]), 0.14014444232459883))
  }

  @Test func aLongDailyRunNearsOneAndOneMissDentsItALittle() {
    let run = [Mark?](repeating: .done(1), count: 365)
    #expect(daily(run) > 0.999)
    let missed = daily(run + [nil])
    #expect(missed > 0.9 && missed < daily(run))
    // and a week off does not take it to zero
    #expect(daily(run + [Mark?](repeating: nil, count: 7)) > 0.6)
  }

  @Test func neverDoneStaysZero() {
    #expect(daily([]) == 0)
    #expect(daily([Mark?](repeating: nil, count: 100)) == 0)
    #expect(
      HabitStrength.score(
        days: [Mark?](repeating: nil, count: 30), numerator: 3, denominator: 7, target: nil) == 0)
  }

  @Test func skippedDaysLeaveTheScoreAsItWas() {
    let before = daily([.done(1), .done(1), .done(1)])
    #expect(daily([.done(1), .done(1), .done(1), .skipped, .skipped]) == before)
    // a skip neither counts as done nor breaks the rolling window of a weekly habit
    #expect(
      HabitStrength.score(days: [.done(1), .skipped], numerator: 1, denominator: 7, target: nil)
        == HabitStrength.score(days: [.done(1)], numerator: 1, denominator: 7, target: nil))
  }

  @Test func daysBeforeTheFirstRecordDoNotCount() {
    let late = [Mark?](repeating: nil, count: 50) + [.done(1), .done(1)]
    #expect(daily(late) == daily([.done(1), .done(1)]))
  }

  // 3 times in 7 days: m = 0.5 ** (sqrt(3/7) / 13) = 0.9656966817138625; Loop scores it as
  // 6 in 14 days. Done, nothing, done: the day's values are 1/6, 1/6, 2/6, so
  //   s1 = 1/6 (1 - m); s2 = s1 m + 1/6 (1 - m); s3 = s2 m + 2/6 (1 - m) = 0.022287247588025732
  @Test func aThreeTimesAWeekHabitUsesTheDoubledRollingWindow() {
    #expect(close(HabitStrength.multiplier(frequency: 3.0 / 7), 0.9656966817138625))
    #expect(
      close(
        HabitStrength.score(
          days: [.done(1), nil, .done(1)], numerator: 3, denominator: 7, target: nil),
        0.022287247588025732))
    // done three times every week for a year
    let week: [Mark?] = [.done(1), nil, .done(1), nil, .done(1), nil, nil]
    let year = Array([[Mark?]](repeating: week, count: 52).joined())
    #expect(HabitStrength.score(days: year, numerator: 3, denominator: 7, target: nil) > 0.99)
    // 7 in 7 days is daily, as Loop's Frequency makes it
    #expect(
      HabitStrength.score(days: year, numerator: 7, denominator: 7, target: nil) == daily(year))
  }

  // Read 20 pages a day: 10 pages (half), then 30 (capped at all):
  //   (1 - m) 0.5 m + (1 - m) = 0.07653575623264339
  @Test func aMeasurableHabitScoresTheShareOfItsTarget() {
    func read(_ days: [Mark?]) -> Double {
      HabitStrength.score(days: days, numerator: 1, denominator: 1, target: 20)
    }
    #expect(close(read([.done(10), .done(30)]), 0.07653575623264339))
    let half = read([Mark?](repeating: .done(10), count: 365))
    #expect(abs(half - 0.5) < 0.001)
    // at most 2 coffees a day: starts full, 3 coffees is half as good, 4 or more nothing
    func coffee(_ days: [Mark?]) -> Double {
      HabitStrength.score(days: days, numerator: 1, denominator: 1, target: 2, atMost: true)
    }
    #expect(coffee([.done(1)]) == 1)
    #expect(abs(coffee([Mark?](repeating: .done(3), count: 365)) - 0.5) < 0.001)
    #expect(coffee([Mark?](repeating: .done(5), count: 365)) < 0.001)
  }

  @Test func hostileNumbersStayInRange() {
    let odd: [Mark?] = [.done(.nan), .done(-5), .done(.infinity), .done(1e300)]
    for target in [nil, 0, 20, -1] as [Double?] {
      for (n, d) in [(0, 0), (-3, 7), (1, 1), (5, 2)] {
        let s = HabitStrength.score(days: odd, numerator: n, denominator: d, target: target)
        #expect(s >= 0 && s <= 1)
      }
    }
  }
}
