import ArgumentParser
import NudgeCore
import NudgeUseCases

/// `nudge pause`: days off for a holiday or sick days.
struct PauseCommand: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "pause",
    abstract: "Take days off: no reminders, and your streak waits (it neither grows nor breaks).",
    discussion: """
      The pause starts today and ends by itself after its last day; 'nudge resume' ends it \
      early. A flow you do while paused still counts. Paused days use no streak freeze. Days \
      already past (ill for three days?) can be marked with --from, up to 7 days back: the \
      streak waits over them.
      """)

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "The first day off, when it is already past: yesterday, a weekday (the latest one) or YYYY-MM-DD, up to 7 days back.",
      valueName: "day"))
  var from: String?

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "The last day of the pause: tomorrow, a weekday (the next one) or YYYY-MM-DD.",
      valueName: "day"))
  var until: String?

  // (unconditional: "--for -3d" is a length to refuse, not a missing value and an option)
  @Option(
    name: .customLong("for"), parsing: .unconditional,
    help: ArgumentHelp("How long, today included: days or weeks (5d, 2w).", valueName: "length"))
  var length: String?

  @Flag(help: "Mark days already past without asking (off a terminal, it is needed).")
  var yes = false

  @Flag(help: "Print the pause as JSON.")
  var json = false

  func run(_ ctx: Context) throws {
    let db = try ctx.openDatabase()
    let today = ctx.today(try db.settings()).day
    let pause: Pause
    do { pause = try Pause.days(from: from, until: until, for: length, today: today) } catch {
      throw CLIError(
        "\(error.message) For example: nudge pause --for 5d, nudge pause --until tomorrow, or nudge pause --from \(today.adding(days: -3)) --until yesterday.",
        code: .usage)
    }
    let past = pause.pastDays(today: today)
    if !past.isEmpty && !yes {
      let range = Self.range(past.first!, past.last!)
      let command =
        "nudge pause --from \(pause.firstDay) --until \(pause.lastDay == today.adding(days: -1) ? "yesterday" : pause.lastDay.description) --yes"
      guard ctx.input.isTerminal, !json else {
        throw CLIError(
          "\(json ? "--json prints the pause alone" : "stdin is not a terminal"), so Nudge will not ask whether to mark \(range) (already past) as days off; to mark them: \(command)",
          code: .usage)
      }
      let question = "Mark \(range) as days off? Your streak waits over them."
      guard try Prompter(ctx: ctx).yesNo(question, current: true) else {
        ctx.line("Nothing was marked.")
        return
      }
    }
    let (new, lost) = try PauseDays(db: db)(pause, today: today)
    if json {
      ctx.line(try jsonText(pause))
      return
    }
    let streak = try ctx.streak(db, today: today)
    if pause.lastDay < today {
      let count = past.count == 1 ? "1 day" : "\(past.count) days"
      ctx.line(
        ctx.style.green("✓")
          + " Marked \(Self.range(pause.firstDay, pause.lastDay)) as days off (\(count)).")
      ctx.wrappedLine(
        "Your streak waited over them: they neither grow nor break it, and use no freeze. Reminders go on as before."
      )
      sayEffects(ctx, new: new, lost: lost, streak: streak)
      return
    }
    let days = pause.lastDay.ordinal - today.ordinal + 1
    ctx.line(
      ctx.style.green("✓")
        + " Paused until \(pause.lastDay.long)\(pause.lastDay.year == today.year ? "" : " \(pause.lastDay.year)") (\(days == 1 ? "today" : "\(days) days"))"
        + (past.isEmpty ? "." : ", and \(Self.range(past.first!, past.last!)) marked as days off."))
    ctx.wrappedLine(
      "No reminders until then, and your streak waits: it neither grows nor breaks, and uses no freeze. A flow you do still counts. End it early with: nudge resume"
    )
    if !past.isEmpty { sayEffects(ctx, new: new, lost: lost, streak: streak) }
  }

  /// The streak after marking past days, and the milestones it reached over them.
  func sayEffects(_ ctx: Context, new: [Achievement], lost: [Achievement], streak: StreakSummary) {
    EntryText.sayEffects(ctx, new: [], lost: lost, streak: streak)
    for achievement in new {
      ctx.line("🏆 New achievement: \(ctx.achievementTitle(achievement)).")
    }
  }

  /// "Mon 7 Dec", "Mon 7 – Wed 9 Dec", "Mon 30 Nov – Wed 2 Dec".
  static func range(_ first: Day, _ last: Day) -> String {
    if first == last { return first.short }
    let start = first.month == last.month ? "\(first.weekdayName) \(first.day)" : first.short
    return "\(start) – \(last.short)"
  }
}

/// `nudge resume`: ends today's pause.
struct ResumeCommand: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "resume", abstract: "End a pause early: reminders are back from today.")

  func run(_ ctx: Context) throws {
    let db = try ctx.openDatabase()
    let today = ctx.today(try db.settings()).day
    guard let ended = try db.endPause(today: today) else {
      throw CLIError("nothing to resume: no pause covers today.", code: .failure)
    }
    ctx.line(
      ctx.style.green("✓") + " Resumed: reminders are back from today"
        + (ended.firstDay < today
          ? " (the pause covered \(ended.firstDay.long) to yesterday)." : "."))
  }
}
