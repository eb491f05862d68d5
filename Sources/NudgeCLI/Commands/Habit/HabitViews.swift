import NudgeCore
import NudgeStore
import NudgeUseCases

/// A habit as `habit list --json` and `habit show --json` print it (README, "Your own habits").
struct HabitReport: Encodable {
  /// What today holds for it.
  typealias TodayState = HabitProgress.DayState

  var name: String
  /// What its reminder asks.
  var question: String
  var every: String
  @NullWhenAbsent var at: String?
  @NullWhenAbsent var target: Int?
  @NullWhenAbsent var unit: String?
  var doneToday: Bool
  @NullWhenAbsent var valueToday: Int?
  var today: TodayState
  var streak: Int
  var bestStreak: Int
  var streakUnit: String
  var strength: Int
  var archived: Bool
  /// All its reminder times, first to last (`at` is the first).
  var reminders: [String]
  /// Its tags, as typed.
  var tags: [String]
  /// Whether its target is a limit (at most).
  var atMost: Bool
  /// Whether it is a habit to quit (its streak: clean days).
  var quit: Bool
  /// How many times the running period (this week, this month) was done, and how many it
  /// wants (a skip or a day off stands in for one).
  var periodDone: Int
  var periodWants: Int

  init(_ habit: Habit, _ progress: HabitProgress, today day: Day) {
    name = habit.name
    question = habit.question
    every = habit.every.description
    at = habit.at
    reminders = habit.reminderTimes
    target = habit.target
    unit = habit.unit
    // a measurable day short of its target is not done yet: still due, its amount so far shown
    let check = progress.today
    doneToday = check?.meets(habit) ?? false
    valueToday = check?.value
    today = progress.state(of: habit, on: day)
    streak = progress.streak
    bestStreak = progress.best
    streakUnit = habit.every.streakUnit
    strength = progress.strength
    archived = habit.archived
    tags = habit.tags
    atMost = habit.atMost
    quit = habit.quit
    periodDone = progress.periodDone
    periodWants = progress.periodWants
  }

  /// Where `habit` stands on `today` (`scoring: false`: its strength left at 0, for what
  /// does not show it).
  static func of(
    _ habit: Habit, _ db: AppDatabase, today: Day, scoring: Bool = true, weekStart: WeekStart
  ) throws -> HabitReport {
    try all([habit], db, today: today, scoring: scoring, weekStart: weekStart)[0]
  }

  /// Each of `habits`, in order, the days off read once.
  /// `weekStart`: the day an N-a-week habit's weeks begin on.
  static func all(
    _ habits: [Habit], _ db: AppDatabase, today: Day, scoring: Bool = true, weekStart: WeekStart
  ) throws -> [HabitReport] {
    let paused = try db.pausedDays(through: today)
    return try habits.map {
      let progress = HabitProgress(
        $0, checks: try db.habitChecks($0.id), paused: paused, today: today, scoring: scoring,
        weekStart: weekStart)
      return HabitReport($0, progress, today: today)
    }
  }
}

