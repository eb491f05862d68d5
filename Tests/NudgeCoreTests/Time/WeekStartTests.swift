import NudgeCore
import Testing

/// The day a week begins on: the first day of a day's week, the week's day names, the last
/// weeks' first days, a 2-a-week habit's periods, and the C library's locale numbers read.
@Suite struct WeekStartTests {
  // Wednesday 18 November 2026
  let wednesday = Day("2026-11-18")!

  @Test func eachStartBeginsTheWeekOnItsDay() {
    #expect(WeekStart.monday.firstDay(of: wednesday).description == "2026-11-16")
    #expect(WeekStart.sunday.firstDay(of: wednesday).description == "2026-11-15")
    #expect(WeekStart.saturday.firstDay(of: wednesday).description == "2026-11-14")
    // the first day is its own week's first day
    for start in WeekStart.allCases {
      let first = start.firstDay(of: wednesday)
      #expect(start.firstDay(of: first) == first)
      #expect(start.firstDay(of: first.adding(days: 6)) == first)
      #expect(start.firstDay(of: first.adding(days: 7)) == first.adding(days: 7))
    }
    #expect(WeekStart.monday.dayNames == ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"])
    #expect(WeekStart.sunday.dayNames == ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"])
    #expect(WeekStart.saturday.dayNames.first == "Sat")
    #expect(
      WeekStart.sunday.firstDays(3, today: wednesday).map(\.description) == [
        "2026-11-01", "2026-11-08", "2026-11-15",
      ])
  }

  @Test func aTwiceAWeekHabitsWeeksFollowTheStart() {
    // done Saturday 14 and Sunday 15: one week from Monday, two weeks from Sunday
    var habit = Habit(name: "Gym", every: .timesPerWeek(2), since: Day("2026-11-02")!)
    habit.id = 1
    let checks = ["2026-11-14", "2026-11-15"].map {
      HabitCheck(day: Day($0)!, .done, savedAt: "2026-11-15T20:00:00+01:00")
    }
    let monday = HabitProgress(
      habit, checks: checks, paused: [], today: wednesday, weekStart: .monday)
    let sunday = HabitProgress(
      habit, checks: checks, paused: [], today: wednesday, weekStart: .sunday)
    // Monday's week of the 9th has both: met, a streak of 1; this week nothing yet
    #expect(monday.streak == 1 && monday.periodDone == 0)
    // Sunday's weeks: the 8th-14th has one (missed), this one (15th-21st) has one so far
    #expect(sunday.streak == 0 && sunday.periodDone == 1)
  }

  @Test func theCLibrarysLocaleNumbersRead() {
    // locale first_weekday and week-1stday as glibc gives them
    #expect(WeekStart.ofLocale(firstWeekday: 1, weekOneStartsOn: 19_971_130) == .sunday)  // en_US
    #expect(WeekStart.ofLocale(firstWeekday: 2, weekOneStartsOn: 19_971_130) == .monday)  // de_DE
    #expect(WeekStart.ofLocale(firstWeekday: 7, weekOneStartsOn: 19_971_130) == .saturday)  // ar_EG
    #expect(WeekStart.ofLocale(firstWeekday: 1, weekOneStartsOn: 19_971_201) == .monday)
    // a Friday, or numbers that do not read
    #expect(WeekStart.ofLocale(firstWeekday: 6, weekOneStartsOn: 19_971_130) == nil)
    #expect(WeekStart.ofLocale(firstWeekday: 0, weekOneStartsOn: 19_971_130) == nil)
    #expect(WeekStart.ofLocale(firstWeekday: 1, weekOneStartsOn: 19_971_340) == nil)
    #expect(WeekStart.ofLocale(firstWeekday: 1, weekOneStartsOn: -5) == nil)
  }
}
