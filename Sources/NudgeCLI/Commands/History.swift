import ArgumentParser
import NudgeCore

/// `nudge history`: the last days as a timeline.
struct HistoryCommand: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "history", abstract: "The last 7 days as a timeline.")

  // (unconditional: "--days -1" is a number to refuse, not a missing value and an option)
  @Option(
    parsing: .unconditional,
    help: ArgumentHelp("How many days back, today included (1-3650).", valueName: "n"))
  var days: Int = 7

  @Flag(help: "Print the days as JSON, oldest first.")
  var json = false

  @Flag(help: "Every day in full, in your own words (as 'nudge show' prints a day).")
  var full = false

  @Option(
    help: ArgumentHelp("Only the habits with this tag, beside the day.", valueName: "tag"),
    completion: .shellCommand("nudge habit tags 2>/dev/null"))
  var tag: String?

  func validate() throws {
    guard (1...3650).contains(days) else {
      throw outOfRange("--days", days, 1...3650, unit: "days")
    }
  }

  /// `nudge history [--days N] [--tag TAG] [--json] [--full]` read without the argument parser
  /// (`PlainWords`); anything else, or what `validate` refuses, is nil for the parser to read
  /// and say what is wrong.
  static func quickParse(_ arguments: [String]) -> Self? {
    guard arguments.first == "history",
      let words = PlainWords(
        arguments.dropFirst(), options: ["--days", "--tag"], flags: ["--json", "--full"],
        unconditional: ["--days"]),
      words.positionals.isEmpty,
      let days = words.number("--days", Int.self)
    else { return nil }
    var command = Self()
    command.days = days ?? 7
    command.json = words.flags.contains("--json")
    command.full = words.flags.contains("--full")
    command.tag = words.options["--tag"]
    guard (try? command.validate()) != nil else { return nil }
    return command
  }

  func run(_ ctx: Context) throws {
    let db = try ctx.openDatabase()
    let settings = try db.settings()
    let today = ctx.today(settings).day
    let timeline = try db.history(from: today.adding(days: -(days - 1)), through: today)
    let plans = try ctx.plans(db)
    let habits = try HabitDays.read(
      db, from: today.adding(days: -(days - 1)), through: today, tag: tag)
    try ctx.render(
      timeline.map {
        HabitDays.Dated(
          day: AnsweredView(plans: plans).withChallenges($0), habits: habits[$0.date] ?? [])
      }, json: json
    ) {
      let style = ctx.style
      let frozen = Set(
        try ctx.streak(db, today: today).frozen)
      // days off are drawn '-' as `streak` draws them, never '·' missed
      let paused = try db.pausedDays(through: today)
      if full {
        let view = DayView(ctx: ctx, today: today, plans: plans)
        for (index, entry) in timeline.reversed().enumerated() {
          if index > 0 { ctx.line() }
          view.full(entry)
          if let marks = habits[entry.date] { ctx.wrappedLine("Habits: " + HabitDays.list(marks)) }
        }
        return
      }
      // the timeline is written at once, not a line at a time (ten years are 3,650 lines)
      var text = ""
      for entry in timeline.reversed() {
        let label = entry.date == today ? "Today" : entry.date.short
        let said = HabitDays.said(
          habits[entry.date] ?? [],
          after: summary(
            entry.shown, frozen: frozen.contains(entry.date), today: entry.date == today,
            paused: paused.contains(entry.date), view: AnsweredView(plans: plans), stored: entry,
            zone: ctx.timeZone))
        // long days wrap under their text, never into the date column
        let lines = TerminalText.wrap(said, width: ctx.columns - 11)
        for (index, part) in lines.enumerated() {
          let column =
            index == 0 ? style.bold(label.padded(to: 11)) : String(repeating: " ", count: 11)
          text +=
            column + paint(part, entry, style, frozen.contains(entry.date), entry.date == today)
          text += "\n"
        }
      }
      ctx.output.write(text)
    }
  }

  /// The colour of a day's summary: green when done, cyan frozen, yellow in progress.
  private func paint(
    _ text: String, _ entry: HistoryDay, _ style: Style, _ frozen: Bool, _ today: Bool
  ) -> String {
    if entry.isDone { return style.green(text) }
    if frozen { return style.cyan(text) }
    return today ? style.yellow(text) : style.dim(text)
  }

  private func summary(
    _ entry: HistoryDay, frozen: Bool, today: Bool, paused: Bool, view: AnsweredView,
    stored: HistoryDay, zone: ZoneRules
  ) -> String {
    if !entry.isDone && frozen { return "* frozen (a streak freeze kept the streak)" }
    if !entry.isDone && today { return paused ? "- day off (paused)" : "○ in progress" }
    if !entry.isDone && paused { return "- day off (paused)" }
    guard entry.isDone else { return "·" }
    var parts: [String] = []
    if let prep = entry.prep {
      parts.append(
        "prep \(prep.doneCount)/\(PrepItem.allCases.count)" + (prep.other == nil ? "" : " + other"))
    }
    if let review = entry.review {
      parts.append("focus" + (review.challengeText.map { ": \($0.lowercased())" } ?? ""))
    }
    if let checkin = entry.checkin {
      let how =
        switch checkin.followed {
        case true?: ": swap followed"
        case false?: ": swap missed"
        case nil: checkin.feel.map { ": \($0)" } ?? ""
        }
      parts.append("check-in" + how)
    }
    for note in entry.help {
      parts.append("help \(clockTime(note.at, in: zone)) \(note.category.rawValue)")
    }
    parts += view.ordered(stored.flows).map(view.part)
    return "✓ " + parts.joined(separator: " · ")
  }
}
