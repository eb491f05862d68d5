import NudgeCore
import NudgeUseCases

/// How a habit is written for a person.
enum HabitText {
  /// Its name, escaped, in quotes.
  static func name(_ habit: Habit) -> String { "'\(VisibleText.escaped(habit.name))'" }

  /// Its name as a shell argument: quoted when it has spaces or quotes.
  static func argument(_ habit: Habit) -> String {
    Reminder.HabitOffer(habit, streak: 0).argument
  }

  /// What a check replaced, when it was recorded otherwise ("It replaces what was recorded:
  /// 12 pages."); nil when there was nothing, or the same.
  static func replaced(_ before: HabitCheck?, by check: HabitCheck, _ habit: Habit) -> String? {
    guard let before, before.mark != check.mark || before.value != check.value else {
      return nil
    }
    let what =
      before.failed
      ? "no"
      : !before.done
        ? "skipped"
        : before.value.map { "\($0) \(habit.unit.map(VisibleText.escaped) ?? "")" } ?? "done"
    return "It replaces what was recorded for that day: \(what). (nudge undo takes it back)"
  }

  /// "Last 30 days: 20 done, 3 skipped, 2 no, 5 unknown": how the days from the habit's start
  /// (at most 30) through today went, a day with nothing recorded counted as unknown when it
  /// was wanted.
  static func tally(_ checks: [HabitCheck], _ habit: Habit, today: Day) -> String {
    let first = max(habit.since, today.adding(days: -29))
    let recent = checks.filter { $0.day >= first && $0.day <= today }
    let marked = Set(recent.map(\.day))
    var unknown = 0
    var day = first
    while day < today {
      if !marked.contains(day) && habit.every.isDayByDay && habit.every.isDue(on: day) {
        unknown += 1
      }
      day = day.adding(days: 1)
    }
    let days = today.ordinal - first.ordinal + 1
    let slips = recent.filter(\.failed).count
    if habit.quit {
      // a habit to quit: every day is clean but a slip
      return
        "Last \(days) day\(days == 1 ? "" : "s"): \(days - slips) clean, \(slips) slip\(slips == 1 ? "" : "s")"
    }
    // a day over a limit is lost, as a no
    let done = recent.filter { $0.meets(habit) }.count
    let skipped = recent.filter(\.isSkip).count
    let no = recent.count - done - skipped
    return
      "Last \(days) day\(days == 1 ? "" : "s"): \(done) done, \(skipped) skipped, "
      + "\(no) no" + (habit.every.isDayByDay ? ", \(unknown) unknown" : "")
  }

  /// A reminder time as a person reads it: "weekdays 7:30" as typed, "Mon,Wed,Fri 07:30" for
  /// the calendar expression of one.
  static func time(_ at: String) -> String {
    let words = at.split(separator: " ")
    if words.count == 3, words[1] == "*-*-*" {
      let clock = words[2].split(separator: ":")
      return words[0] + " " + clock.prefix(2).joined(separator: ":")
    }
    if words.count == 2, words[0] == "*-*-*" {
      return words[1].split(separator: ":").prefix(2).joined(separator: ":")
    }
    return at
  }

  /// Says the achievements a change took back (its days no longer earn them).
  static func sayLost(_ settled: HabitChanges.Settled, _ ctx: Context) {
    for lost in settled.lostAchievements {
      ctx.line(
        ctx.style.yellow("Achievement removed: \(lost.title) (its condition no longer holds)."))
    }
  }

  /// "#health #morning".
  static func tagWords(_ habit: Habit) -> String {
    habit.tags.map { "#" + VisibleText.escaped($0) }.joined(separator: " ")
  }

  /// ", reminder 9pm" or ", reminders 8:00 and 20:00"; "" for a habit without one.
  static func reminders(_ habit: Habit) -> String {
    let times = habit.reminderTimes.map { VisibleText.escaped(time($0)) }
    guard let last = times.last else { return "" }
    if times.count == 1 { return ", reminder \(last)" }
    return ", reminders \(times.dropLast().joined(separator: ", ")) and \(last)"
  }

  /// "daily at 9pm, 20 pages a day".
  static func describe(_ habit: Habit, style: Style) -> String {
    var text = habit.quit ? "to quit (every day clean but a slip)" : habit.every.description
    text += reminders(habit)
    if let target = habit.target {
      text +=
        ", \(habit.atMost ? "at most " : "")\(target) \(habit.unit.map(VisibleText.escaped) ?? "") a day"
    }
    if !habit.tags.isEmpty { text += ", " + tagWords(habit) }
    return text
  }

  /// "streak 4 days".
  /// "streak 3 days"; "streak 1 week · 2 of 3 this week" for a habit of so many times a week
  /// or a month.
  static func streakLine(_ report: HabitReport) -> String {
    if report.quit {
      return "\(report.streak) clean day\(report.streak == 1 ? "" : "s") in a row"
    }
    let unit = report.streak == 1 ? String(report.streakUnit.dropLast()) : report.streakUnit
    let period =
      ["weeks", "months"].contains(report.streakUnit)
      ? " · \(report.periodDone) of \(report.periodWants) this \(report.streakUnit.dropLast())"
      : ""
    return "streak \(report.streak) \(unit)\(period)"
  }
}

extension FlowDay {
  /// "today", "yesterday", or the day.
  static func describe(_ day: Day, today: Day) -> String {
    day == today ? "today" : day == today.adding(days: -1) ? "yesterday" : "on \(day.long)"
  }
}
