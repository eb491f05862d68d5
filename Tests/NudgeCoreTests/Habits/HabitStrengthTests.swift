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

  /// `days` days ending today (oldest first) with `marks` at these offsets (0 = today), as
  /// Loop's tests write them.
  func ago(_ days: Int, _ marks: [Int: Mark]) -> [Mark?] {
    (0..<days).map { marks[days - 1 - $0] }
  }

  // The expected values of Loop's own unit tests, uhabits-core/src/jvmTest/java/org/isoron/
  // uhabits/core/models/ScoreListTest.kt (iSoron/uhabits 5aa8744e), to its 1e-6.
  @Test func matchesLoopsOwnTestsForYesNoHabits() {
    let loop = 1e-6
    let twenty = Dictionary(uniqueKeysWithValues: (0..<20).map { ($0, Mark.done(1)) })
    // test_getValue: checked the last 20 days; 13 days in, exactly half
    #expect(close(daily(ago(20, twenty)), 0.655747, within: loop))
    #expect(close(daily(ago(13, twenty)), 0.5, within: loop))
    // test_getValueWithSkip
    let skipped = twenty.merging([5: .skipped, 10: .skipped, 11: .skipped]) { $1 }
    #expect(close(daily(ago(20, skipped)), 0.596033, within: loop))
    // test_getValueWithSkip2
    #expect(close(daily(ago(6, [5: .done(1), 4: .skipped])), 0.041949, within: loop))
    // test_recompute: two days checked, daily then every other day
    #expect(close(daily([.done(1), .done(1)]), 0.101149, within: loop))
    #expect(
      close(
        HabitStrength.score(days: [.done(1), .done(1)], numerator: 1, denominator: 2, target: nil),
        0.054816, within: loop))
    // test_imperfectNonDaily: twice a week for 100 weeks is 2/3 of 3 a week, 1/2 of 4
    let twice = Dictionary(
      uniqueKeysWithValues: (0..<100).flatMap { [(7 * $0, Mark.done(1)), (7 * $0 + 1, .done(1))] })
    for (numerator, expected) in [(3, 2.0 / 3), (4, 0.5)] {
      let score = HabitStrength.score(
        days: ago(700, twice), numerator: numerator, denominator: 7, target: nil)
      #expect(close(score, expected, within: loop))
    }
    // test_irregularNonDaily: weekly, on alternating ends of the week
    let irregular = Dictionary(
      uniqueKeysWithValues: (0..<100).flatMap {
        [(14 * $0, Mark.done(1)), (14 * $0 + 13, .done(1))]
      })
    let weekly = HabitStrength.score(
      days: ago(1400, irregular), numerator: 1, denominator: 7, target: nil)
    #expect(close(weekly, 1, within: 1e-3))
  }

  // Loop's numerical fixtures have the target 2 (stored values 2000 = 2.0)
  @Test func matchesLoopsOwnTestsForMeasurableHabits() {
    let loop = 1e-6
    func atLeast(_ days: [Mark?], denominator: Int = 1) -> Double {
      HabitStrength.score(days: days, numerator: 1, denominator: denominator, target: 2)
    }
    func atMost(_ days: [Mark?], denominator: Int = 1) -> Double {
      HabitStrength.score(
        days: days, numerator: 1, denominator: denominator, target: 2, atMost: true)
    }
    func all(_ count: Int, _ value: Double) -> [Mark?] {
      [Mark?](repeating: .done(value), count: count)
    }
    // NumericalAtLeastScoreListTest
    #expect(close(atLeast(all(20, 2)), 0.655747, within: loop))
    #expect(close(atLeast(all(2, 2)), 0.101149, within: loop))
    #expect(close(atLeast(all(2, 2), denominator: 2), 0.072631, within: loop))
    #expect(close(atLeast(all(500, 1)), 0.5, within: loop))
    #expect(close(atLeast(all(500, 0.5)), 0.25, within: loop))
    #expect(close(atLeast([.done(10000)]), 0.051922, within: loop))
    // NumericalAtLeastScoreListWithSkipTest
    let withSkips = ago(20, Dictionary(uniqueKeysWithValues: (0..<20).map { ($0, Mark.done(2)) }))
      .enumerated().map { [4, 19 - 10].contains($0.offset) ? Mark.skipped : $0.element }
    #expect(close(atLeast(withSkips), 0.617008, within: loop))
    // NumericalAtMostScoreListTest
    #expect(close(atMost([.done(1)] + all(20, 5)), 0.344253, within: loop))
    #expect(close(atMost([nil]), 1, within: loop))
    #expect(close(atMost(all(2, 5)), 0.898850, within: loop))
    #expect(close(atMost(all(2, 5), denominator: 2), 0.927369, within: loop))
    #expect(close(atMost(all(500, 3)), 0.5, within: loop))
    #expect(close(atMost(all(500, 3.5)), 0.25, within: loop))
    #expect(close(atMost([.done(10000), nil]), 0.950773, within: loop))
    #expect(close(atMost([.done(0), .done(5)]), 0.948077, within: loop))
    #expect(close(atMost([.done(1), .done(5)]), 0.948077, within: loop))
  }
}
