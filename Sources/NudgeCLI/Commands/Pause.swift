import ArgumentParser
import NudgeCore
import NudgeStore
import NudgeUseCases

/// `nudge pause`: days off for a holiday or sick days, planned ahead, from today or past;
/// listed and taken back.
struct PauseCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "pause",
    abstract: "Take days off: no reminders, and your streak waits (it neither grows nor breaks).",
    discussion: """
      'nudge pause --for 5d' starts today; --from plans one ahead (a holiday: --from friday is \
      the next Friday) or marks days already past (ill for three days? --from 'last monday', \
      up to 7 days back). A pause ends by itself after its last day; 'nudge resume' ends \
      today's early. 'nudge pause list' shows them all, 'nudge pause remove N' takes one back \
      whole (the streak and achievements follow), and so does 'nudge undo' right after.
      """,
    subcommands: [Add.self, List.self, Remove.self],
    defaultSubcommand: Add.self)
}

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

extension PauseCommand {
  /// "Mon 7 Dec", "Mon 7 – Wed 9 Dec", "Mon 30 Nov – Wed 2 Dec".
  static func range(_ first: Day, _ last: Day) -> String {
    if first == last { return first.short }
    let start = first.month == last.month ? "\(first.weekdayName) \(first.day)" : first.short
    return "\(start) – \(last.short)"
  }

  /// The pauses as `pause list` numbers them: the latest first (one planned ahead before the
  /// one of today, before those past), from 1.
  static func numbered(_ db: AppDatabase) throws -> [Pause] {
    try db.pauses().sorted { $0.firstDay > $1.firstDay }
  }

  /// Where `pause` stands as of `today`: ahead, now, or past.
  static func when(_ pause: Pause, today: Day) -> String {
    if pause.isAhead(of: today) { return "ahead" }
    return pause.contains(today) ? "now" : "past"
  }

  /// `nudge pause list`: every pause, numbered for `pause remove`.
  struct List: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: "List your pauses, the latest first, numbered for 'remove'.")

    @Flag(help: "List every pause (without it: those ahead, now, and the last 10).")
    var all = false

    @Flag(help: "Print the pauses as JSON.")
    var json = false

    struct Row: Encodable {
      var number: Int
      var firstDay: Day
      var lastDay: Day
      var days: Int
      /// `ahead`, `now` or `past`.
      var when: String
    }

    func run(_ ctx: Context) throws {
      let db = try ctx.openDatabase()
      let today = ctx.today(try db.settings()).day
      let pauses = try PauseCommand.numbered(db)
      let rows = pauses.enumerated().map { index, pause in
        Row(
          number: index + 1, firstDay: pause.firstDay, lastDay: pause.lastDay,
          days: pause.lastDay.ordinal - pause.firstDay.ordinal + 1,
          when: PauseCommand.when(pause, today: today))
      }
      let shown =
        all
        ? rows
        : Array(
          rows.prefix(while: { $0.when != "past" }) + rows.filter { $0.when == "past" }.prefix(10))
      if json {
        ctx.line(try jsonText(shown))
        return
      }
      guard !rows.isEmpty else {
        ctx.line("No pauses yet. Take days off with: nudge pause --for 5d (or --from DAY ahead).")
        return
      }
      for row in shown {
        let days = row.days == 1 ? "1 day" : "\(row.days) days"
        let label =
          switch row.when {
          case "ahead": ctx.style.cyan("ahead")
          case "now": ctx.style.green("now")
          default: ctx.style.dim("past")
          }
        ctx.line(
          "\(String(repeating: " ", count: max(0, 3 - String(row.number).count)) + String(row.number))  \(PauseCommand.range(row.firstDay, row.lastDay))\(row.lastDay.year == today.year ? "" : " \(row.lastDay.year)")  (\(days))  \(label)"
        )
      }
      if shown.count < rows.count {
        ctx.line(
          ctx.style.dim("\(rows.count - shown.count) older not shown: nudge pause list --all"))
      }
      ctx.line(ctx.style.dim("Take one back whole: nudge pause remove N"))
    }
  }

  /// `nudge pause remove N`: takes a pause back whole.
  struct Remove: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "remove",
      abstract: "Take a pause back whole: its days count as any others again.",
      discussion:
        "N is the number 'nudge pause list' shows (1: the latest), or a day the pause covers (YYYY-MM-DD). The streak and achievements are worked out again without it; 'nudge undo' puts it back."
    )

    @Argument(help: ArgumentHelp("The pause's number in 'nudge pause list', or a day it covers."))
    var pause: String

    @Flag(help: "Print what was removed as JSON.")
    var json = false

    struct Report: Encodable {
      var removed: Pause
      var newAchievements: [Achievement]
      var lostAchievements: [Achievement]
    }

    func run(_ ctx: Context) throws {
      let db = try ctx.openDatabase()
      let today = ctx.today(try db.settings()).day
      let pauses = try PauseCommand.numbered(db)
      let word = pause.trimmingSpaces
      let chosen: Pause
      if word.count <= 6, word.allSatisfy({ ("0"..."9").contains($0) }), let n = Int(word) {
        guard (1...max(pauses.count, 1)).contains(n), !pauses.isEmpty else {
          throw CLIError(
            pauses.isEmpty
              ? "there is no pause to remove."
              : "there is no pause \(n): 'nudge pause list' numbers them 1 to \(pauses.count).",
            code: .failure)
        }
        chosen = pauses[n - 1]
      } else if let day = Day.named(word, today: today, toward: .past),
        word.contains("-") || ["today", "yesterday", "tomorrow"].contains(word.lowercased())
      {
        guard let covering = pauses.first(where: { $0.contains(day) }) else {
          throw CLIError("no pause covers \(day): see them with nudge pause list.", code: .failure)
        }
        chosen = covering
      } else {
        throw CLIError(
          "'\(VisibleText.escaped(pause))' is not a pause: give its number in 'nudge pause list' or a day it covers (YYYY-MM-DD).",
          code: .usage)
      }
      let at = InstantFormat.format(ctx.clock.started, in: ctx.timeZone)
      guard let settled = try PauseDays(db: db).remove(chosen, today: today, at: at) else {
        throw CLIError("that pause changed meanwhile: see nudge pause list.", code: .failure)
      }
      if json {
        ctx.line(
          try jsonText(
            Report(
              removed: chosen, newAchievements: settled.new, lostAchievements: settled.lost)))
        return
      }
      ctx.line(
        ctx.style.green("✓")
          + " Removed the pause \(PauseCommand.range(chosen.firstDay, chosen.lastDay)): those days count as any others again."
      )
      PauseCommand.sayAchievements(ctx, settled, streak: try ctx.streak(db, today: today))
      ctx.line(ctx.style.dim("A mistake? 'nudge undo' puts it back."))
    }
  }

  /// The streak after a change of the days off, and what it gave or took back, said plainly.
  static func sayAchievements(_ ctx: Context, _ settled: PauseDays.Settled, streak: StreakSummary) {
    let days = streak.current == 1 ? "1 day" : "\(streak.current) days"
    ctx.line("Streak: \(days) (longest \(streak.longest)).")
    ctx.sayAchievements(
      lost: settled.lost, new: settled.new, lostBecause: "without those days off it was not reached"
    )
  }
}

