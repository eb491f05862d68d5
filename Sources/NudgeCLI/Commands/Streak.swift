import ArgumentParser
import NudgeCore

/// `nudge streak`: current and longest streak, freezes, the week ring and a heatmap of the
/// last 12 weeks (`--weeks N`: 1 to 53).
struct StreakCommand: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "streak",
    abstract: "Your streak, this week's ring and a heatmap of the last 12 weeks (--weeks).")

  @Flag(help: "Print the streak as JSON.")
  var json = false

  // taken as text (and whatever follows, '-1' too) so a word that is not a number gets the
  // same one line as a number out of range
  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Weeks the heatmap shows, from \(Heatmap.allowedWeeks.lowerBound) to \(Heatmap.allowedWeeks.upperBound) (53: a year).",
      valueName: "n"))
  var weeks = String(Heatmap.defaultWeeks)

  @Option(
    help: ArgumentHelp(
      "One of your own habits instead: its streak, best streak, strength and weeks.",
      valueName: "name"),
    completion: .shellCommand("nudge habit names 2>/dev/null"))
  var habit: String?

  /// The heatmap's weeks, once `validate` has accepted `--weeks`.
  var weekCount: Int { Int(weeks) ?? Heatmap.defaultWeeks }

  func validate() throws {
    guard let n = Int(weeks), Heatmap.allowedWeeks.contains(n) else {
      throw ValidationError(
        "--weeks takes a whole number from \(Heatmap.allowedWeeks.lowerBound) to \(Heatmap.allowedWeeks.upperBound) (default \(Heatmap.defaultWeeks)), not '\(VisibleText.escaped(weeks))'."
      )
    }
  }

  /// The stable JSON shape of DESIGN §7.
  struct Report: Encodable {
    struct Week: Encodable {
      var done: Int
      var of = 7
    }
    var current: Int
    var longest: Int
    var todayDone: Bool
    var frozen: [Day]
    var freezesHeld: Int
    var week: Week
    /// The last day of the pause in effect today (`nudge pause`), else null.
    @NullWhenAbsent var pausedUntil: Day?
    /// The days off up to today among those the ring and the heatmap show, oldest first.
    var pausedDays: [Day]
  }

  func run(_ ctx: Context) throws {
    let db = try ctx.openDatabase()
    let settings = try db.settings()
    let today = ctx.today(settings).day
    if let name = habit {
      let found = try HabitInput.find(name, in: try db.habits(), ctx)
      let report = try HabitReport.of(
        found, db, today: today, weekStart: ctx.weekStart(try db.settings()))
      return try ctx.render(report, json: json) {
        ctx.line(
          ctx.style.bold("🔥 \(VisibleText.escaped(found.name)): " + HabitText.streakLine(report))
            + "  best \(report.bestStreak) · strength \(report.strength)%")
        ctx.line()
        try HabitHeatmap.draw(ctx, found, db, today: today, weeks: weekCount)
      }
    }
    // the days the ring and the heatmap show, and those the streak's walk has not stored yet
    let weekStart = ctx.weekStart(settings)
    let shown = weekStart.firstDays(weekCount, today: today).first ?? today
    let read = try db.streakDays(today: today, showing: shown)
    let (done, paused) = (read.done, read.paused)
    let s = read.summary(today: today)
    try ctx.render(
      Report(
        current: s.current, longest: s.longest, todayDone: s.todayDone, frozen: s.frozen,
        freezesHeld: s.freezesHeld, week: .init(done: s.weekDone),
        pausedUntil: try db.pauses().first { $0.contains(today) }?.lastDay,
        pausedDays: Heatmap.pausedDays(
          paused, weeks: weekCount, today: today, weekStart: weekStart)), json: json
    ) {
      let style = ctx.style
      let days = { (n: Int) in n == 1 ? "1 day" : "\(n) days" }
      ctx.line(
        style.bold("🔥 Current streak: \(days(s.current))")
          + (s.todayDone ? style.green("  today done") : style.yellow("  today pending")))
      ctx.line("   Longest streak: \(days(s.longest))")
      let freezes = String(repeating: "❄ ", count: s.freezesHeld)
      ctx.line(
        "   Freezes held: \(s.freezesHeld)/\(StreakRule.maxFreezes) \(freezes)"
          + style.dim(
            "(one for every 7 days in a row; each covers one missed day, days in a row too)"))
      if !s.frozen.isEmpty {
        ctx.line("   Frozen days: " + s.frozen.suffix(5).map(\.description).joined(separator: ", "))
      }
      // "this week" is the last 7 days, here and in the today view; the heatmap shows calendar
      // weeks, Monday to Sunday, under the date each starts
      let frozen = Set(s.frozen)
      let ring = Heatmap.lastSevenDays(
        today: today, doneDays: done, frozen: frozen, paused: paused, firstUse: read.firstDone)
      let letters = (0..<7).reversed().map { String(today.adding(days: -$0).weekdayName.prefix(1)) }
      ctx.line(
        "   This week:  " + ring.map { mark($0, style) }.joined(separator: " ")
          + "  \(s.weekDone)/7")
      ctx.line(
        "               " + style.dim(letters.joined(separator: " "))
          + style.dim("  (the last 7 days)"))
      ctx.line()
      // a column a week, a space between them while they fit the terminal ("   Mon " first);
      // side by side when they would not (53 weeks in 80 columns)
      let count = weekCount
      let spaced = count <= Heatmap.defaultWeeks || 7 + count * 2 - 1 <= ctx.columns
      let width = spaced ? 2 : 1
      let labelEvery = spaced ? 4 : 8
      let mondays = weekStart.firstDays(count, today: today)
      var labels = ""
      for (w, monday) in mondays.enumerated() where w % labelEvery == 0 {
        let at = w * width
        guard at >= labels.count || labels.isEmpty else { continue }
        labels += String(repeating: " ", count: max(0, at - labels.count)) + monday.dayMonth
      }
      ctx.line("       " + style.dim(labels))
      let grid = Heatmap.weeks(
        count, today: today, doneDays: done, frozen: frozen, paused: paused,
        firstUse: read.firstDone, weekStart: weekStart)
      for (d, name) in weekStart.dayNames.enumerated() {
        ctx.line(
          "   \(style.dim(name)) "
            + grid.map { mark($0[d], style) }.joined(separator: spaced ? " " : ""))
      }
      for line in Self.legendLines(width: ctx.columns) { ctx.line("       " + style.dim(line)) }
    }
  }

  /// What each mark of the ring and the heatmap means, the way it is drawn.
  static let legend = [
    "█ done", "* frozen (streak kept)", "· missed", "- paused (day off)", "○ today, in progress",
  ]

  /// The legend in as few lines as fit `width` columns after its 7-column indent, two spaces
  /// between marks, never a mark split from its meaning.
  static func legendLines(width: Int) -> [String] {
    var lines: [String] = []
    for item in legend {
      if let last = lines.last, 7 + last.count + 2 + item.count <= width {
        lines[lines.count - 1] += "  " + item
      } else {
        lines.append(item)
      }
    }
    return lines
  }
}

/// One day of the ring or the heatmap: done, frozen, missed, paused, in progress, or blank —
/// each a character of its own, so it reads the same without colour (`NO_COLOR`).
func mark(_ cell: Heatmap.Cell, _ style: Style) -> String {
  switch cell {
  case .done: style.green("█")
  case .frozen: style.cyan("*")
  case .missed: style.dim("·")
  case .paused: style.blue("-")
  case .inProgress: style.yellow("○")
  case .beforeFirstUse, .future: " "
  }
}
