import ArgumentParser
import NudgeCore
import NudgeUseCases

extension HabitCommand {
  /// `nudge habit skip NAME [--day DAY] [--note TEXT]`.
  struct Skip: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "skip",
      abstract: "Skip a habit today (or on --day): a skipped day never breaks its streak.")

    @OptionGroup var day: HabitDayOptions

    func run(_ ctx: Context) throws { try day.mark(.skipped, ctx) }
  }

  /// `nudge habit slip NAME [--day DAY] [--note TEXT]`: a slip of a habit to quit.
  struct Slip: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "slip",
      abstract:
        "Record a slip of a habit you quit (--quit): today's run ends, tomorrow starts anew.")

    @OptionGroup var day: HabitDayOptions

    func run(_ ctx: Context) throws { try day.mark(.failed, ctx, slip: true) }
  }

  /// `nudge habit fail NAME [--day DAY] [--note TEXT]`.
  struct Fail: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "fail",
      abstract:
        "Say a habit was not done today (or on --day): a no, apart from a day not entered.",
      discussion: """
        A no is the miss it is: it ends the streak and lowers the strength, as a day with \
        nothing recorded would, and no reminder comes for the habit again that day. A skip \
        (nudge habit skip) excuses a day instead. 'nudge undo' takes it back.
        """)

    @OptionGroup var day: HabitDayOptions

    func run(_ ctx: Context) throws { try day.mark(.failed, ctx) }
  }
}

/// What `habit skip` and `habit fail` take: the habit, the day and a note.
struct HabitDayOptions: ParsableArguments {
  @Argument(
    help: "The habit: its name, any case, or a unique start of it.",
    completion: .shellCommand("nudge habit names 2>/dev/null"))
  var name: String

  @Option(
    help: ArgumentHelp(
      "The day: yesterday, a weekday (the latest one) or YYYY-MM-DD.", valueName: "day"))
  var day: String?

  @Option(
    help: ArgumentHelp(
      "A note on the day (one line; 'nudge habit note' changes it).", valueName: "text"))
  var note: String?

  /// Records the day skipped or failed (its note kept unless a new one is given) and says so.
  func mark(_ mark: HabitCheck.Mark, _ ctx: Context, slip: Bool = false) throws {
    let db = try ctx.openDatabase()
    let today = ctx.today(try db.settings())
    let habit = try HabitInput.find(name, in: try db.habits(), ctx)
    if slip && !habit.quit {
      throw CLIError(
        "\(HabitText.name(habit)) is not a habit to quit; a day it was not done: nudge habit fail \(HabitText.argument(habit))",
        code: .usage)
    }
    let day = try HabitInput.day(self.day, for: habit, today: today.day)
    let note = try HabitInput.note(self.note)
    let before = try db.habitChecks(habit.id, from: day).first { $0.day == day }
    let check = HabitCheck(day: day, mark, note: note ?? before?.note, savedAt: today.savedAt)
    let (replaced, settled) = try HabitChanges(db: db).record(
      check, habit: habit.id, madeOn: today.day, at: today.savedAt)
    let when = FlowDay.describe(day, today: today.day)
    let undo = ctx.style.dim("(nudge undo takes it back)")
    if mark == .failed && habit.quit {
      let report = try HabitReport.of(
        habit, db, today: today.day, weekStart: ctx.weekStart(try db.settings()))
      ctx.line(
        "Recorded a slip of \(HabitText.name(habit)) \(when). It happens: the next day starts a new run. Best so far: \(report.bestStreak) clean day\(report.bestStreak == 1 ? "" : "s"). "
          + undo)
    } else if mark == .failed {
      let report = try HabitReport.of(
        habit, db, today: today.day, weekStart: ctx.weekStart(try db.settings()))
      ctx.line(
        "Marked \(HabitText.name(habit)) no \(when): a miss, which the streak and strength count. "
          + HabitText.streakLine(report) + ". " + undo)
    } else {
      ctx.line("Skipped \(HabitText.name(habit)) \(when); its streak waits. " + undo)
    }
    if let replaced = HabitText.replaced(replaced, by: check, habit) {
      ctx.line(ctx.style.dim(replaced))
    }
    HabitText.sayLost(settled, ctx)
  }
}
