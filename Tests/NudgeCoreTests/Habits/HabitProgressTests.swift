import Foundation
import NudgeCore
import Testing

/// A habit's frequency as `--every` reads it, and its streak, best streak and strength from its
/// checks: skips and pauses never break a streak, a period running today breaks nothing.
@Suite struct HabitProgressTests {
  let since = Day("2026-11-02")!  // a Monday

  func checks(_ days: [Int], skipped: [Int] = [], value: Int? = nil) -> [HabitCheck] {
    days.map { HabitCheck(day: since.adding(days: $0), done: true, value: value, savedAt: "t") }
      + skipped.map { HabitCheck(day: since.adding(days: $0), done: false, savedAt: "t") }
  }

  @Test func everyReadsItsWordsAndWritesThemBack() throws {
    let cases: [(String, HabitFrequency, String)] = [
      ("daily", .daily, "daily"), ("Weekdays", .weekdays([1, 2, 3, 4, 5]), "weekdays"),
      ("mon,wed, fri", .weekdays([1, 3, 5]), "Mon,Wed,Fri"), ("3/week", .timesPerWeek(3), "3/week"),
      ("2/month", .timesPerMonth(2), "2/month"), ("every 3 days", .everyDays(3), "every 3 days"),
      ("every 1 day", .daily, "daily"), ("weekly", .timesPerWeek(1), "1/week"),
    ]
    for (text, frequency, words) in cases {
      #expect(try HabitFrequency.parse(text) == frequency, "\(text)")
      #expect(frequency.description == words)
      #expect(try HabitFrequency.parse(words) == frequency)
    }
    for bad in [
      "8/week", "0/week", "29/month", "every 0 days", "sometimes", "", "3/year", "Mon,Funday",
    ] {
      #expect(throws: InputError.self, "\(bad)") { try HabitFrequency.parse(bad) }
    }
    #expect(
      throws: InputError(
        "'8/week' can't be met: a week has room for 1 to 7 times; write \(HabitFrequency.allowed)")
    ) {
      try HabitFrequency.parse("8/week")
    }
  }

  @Test func aDailyStreakCountsDaysInARowAndASkipNeverBreaksIt() {
    let habit = Habit(id: 1, name: "Stretch", since: since)
    // done days 0…4, skipped 5, done 6 and 7; today is day 8, not done yet
    let progress = HabitProgress(
      habit, checks: checks([0, 1, 2, 3, 4, 6, 7], skipped: [5]), paused: [],
      today: since.adding(days: 8))
    #expect(progress.streak == 7)
    #expect(progress.best == 7)
    #expect(progress.today == nil)
    #expect(!progress.isPeriodMet)
    // a missed day (day 9 passes with nothing) breaks it; the best stays
    let later = HabitProgress(
      habit, checks: checks([0, 1, 2, 3, 4, 6, 7, 10], skipped: [5]), paused: [],
      today: since.adding(days: 10))
    #expect(later.streak == 1)
    #expect(later.best == 7)
    #expect(later.isPeriodMet)
  }

  @Test func pausedDaysWaitAndDaysOffItsWeekdaysAreNoMiss() {
    let daily = Habit(id: 1, name: "Stretch", since: since)
    let paused = Set([2, 3].map { since.adding(days: $0) })
    let kept = HabitProgress(
      daily, checks: checks([0, 1, 4]), paused: paused, today: since.adding(days: 4))
    #expect(kept.streak == 3)
    // Mon, Wed, Fri: the Tuesdays and Thursdays in between are not due
    let mwf = Habit(id: 2, name: "Gym", every: .weekdays([1, 3, 5]), since: since)
    let gym = HabitProgress(
      mwf, checks: checks([0, 2, 4, 7]), paused: [], today: since.adding(days: 8))
    #expect(gym.streak == 4)
    let missedWednesday = HabitProgress(
      mwf, checks: checks([0, 4, 7]), paused: [], today: since.adding(days: 8))
    #expect(missedWednesday.streak == 2)
  }

  @Test func aWeeklyHabitCountsWeeksMetAndTheRunningWeekBreaksNothing() {
    let habit = Habit(id: 1, name: "Run", every: .timesPerWeek(3), since: since)
    // week 1: three runs; week 2: two runs and a skip (the skip stands in for the third: met,
    // issue 57 item 9); week 3: three; week 4 (running): one so far
    let progress = HabitProgress(
      habit, checks: checks([0, 2, 4, 7, 9, 14, 15, 16, 21], skipped: [11]), paused: [],
      today: since.adding(days: 23))
    #expect(progress.streak == 3)
    // a week of nothing but skips and days off is excused: it adds nothing, breaks nothing
    let excused = HabitProgress(
      habit, checks: checks([0, 2, 4, 14, 15, 16], skipped: [8]),
      paused: Set((9...13).map { since.adding(days: $0) }), today: since.adding(days: 20))
    #expect(excused.streak == 2)
    #expect(excused.best == 2)
    #expect(progress.periodDone == 1)
    #expect(progress.periodWants == 3)
    // week 2 short with no skip: a miss
    let missed = HabitProgress(
      habit, checks: checks([0, 2, 4, 7, 9, 14, 15, 16, 21]), paused: [],
      today: since.adding(days: 23))
    #expect(missed.streak == 1)
    #expect(missed.best == 1)
  }

  @Test func aMeasurableDayCountsOnceItReachesTheTarget() {
    let habit = Habit(id: 1, name: "Read", target: 20, unit: "pages", since: since)
    let short = HabitProgress(
      habit, checks: checks([0, 1], value: 10), paused: [], today: since.adding(days: 1))
    #expect(short.streak == 0)
    #expect(!short.isPeriodMet)
    let met = HabitProgress(
      habit, checks: checks([0, 1], value: 20), paused: [], today: since.adding(days: 1))
    #expect(met.streak == 2)
    #expect(met.isPeriodMet)
  }

  @Test func strengthGrowsWithARunAndOneMissDentsItWithoutZeroingIt() {
    let habit = Habit(id: 1, name: "Stretch", since: since)
    let run = HabitProgress(
      habit, checks: checks(Array(0..<120)), paused: [], today: since.adding(days: 119))
    #expect(run.strength >= 95)
    let missed = HabitProgress(
      habit, checks: checks(Array(0..<120)), paused: [], today: since.adding(days: 120))
    #expect(missed.strength < run.strength)
    #expect(missed.strength >= 90)
    let never = HabitProgress(habit, checks: [], paused: [], today: since.adding(days: 30))
    #expect(never.strength == 0)
  }

  @Test func aNameIsOneLineNotACommandWord() throws {
    #expect(try Habit.checkedName("  Read  ", reserved: ["list"]) == "Read")
    #expect(throws: InputError.self) { try Habit.checkedName("", reserved: []) }
    #expect(throws: InputError.self) {
      try Habit.checkedName(String(repeating: "a", count: 61), reserved: [])
    }
    #expect(throws: InputError.self) { try Habit.checkedName("a\nb", reserved: []) }
    #expect(throws: InputError.self) { try Habit.checkedName("List", reserved: ["list"]) }
    #expect(throws: InputError.self) { try Habit.checkedName("--yes", reserved: []) }
    #expect(throws: InputError.self) { try Habit.checkedTarget(0) }
    #expect(Habit(id: 12, name: "x", since: since).slot.habitID == 12)
    #expect(ReminderSource.evening.habitID == nil)
    // the text the store, the log and the timers keep, and back; only the canonical form
    #expect(ReminderSource.habit(12).rawValue == "habit.h12")
    #expect(ReminderSource(rawValue: "habit.h12") == .habit(12))
    #expect(ReminderSource(rawValue: "habit.h012")?.habitID == nil)
    #expect(ReminderSource(rawValue: "habit.h0")?.habitID == nil)
    #expect(!ReminderSource.morning.hasOwnTimer && ReminderSource.habit(1).hasOwnTimer)
  }

  @Test func aNoIsTheMissItIsWhereASkipExcusesTheDay() {
    let habit = Habit(id: 1, name: "Run", since: since)
    let today = since.adding(days: 8)
    let done = checks([0, 1, 2, 3, 4, 6, 7])
    let fail = HabitCheck(day: since.adding(days: 5), .failed, savedAt: "t")
    let skip = HabitCheck(day: since.adding(days: 5), .skipped, savedAt: "t")
    let skipped = HabitProgress(habit, checks: done + [skip], paused: [], today: today)
    let failed = HabitProgress(habit, checks: done + [fail], paused: [], today: today)
    let unknown = HabitProgress(habit, checks: done, paused: [], today: today)
    // a skip holds the streak; a no breaks it as a day with nothing recorded does
    #expect(skipped.streak == 7)
    #expect(failed.streak == 2)
    #expect(failed.streak == unknown.streak)
    #expect(failed.best == 5)
    // and the strength: the no scores as a miss, never as the skip's hold
    #expect(failed.strength < skipped.strength)
    #expect(failed.strength == unknown.strength)
    // a no today ends today's run at once (a daily habit's period is the day), and says so
    let noToday = HabitProgress(
      habit, checks: done + [HabitCheck(day: since.adding(days: 8), .failed, savedAt: "t")],
      paused: [], today: today)
    #expect(noToday.streak == 0)
    #expect(noToday.state(of: habit, on: today) == .failed)
    #expect(unknown.state(of: habit, on: today) == .due)
    // a no on a week's habit excuses nothing: 2 sessions, a no and nothing else miss 3/week
    let weekly = Habit(id: 2, name: "Gym", every: .timesPerWeek(3), since: since)
    let week = checks([0, 2]) + [HabitCheck(day: since.adding(days: 4), .failed, savedAt: "t")]
    #expect(
      HabitProgress(weekly, checks: week, paused: [], today: since.adding(days: 8)).streak == 0)
    let excused = checks([0, 2], skipped: [4])
    #expect(
      HabitProgress(weekly, checks: excused, paused: [], today: since.adding(days: 8)).streak == 1)
  }

  @Test func aCheckReadsAsItWasWrittenBeforeNotesAndNoes() throws {
    // an older export's (or journal's) check has neither `failed` nor `note`
    let old = try NudgeJSON.decode(
      HabitCheck.self,
      from: Data(#"{"day":"2026-11-02","done":false,"saved_at":"t"}"#.utf8))
    #expect(old.mark == .skipped)
    #expect(old.note == nil)
    let new = HabitCheck(day: since, .failed, note: "rain", savedAt: "t")
    let text = String(decoding: try NudgeJSON.encode(new), as: UTF8.self)
    #expect(try NudgeJSON.decode(HabitCheck.self, from: Data(text.utf8)) == new)
    // a done day writes no `failed`, so what it always wrote stays the same bytes
    #expect(
      !String(
        decoding: try NudgeJSON.encode(HabitCheck(day: since, .done, savedAt: "t")), as: UTF8.self
      )
      .contains("failed"))
    #expect(throws: (any Error).self) {
      try NudgeJSON.decode(
        HabitCheck.self,
        from: Data(#"{"day":"2026-11-02","done":true,"failed":true,"saved_at":"t"}"#.utf8))
    }
  }

  @Test func aNoteIsOneLineOfAtMost500Characters() throws {
    #expect(try Habit.checkedNote("  on the train ") == "on the train")
    #expect(try Habit.checkedNote(String(repeating: "é", count: 500)).count == 500)
    for bad in [
      "", "   ", "two\nlines", "tab\there", "line\u{2028}sep", String(repeating: "x", count: 501),
      String(repeating: "x", count: 1 << 20),
    ] {
      #expect(throws: InputError.self, "\(bad.prefix(20))") { try Habit.checkedNote(bad) }
    }
  }

  @Test func aLimitsDayOverItEndsTheRunAtOnceAndANoOnItIsAMiss() {
    var coffee = Habit(id: 3, name: "Coffee", target: 2, unit: "cups", since: since)
    coffee.atMost = true
    let within = (0..<4).map {
      HabitCheck(day: since.adding(days: $0), done: true, value: 1, savedAt: "t")
    }
    let today = since.adding(days: 4)
    let over = HabitCheck(day: today, done: true, value: 3, savedAt: "t")
    let held = HabitProgress(coffee, checks: within, paused: [], today: today)
    let lost = HabitProgress(coffee, checks: within + [over], paused: [], today: today)
    #expect(held.streak == 4)
    // over the limit today: the run ends now, not at midnight
    #expect(lost.streak == 0)
    #expect(lost.state(of: coffee, on: today) == .failed)
    // a no on a limit is a miss for the strength, never "nothing taken, within it"
    let no = HabitCheck(day: today, .failed, savedAt: "t")
    let nothing = HabitCheck(day: today, done: true, value: 0, savedAt: "t")
    let noStrength = HabitProgress(coffee, checks: within + [no], paused: [], today: today)
    let zeroStrength = HabitProgress(coffee, checks: within + [nothing], paused: [], today: today)
    #expect(noStrength.strength < zeroStrength.strength)
  }
}
