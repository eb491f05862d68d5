import ArgumentParser
import NudgeCore
import NudgeUseCases

extension PauseCommand {
  /// `nudge pause [add]`: marks days off.
  struct Add: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "add",
      abstract: "Mark days off: from today, ahead (--from), or already past (--from).")

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp(
        "The first day off, when not today: tomorrow, a weekday (the next one), YYYY-MM-DD (up to a year ahead), or yesterday, 'last friday' (up to 7 days back).",
        valueName: "day"))
    var from: String?

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp(
        "The last day of the pause: tomorrow, a weekday (the next one from the first day) or YYYY-MM-DD.",
        valueName: "day"))
    var until: String?

    // (unconditional: "--for -3d" is a length to refuse, not a missing value and an option)
    @Option(
      name: .customLong("for"), parsing: .unconditional,
      help: ArgumentHelp(
        "How long, the first day included: days or weeks (5d, 2w).", valueName: "length"))
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
          "\(error.message) For example: nudge pause --for 5d, nudge pause --from \(today.adding(days: 7)) --for 1w, or nudge pause --from \(today.adding(days: -3)) --until yesterday.",
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
      let at = InstantFormat.format(ctx.clock.started, in: ctx.timeZone)
      let settled = try PauseDays(db: db)(pause, today: today, at: at)
      let (new, lost) = (settled.new, settled.lost)
      try ctx.render(pause, json: json) {
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
          ctx.line(ctx.style.dim("A mistake? 'nudge undo' takes it back."))
          return
        }
        if pause.isAhead(of: today) {
          let days = pause.lastDay.ordinal - pause.firstDay.ordinal + 1
          ctx.line(
            ctx.style.green("✓")
              + " Days off planned: \(Self.range(pause.firstDay, pause.lastDay))\(pause.lastDay.year == today.year ? "" : " \(pause.lastDay.year)") (\(days == 1 ? "1 day" : "\(days) days"), starting in \(pause.firstDay.ordinal - today.ordinal == 1 ? "1 day" : "\(pause.firstDay.ordinal - today.ordinal) days"))."
          )
          ctx.wrappedLine(
            "No reminders then, and your streak waits over them. Reminders go on until then. See your pauses: nudge pause list"
          )
          ctx.line(ctx.style.dim("A mistake? 'nudge undo' takes it back."))
          return
        }
        let days = pause.lastDay.ordinal - today.ordinal + 1
        ctx.line(
          ctx.style.green("✓")
            + " Paused until \(pause.lastDay.long)\(pause.lastDay.year == today.year ? "" : " \(pause.lastDay.year)") (\(days == 1 ? "today" : "\(days) days"))"
            + (past.isEmpty
              ? "." : ", and \(Self.range(past.first!, past.last!)) marked as days off."))
        ctx.wrappedLine(
          "No reminders until then, and your streak waits: it neither grows nor breaks, and uses no freeze. A flow you do still counts. End it early with: nudge resume"
        )
        if !past.isEmpty { sayEffects(ctx, new: new, lost: lost, streak: streak) }
      }
    }

    /// The streak after marking past days, and the milestones it reached over them.
    func sayEffects(_ ctx: Context, new: [Achievement], lost: [Achievement], streak: StreakSummary)
    {
      EntryText.sayEffects(ctx, new: [], lost: lost, streak: streak)
      for achievement in new {
        ctx.line("🏆 New achievement: \(ctx.achievementTitle(achievement)).")
      }
    }

    static func range(_ first: Day, _ last: Day) -> String { PauseCommand.range(first, last) }
  }
}
