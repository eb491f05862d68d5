import ArgumentParser
import NudgeCore
import NudgeUseCases

extension HabitCommand {
  /// `nudge habit note NAME [TEXT] [--day DAY] [--remove]`: a day's note, written, changed,
  /// removed or shown.
  struct Note: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "note",
      abstract: "Write, change or remove the note on a habit's day (today, or --day).",
      discussion: """
        The day must be marked first (done, skip or fail, each of which takes --note too). \
        Without TEXT it prints the day's note. 'nudge undo' takes a change back.
        """)

    @Argument(
      help: "The habit: its name, any case, or a unique start of it.",
      completion: .shellCommand("nudge habit names 2>/dev/null"))
    var name: String

    @Argument(help: "The note: one line of at most 500 characters.")
    var text: String?

    @Option(
      help: ArgumentHelp(
        "The day: yesterday, a weekday (the latest one) or YYYY-MM-DD.", valueName: "day"))
    var day: String?

    @Flag(help: "Remove the day's note.")
    var remove = false

    func run(_ ctx: Context) throws {
      if remove && text != nil {
        throw CLIError("give a note or --remove, not both", code: .usage)
      }
      let note = try HabitInput.note(text)
      let db = try ctx.openDatabase()
      let today = ctx.today(try db.settings())
      let habit = try HabitInput.find(name, in: try db.habits(), ctx)
      let day = try HabitInput.day(self.day, for: habit, today: today.day)
      let when = FlowDay.describe(day, today: today.day)
      guard var check = try db.habitChecks(habit.id, from: day).first(where: { $0.day == day })
      else {
        throw CLIError(
          "\(HabitText.name(habit)) has no mark \(when) to note; mark it with its note: nudge habit done \(HabitText.argument(habit))\(self.day.map { " --day \($0)" } ?? "") --note TEXT",
          code: .usage)
      }
      guard remove || note != nil else {
        ctx.line(check.note.map(VisibleText.escaped) ?? ctx.style.dim("(no note \(when))"))
        return
      }
      guard check.note != note else {
        ctx.line("\(HabitText.name(habit)) \(when) has that note already; nothing changed.")
        return
      }
      check.note = note
      _ = try HabitChanges(db: db).record(
        check, habit: habit.id, madeOn: today.day, at: today.savedAt, kind: .noted)
      ctx.line(
        ctx.style.green("✓") + " "
          + (note == nil
            ? "Removed the note on \(HabitText.name(habit)) \(when). "
            : "Noted on \(HabitText.name(habit)) \(when). ")
          + ctx.style.dim("(nudge undo takes it back)"))
    }
  }
}
