/// Where a habit stands on a day: its streak, its best streak, whether today is done, and how
/// each period went — decided from its checks and the paused days alone.
///
/// A day said failed (`habit fail`) is a miss like a day with nothing recorded, and never an
/// excuse. A period (a day, a week, a month or a run of N days, as its frequency says) is *met* when
/// it was done as often as the frequency wants (a measurable habit's day counts once its amount
/// reaches the target). A day skipped or paused stands in for one of the times a period wants,
/// so it never breaks a streak; a period it excused adds to one only when something in it was
/// done (a week of 2 of 3 sessions and a skip is met; a day skipped adds nothing). The period running today
/// breaks nothing until it ends; a period that began before the habit did is forgiven.
public struct HabitProgress: Equatable, Sendable {
  /// How a period went.
  public enum PeriodResult: Equatable, Sendable {
    case met
    /// Not met, but skips, pauses, its start before the habit's, or its not being over yet
    /// excuse it: the streak goes on through it without counting it.
    case excused
    case missed
  }

  /// The current streak, in `HabitFrequency.streakUnit`.
  public var streak: Int
  public var best: Int
  /// Today's check, if any.
  public var today: HabitCheck?
  /// How many times the running period was done, and how many it wants.
  public var periodDone: Int
  public var periodWants: Int
  /// Loop Habit Tracker's habit strength, 0 to 100 (`HabitStrength`): one miss after a long
  /// run dents it, and does not zero it.
  public var strength: Int

  init(streak: Int, best: Int, today: HabitCheck?, periodDone: Int, periodWants: Int, strength: Int)
  {
    self.streak = streak
    self.best = best
    self.today = today
    self.periodDone = periodDone
    self.periodWants = periodWants
    self.strength = strength
  }

  /// Whether the running period (today, for a day-by-day habit) needs nothing more.
  public var isPeriodMet: Bool { periodDone >= periodWants }

  /// What a day holds for a habit: the rule its reminder, its views and `--json` follow.
  public enum DayState: String, Codable, Sendable {
    case done, skipped
    /// Said not done (`habit fail`): no reminder comes for it again that day.
    case failed
    /// Wanted that day (or its period), not done yet; a measurable day short of its target
    /// is not done yet.
    case due
    /// Nothing wanted: a day off its weekdays, or its period met already.
    case notDue = "not-due"
  }

  /// What `day` (the day this progress was read for) holds for `habit`.
  public func state(of habit: Habit, on day: Day) -> DayState {
    if today?.meets(habit) == true { return .done }
    // a limit gone over: the day is lost, as a no
    if habit.atMost, today?.done == true { return .failed }
    if let today, !today.done { return today.failed ? .failed : .skipped }
    return habit.every.isDue(on: day) && !isPeriodMet ? .due : .notDue
  }

  /// The days done (meeting it) and skipped, by day, for views.
  public static func marks(_ checks: [HabitCheck], of habit: Habit) -> [Day: HabitCheck] {
    Dictionary(checks.map { ($0.day, $0) }, uniquingKeysWith: { $1 })
  }

  /// Where `habit` stands on `today` from its `checks` (any order) and the `paused` days.
  /// `scoring: false` leaves the strength at 0: a view that does not show it (the today view,
  /// a reminder's decision) does not walk every day for it. `weekStart`: the day an N-a-week
  /// habit's weeks begin on.
  public init(
    _ habit: Habit, checks: [HabitCheck], paused: Set<Day>, today: Day, scoring: Bool = true,
    weekStart: WeekStart = .monday
  ) {
    let byDay = Self.marks(checks, of: habit)
    if habit.quit {
      self = Self.quitting(habit, byDay, today: today, scoring: scoring)
      return
    }
    let every = habit.every
    let wants = every.timesPerPeriod
    var run = 0
    var best = 0
    var first = every.periodStart(
      of: min(habit.since, checks.map(\.day).min() ?? habit.since), start: habit.since,
      weekStart: weekStart)
    let current = every.periodStart(of: today, start: habit.since, weekStart: weekStart)
    var tally = (done: 0, excused: 0)
    // oldest period first, so the best run is seen whole
    while first <= current {
      let last = every.periodEnd(from: first)
      tally = Self.tally(habit, byDay, paused: paused, from: first, through: min(last, today))
      // a day not due (a Mon,Wed,Fri habit's Tuesday) is neither, unless it was done
      if every.isDue(on: first) || tally.done > 0 {
        // the period running today ends early when its last day is today, said failed
        let lost =
          byDay[today]?.failed == true
          || (habit.atMost && byDay[today]?.done == true && byDay[today]?.meets(habit) == false)
        let running = first == current && !(last <= today && lost)
        switch Self.outcome(tally, wants: wants, running: running, early: first < habit.since)
        {
        case .met: run += 1
        case .excused: break
        case .missed: run = 0
        }
        best = max(best, run)
      }
      first = last.adding(days: 1)
    }
    self.streak = run
    self.best = best
    self.today = byDay[today]
    self.periodDone = tally.done
    self.periodWants = max(0, wants - tally.excused)
    self.strength = scoring ? Self.strength(habit, byDay, paused: paused, today: today) : 0
  }

