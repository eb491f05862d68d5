import ArgumentParser
import NudgeCore
import NudgeStore

/// `nudge week`: the calendar week looked back on (from the day `week-start` begins it on;
/// this one so far, or a whole one before).
struct WeekCommand: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "week",
    abstract: "Your week looked back on: days done, flows, swaps, cravings, commitments.")

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Weeks back: 0 is this week so far, 1 the week before it (0-52); a week begins on week-start (nudge config).",
      valueName: "weeks"))
  var ago: Int = 0

  @Flag(help: "Print the week as JSON.")
  var json = false

  func validate() throws {
    guard (0...52).contains(ago) else { throw outOfRange("--ago", ago, 0...52, unit: "weeks") }
  }

  /// What `--json` prints.
  struct Report: Encodable {
    var week: WeekSummary
    var streak: Int
    var suggestions: [String]
    /// The week of each flow a plan that is on defines (or that has entries this week).
    var flows: [FlowWeek]
    /// The sleep plan's week; null when it logged nothing this week.
    @NullWhenAbsent var sleep: SleepWeek?
    /// The week's nights as a watch measured them (`nudge health`); null without any.
    @NullWhenAbsent var measuredSleep: MeasuredSleepWeek?
    /// Each habit not archived: its days done and skipped this week, its streak then.
    var habits: [HabitWeek]
    /// Each tag's week: its habits' days together (empty when no habit has a tag).
    var tags: [TagWeek]
  }

  /// A tag's week: how many habits have it, and their days done, skipped and said no.
  struct TagWeek: Encodable {
    var tag: String
    var habits: Int
    var doneDays: Int
    var skippedDays: Int
    var failedDays: Int
  }

  /// A habit's week.
  struct HabitWeek: Encodable {
    var name: String
    var doneDays: Int
    var skippedDays: Int
    /// Days said no (`habit fail`).
    var failedDays: Int
    var streak: Int
    var streakUnit: String
    /// A habit to quit: its done days are the clean ones, its failed days slips.
    var quit: Bool
  }

  func run(_ ctx: Context) throws {
    let db = try ctx.openDatabase()
    let settings = try db.settings()
    let today = ctx.today(settings).day
    // the calendar week, as the person begins it; this one only through today
    let first = ctx.weekStart(settings).firstDay(of: today).adding(days: -7 * ago)
    let end = first.adding(days: 6)
    let last = min(end, today)
    let stored = try db.history(from: first, through: last)
    let days = stored.map(\.shown)
    let plans = try ctx.plans(db)
    let entries = stored.flatMap(\.flows.values)
    let flowWeeks = plans.definedFlows.filter { found in
      plans.isOn(found.plan) || entries.contains { $0.flow == found.flow.word }
    }.map { found in
      (found.flow, FlowWeek(found.flow, entries: entries.filter { $0.flow == found.flow.word }))
    }
    let sleepWeek = SleepWeek(
      nights: entries.filter { $0.flow == "sleep" },
      challenges: entries.filter { $0.flow == "challenge" })
    let measured = MeasuredSleepWeek(
      (try? ctx.healthStore(create: false)?.nights(from: first, through: last))??.map(\.night)
        ?? [])
    let before = try db.history(from: first.adding(days: -7), through: first.adding(days: -1))
    let week = WeekSummary(days: days, before: before)
    let streak = try ctx.streak(db, today: last)
    let suggestions = try slotSuggestions(db, days, rollover: settings.rolloverHour)
    let marks = try HabitDays.read(db, from: first, through: last)
    let habits = try db.habits(includingArchived: false)
    let reports = try HabitReport.all(
      habits, db, today: last, scoring: false, weekStart: ctx.weekStart(try db.settings()))
    let habitWeeks = zip(habits, reports).map { habit, progress in
      let week = marks.values.joined().filter { $0.name == habit.name }
      // a day over a limit is lost, as a no; a habit to quit is clean every day but a slip
      let failed = week.filter { $0.state == "failed" || ($0.state == "done" && !$0.met) }.count
      let days = max(0, last.ordinal - max(first, habit.since).ordinal + 1)
      return HabitWeek(
        name: habit.name, doneDays: habit.quit ? days - failed : week.filter(\.met).count,
        skippedDays: week.filter { $0.state == "skipped" }.count, failedDays: failed,
        streak: progress.streak, streakUnit: progress.streakUnit, quit: habit.quit)
    }
    let tagWeeks = HabitCommand.tags(of: habits).map { tag in
      let weeks = zip(habits, habitWeeks).filter { $0.0.hasTag(tag) }.map(\.1)
      return TagWeek(
        tag: tag, habits: weeks.count, doneDays: weeks.reduce(0) { $0 + $1.doneDays },
        skippedDays: weeks.reduce(0) { $0 + $1.skippedDays },
        failedDays: weeks.reduce(0) { $0 + $1.failedDays })
    }
    try ctx.render(
      Report(
        week: week, streak: streak.current, suggestions: suggestions,
        flows: flowWeeks.map(\.1), sleep: sleepWeek.line == nil ? nil : sleepWeek,
        measuredSleep: measured, habits: habitWeeks,
        tags: tagWeeks), json: json
    ) {
      let style = ctx.style
      ctx.line(
        style.bold("Your week · \(first.short) – \(end.short)")
          + (end > today ? style.dim(" (so far)") : ""))
      ctx.line("🔥 Streak: \(streak.current == 1 ? "1 day" : "\(streak.current) days")")
      for line in week.lines { ctx.wrappedLine(line, indent: 2) }
      for (flow, flowWeek) in flowWeeks {
        ctx.wrappedLine(VisibleText.escaped(flowWeek.line(flow)), indent: 2)
      }
      if let line = sleepWeek.line { ctx.wrappedLine(line, indent: 2) }
      if let measured { ctx.wrappedLine(VisibleText.escaped(measured.line), indent: 2) }
      for habit in habitWeeks {
        let unit = habit.streak == 1 ? String(habit.streakUnit.dropLast()) : habit.streakUnit
        ctx.wrappedLine(
          "\(VisibleText.escaped(habit.name)): \(habit.quit ? "clean" : "done") \(habit.doneDays) of \(last.ordinal - first.ordinal + 1) days"
            + (habit.skippedDays > 0 ? ", \(habit.skippedDays) skipped" : "")
            + (habit.failedDays > 0
              ? ", \(habit.failedDays) \(habit.quit ? (habit.failedDays == 1 ? "slip" : "slips") : "no")"
              : "")
            + " · streak \(habit.streak) \(unit)", indent: 2)
      }
      for tag in tagWeeks {
        ctx.wrappedLine(
          "#\(VisibleText.escaped(tag.tag)) (\(tag.habits) habit\(tag.habits == 1 ? "" : "s")): \(tag.doneDays) day\(tag.doneDays == 1 ? "" : "s") done"
            + (tag.skippedDays > 0 ? ", \(tag.skippedDays) skipped" : "")
            + (tag.failedDays > 0 ? ", \(tag.failedDays) no" : ""), indent: 2)
      }
      for suggestion in suggestions { ctx.wrappedLine(suggestion, indent: 2, style: style.cyan) }
    }
  }

  /// Moves worth suggesting: a flow done on at least 5 of the days more than 45 minutes away
  /// from its reminder's time (prep and the evening slot, the review and the morning slot).
  func slotSuggestions(_ db: AppDatabase, _ days: [HistoryDay], rollover: Int) throws -> [String] {
    let schedules = try db.schedules()
    var out: [String] = []
    for (slot, verb, times) in [
      (ReminderSource.evening, "prep", days.compactMap { $0.prep?.savedAt }),
      (ReminderSource.morning, "do your Morning Focus", days.compactMap { $0.review?.savedAt }),
    ] {
      guard let schedule = schedules.first(where: { $0.slot == slot }), schedule.enabled,
        let plain = PlainTime.describe(schedule.expression), !plain.contains(" "),
        let slotMinutes = Self.minutes(plain, rollover: rollover)
      else { continue }
      let done = times.compactMap {
        Self.minutes(String(Array($0).dropFirst(11).prefix(5)), rollover: rollover)
      }
      guard let (usual, suggested) = SlotSuggestion.better(slotMinutes: slotMinutes, times: done),
        suggested < 24 * 60
      else { continue }
      let at = Self.clock(suggested)
      out.append(
        "You \(verb) around \(Self.clock(usual)); move the \(slot.rawValue) reminder to \(at)? nudge schedule set \(slot.rawValue) \(at)"
      )
    }
    return out
  }

  /// Minutes after midnight of "HH:MM"; before the rollover hour it belongs to the evening
  /// before (past 24:00).
  static func minutes(_ clock: String, rollover: Int) -> Int? {
    let parts = clock.split(separator: ":")
    guard parts.count == 2, let h = Int(parts[0]), let m = Int(parts[1]) else { return nil }
    return (h < rollover ? h + 24 : h) * 60 + m
  }

  static func clock(_ minutes: Int) -> String {
    let m = minutes % (24 * 60)
    return zeroPadded(m / 60, 2) + ":" + zeroPadded(m % 60, 2)
  }
}