/// One habit's last weeks, a column a week as `nudge streak` draws the day's streak: done,
/// skipped or paused, missed (a day it was wanted), today in progress.
enum HabitHeatmap {
  static func draw(_ ctx: Context, _ habit: Habit, _ db: AppDatabase, today: Day, weeks: Int)
    throws
  {
    let checks = HabitProgress.marks(try db.habitChecks(habit.id), of: habit)
    let paused = try db.pausedDays(through: today)
    // a day over a limit is lost, as a no; a habit to quit is clean every day but a slip
    let failed = Set(
      checks.values.filter { $0.failed || (habit.atMost && $0.done && !$0.meets(habit)) }.map(
        \.day))
    let met =
      habit.quit
      ? Set((habit.since.ordinal...max(habit.since.ordinal, today.ordinal)).map(Day.init(ordinal:)))
        .subtracting(failed)
      : Set(checks.values.filter { $0.meets(habit) }.map(\.day))
    let excused = Set(checks.values.filter(\.isSkip).map(\.day)).union(paused)
    // a day off its weekdays, or of a period habit with nothing done, is no miss
    let dayByDay = habit.every.isDayByDay
    let style = ctx.style
    let weekStart = ctx.weekStart(try db.settings())
    let mondays = weekStart.firstDays(weeks, today: today)
    var labels = ""
    for (w, monday) in mondays.enumerated() where w % 4 == 0 {
      labels += String(repeating: " ", count: max(0, w * 2 - labels.count)) + monday.dayMonth
    }
    ctx.line("       " + style.dim(labels))
    for (d, name) in weekStart.dayNames.enumerated() {
      let cells = mondays.map { monday -> String in
        let day = monday.adding(days: d)
        if day > today || day < habit.since { return " " }
        if met.contains(day) { return style.green("█") }
        if failed.contains(day) { return style.red("✗") }
        if excused.contains(day) { return style.blue("-") }
        if day == today { return habit.every.isDue(on: day) ? style.yellow("○") : " " }
        return dayByDay && habit.every.isDue(on: day) ? style.dim("·") : " "
      }
      ctx.line("   \(style.dim(name)) " + cells.joined(separator: " "))
    }
    ctx.line(
      "       " + style.dim("█ done  ✗ no  - skipped or paused  · unknown  ○ today, to do"))
  }
}

/// What `nudge undo` and `nudge redo` say of a habit's change they took back (or re-applied).
enum HabitUndo {
  /// What `undo --json` and `redo --json` print of a habit's change: what it was, the habit,
  /// the day's mark as the step left it (a done or a skip; null: no mark), and the
  /// achievements it gave back or took away, as the text says them.
  struct Report: Encodable {
    var undone: String?
    var redone: String?
    var habit: String
    @NullWhenAbsent var check: HabitCheck?
    var newAchievements: [Achievement]
    var lostAchievements: [Achievement]
  }

  /// A journal's time as an instant, for ordering the two journals (an unreadable one first).
  static func instant(_ at: String) -> Instant { InstantFormat.parse(at) ?? .distantPast }

  /// " (Thu 26 Nov is back to 12 pages)", " (Thu 26 Nov has no mark again)": a day's check as
  /// an undo or a redo left it.
  static func dayNow(_ check: HabitCheck?, unit: String?) -> String {
    guard let check else { return " (that day has no mark again)" }
    let day = check.day.short
    if check.failed { return " (\(day) is a no again)" }
    if !check.done { return " (\(day) is skipped again)" }
    guard let value = check.value else { return " (\(day) is done again)" }
    return " (\(day) is back to \(value)\(unit.map { " " + VisibleText.escaped($0) } ?? ""))"
  }

  static func say(
    _ ctx: Context, _ db: AppDatabase, _ step: JournalChange, _ change: HabitChange,
    _ moved: UndoChange.Settled, redo: Bool, json: Bool
  ) throws {
    let settled = moved
    // its name as the change left it (a habit an undo removed again is no longer listed)
    let name =
      try step.steps.lazy.compactMap { (redo ? $0.after : $0.before)?.habit?.name }.first
      ?? step.steps.lazy.compactMap { (redo ? $0.before : $0.after)?.habit?.name }.first
      ?? (try db.habits(includingArchived: true).first { $0.id == change.habit }?.name)
      ?? "a habit"
    try HabitReminders.update(ctx, db)
    let kind = "habit-" + change.kind.rawValue
    try ctx.render(
      Report(
        undone: redo ? nil : kind, redone: redo ? kind : nil, habit: name,
        check: change.kind.isCheck
          ? (redo ? change.checkAfter : change.checkBefore) : nil,
        newAchievements: settled.newAchievements, lostAchievements: settled.lostAchievements),
      json: json
    ) {
      let habit = "'\(VisibleText.escaped(name))'"
      let unit = try db.habits(includingArchived: true).first { $0.id == change.habit }?.unit
      let what =
        switch (change.kind, redo) {
        case (.added, false): "adding \(habit) (it is removed again)"
        case (.added, true): "adding \(habit) (it is back)"
        case (.removed, false): "removing \(habit) (it is back, with its days)"
        case (.removed, true): "removing \(habit) (it is removed again)"
        case (.noted, _):
          "a note on \(habit)"
            + ((redo ? change.checkAfter : change.checkBefore).map { check in
              check.note.map { " (\(check.day.short) reads '\(VisibleText.escaped($0))' again)" }
                ?? " (\(check.day.short) has no note again)"
            } ?? "")
        case (.done, _), (.skipped, _), (.failed, _):
          // what the day holds now, said: the amount back, the skip back, or no mark
          "\(habit) \(change.kind == .failed ? "marked no" : change.kind.rawValue)"
            + Self.dayNow(redo ? change.checkAfter : change.checkBefore, unit: unit)
        case (.edited, _): "an edit of \(habit)"
        }
      ctx.line(
        ctx.style.green("✓") + " \(redo ? "Redone" : "Undone"): \(what)."
          + ctx.style.dim(redo ? "" : " (nudge redo re-applies it)"))
      HabitText.sayLost(settled, ctx)
      for achievement in settled.newAchievements {
        ctx.line("🏆 Earned again: \(achievement.title).")
      }
    }
  }
}