  /// Where a habit to quit stands: every day from its start is clean but a slip (a failed
  /// check); the streak is the clean days in a row through today (0 on a slip's day), the
  /// best the longest such run; the strength scores each clean day done, each slip a miss.
  static func quitting(_ habit: Habit, _ byDay: [Day: HabitCheck], today: Day, scoring: Bool)
    -> HabitProgress
  {
    let first = min(habit.since, byDay.keys.min() ?? habit.since)
    var run = 0
    var best = 0
    var marks: [HabitStrength.DayMark?] = []
    var day = first
    while day <= today {
      let slipped = byDay[day]?.failed == true
      run = slipped ? 0 : run + 1
      best = max(best, run)
      if scoring { marks.append(slipped ? .failed : .done(1)) }
      day = day.adding(days: 1)
    }
    let check = byDay[today]
    let score =
      scoring ? HabitStrength.score(days: marks, numerator: 1, denominator: 1, target: nil) : 0
    return HabitProgress(
      streak: run, best: best, today: check, periodDone: check?.done == true ? 1 : 0,
      periodWants: 1, strength: Int((score * 100).rounded()))
  }

  /// The strength on `today`, scored as Loop scores it: each day from the first recorded one,
  /// a skipped or paused day holding the score where it is.
  static func strength(_ habit: Habit, _ byDay: [Day: HabitCheck], paused: Set<Day>, today: Day)
    -> Int
  {
    let first = min(habit.since, byDay.keys.min() ?? habit.since)
    guard first <= today else { return 0 }
    var days: [HabitStrength.DayMark?] = []
    days.reserveCapacity(today.ordinal - first.ordinal + 1)
    for ordinal in first.ordinal...today.ordinal {
      let day = Day(ordinal: ordinal)
      if let check = byDay[day] {
        // a failed day is the miss it is: nothing done, counted from the day it was said
        days.append(
          check.failed
            ? .failed
            : !check.done
              ? .skipped : habit.isMeasurable ? .done(Double(check.value ?? 0)) : .done(1))
      } else {
        days.append(paused.contains(day) ? .skipped : nil)
      }
    }
    let (numerator, denominator) = habit.every.loopRatio
    let score = HabitStrength.score(
      days: days, numerator: numerator, denominator: denominator,
      target: habit.target.map { Double($0 * numerator) }, atMost: habit.atMost)
    return Int((score * 100).rounded())
  }

  /// How a period went: met when done as often as it wants; excused when skips and pauses make
  /// up the rest, or it is still running, or it began before the habit did.
  static func outcome(_ tally: (done: Int, excused: Int), wants: Int, running: Bool, early: Bool)
    -> PeriodResult
  {
    // a skip or a day off stands in for one of the times a period wants: 2 sessions, a skip
    // and days off meet a 3-a-week habit's week (it ended "streak 0 weeks"); a period with
    // nothing done adds nothing, whatever excused it
    if tally.done >= wants || (tally.done > 0 && tally.done + tally.excused >= wants) {
      return .met
    }
    return tally.done + tally.excused >= wants || running || early ? .excused : .missed
  }

  /// How many days of a period met the habit, and how many were skipped or paused.
  static func tally(
    _ habit: Habit, _ byDay: [Day: HabitCheck], paused: Set<Day>, from first: Day,
    through last: Day
  ) -> (done: Int, excused: Int) {
    var done = 0
    var excused = 0
    var day = first
    while day <= last {
      if let check = byDay[day], check.meets(habit) {
        done += 1
      } else if byDay[day]?.isSkip ?? false || paused.contains(day) {
        excused += 1
      }
      day = day.adding(days: 1)
    }
    return (done, excused)
  }
}