/// `nudge resume`: ends today's pause.
struct ResumeCommand: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "resume", abstract: "End a pause early: reminders are back from today.")

  func run(_ ctx: Context) throws {
    let db = try ctx.openDatabase()
    let today = ctx.today(try db.settings()).day
    let at = InstantFormat.format(ctx.clock.started, in: ctx.timeZone)
    guard let (ended, _) = try PauseDays(db: db).resume(today: today, at: at) else {
      let next = try db.pauses().filter { $0.isAhead(of: today) }.min { $0.firstDay < $1.firstDay }
      throw CLIError(
        "nothing to resume: no pause covers today"
          + (next.map {
            "; the next starts \($0.firstDay.short) (to cancel it: nudge pause list, then nudge pause remove N)."
          } ?? "."), code: .failure)
    }
    ctx.line(
      ctx.style.green("✓") + " Resumed: reminders are back from today"
        + (ended.firstDay < today
          ? " (the pause covered \(ended.firstDay.long) to yesterday)." : "."))
  }
}

/// What `undo` and `redo` say of a change to the days off.
enum PauseUndo {
  struct Report: Encodable {
    var undone: String?
    var redone: String?
    var pause: Pause
    var pauses: [Pause]
    var newAchievements: [Achievement]
    var lostAchievements: [Achievement]
  }

  static func say(
    _ ctx: Context, _ db: AppDatabase, _ change: PauseChange, redo: Bool, today: Day, json: Bool
  ) throws {
    let outcome = try PauseDays(db: db).move(change, undo: !redo)
    guard case .moved(_, let settled) = outcome else {
      throw CLIError(
        "nothing \(redo ? "redone" : "undone"): your days off changed since (a sync or an import); see nudge pause list.",
        code: .failure)
    }
    let kind = "pause-" + change.kind.rawValue
    if json {
      ctx.line(
        try jsonText(
          Report(
            undone: redo ? nil : kind, redone: redo ? kind : nil, pause: change.pause,
            pauses: try db.pauses(), newAchievements: settled.new,
            lostAchievements: settled.lost)))
      return
    }
    let range = PauseCommand.range(change.pause.firstDay, change.pause.lastDay)
    let what =
      switch (change.kind, redo) {
      case (.paused, false): "Undone: the pause \(range) (those days count as any others again)."
      case (.paused, true): "Redone: the pause \(range) (days off again)."
      case (.resumed, false):
        "Undone: the resume (paused until \(change.pause.lastDay.short) again)."
      case (.resumed, true): "Redone: the resume (reminders are back from today)."
      case (.removed, false): "Undone: removing the pause \(range) (it is back)."
      case (.removed, true): "Redone: removing the pause \(range) (it is gone again)."
      }
    ctx.line(ctx.style.green("✓") + " " + what)
    PauseCommand.sayAchievements(ctx, settled, streak: try ctx.streak(db, today: today))
    if !redo { ctx.line(ctx.style.dim("Undid one too many? 'nudge redo' re-applies it.")) }
  }
}

extension Context {
  /// What a change that can take history away did to the achievements, said plainly: each one
  /// taken back (and why), each one earned.
  func sayAchievements(lost: [Achievement], new: [Achievement], lostBecause: String) {
    for achievement in lost {
      line(
        style.yellow("Achievement taken back: \(achievementTitle(achievement)) (\(lostBecause))."))
    }
    for achievement in new {
      line("🏆 Achievement: \(achievementTitle(achievement)).")
    }
  }
}