/// The person's habits as a day of `history` shows them: each marked that day, done (with its
/// amount) or skipped.
enum HabitDays {
  /// One habit's mark on a day, as `history --json` prints it under `habits`.
  struct Mark: Encodable {
    var name: String
    /// `done`, `skipped` or `failed`.
    var state: String
    @NullWhenAbsent var value: Int?
    /// The person's note on the day.
    @NullWhenAbsent var note: String?
    /// Whether it meets the habit (a measurable one's amount reached its target).
    var met: Bool
    /// The measurable habit's target, for "16/20".
    @NullWhenAbsent var target: Int?
  }

  /// A day of `history --json`: the day's keys, then `habits`.
  struct Dated: Encodable {
    var day: HistoryDay
    var habits: [Mark]

    enum Key: String, CodingKey { case habits }

    func encode(to encoder: any Encoder) throws {
      try day.encode(to: encoder)
      var container = encoder.container(keyedBy: Key.self)
      try container.encode(habits, forKey: .habits)
    }
  }

  /// The marks of every habit (archived ones too) from `first` through `last`, by day, in the
  /// habits' order.
  static func read(_ db: AppDatabase, from first: Day, through last: Day, tag: String? = nil)
    throws -> [Day: [Mark]]
  {
    let habits = try db.habits(includingArchived: true).filter { tag == nil || $0.hasTag(tag!) }
    guard !habits.isEmpty else { return [:] }
    let checks = try db.habitChecks(from: first, through: last)
    var byDay: [Day: [Mark]] = [:]
    for habit in habits {
      for check in checks[habit.id] ?? [] {
        byDay[check.day, default: []].append(
          Mark(
            name: habit.name, state: check.mark.rawValue, value: check.value, note: check.note,
            met: check.meets(habit), target: habit.target))
      }
    }
    return byDay
  }

  /// A day's summary, then "· habits: Stretch ✓, Read 25, Gym skipped" (the summary alone when
  /// no habit was marked; the habits alone when the summary is an empty day's "·").
  static func said(_ marks: [Mark], after summary: String) -> String {
    guard !marks.isEmpty else { return summary }
    return (summary == "·" ? "" : summary + " · ") + "habits: " + list(marks)
  }

  /// "Stretch ✓, Read 25 (on the train), Gym skipped, Run ✗".
  static func list(_ marks: [Mark]) -> String {
    marks.map { mark in
      VisibleText.escaped(mark.name)
        + (mark.state == "skipped"
          ? " skipped"
          : mark.state == "failed"
            ? " ✗"
            : mark.value.map { " \($0)" + (mark.target.map { "/\($0)" } ?? "") } ?? " ✓")
        + (mark.note.map { " (\(VisibleText.escaped($0)))" } ?? "")
    }.joined(separator: ", ")
  }
}
