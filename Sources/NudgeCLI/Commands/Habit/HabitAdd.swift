import ArgumentParser
import NudgeCore
import NudgeUseCases

extension HabitCommand {
  /// `nudge habit add NAME`.
  struct Add: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "add", abstract: "Add a habit of your own.")

    @Argument(help: "Its name (one line, at most \(Habit.maxNameLength) characters).")
    var name: String

    @OptionGroup var fields: HabitFields

    @Flag(
      help:
        "A habit to quit: every day is clean unless you record a slip (nudge habit slip); the streak counts clean days."
    )
    var quit = false

    func run(_ ctx: Context) throws {
      if quit && (fields.target != nil || fields.atMost != nil || fields.unit != nil) {
        throw CLIError(
          "a habit to quit is yes or no: --quit takes no --target, --at-most or --unit",
          code: .usage)
      }
      if quit, let every = fields.every, (try? HabitFrequency.parse(every)) != .daily {
        throw CLIError(
          "a habit to quit counts every day: --quit takes no --every but daily", code: .usage)
      }
      let db = try ctx.openDatabase()
      let today = ctx.today(try db.settings())
      let (amount, atMost) = try fields.amount()
      var base = Habit(name: name, since: today.day)
      base.atMost = atMost ?? false
      base.quit = quit
      // a limit's reminder asks how many so far
      let question =
        fields.question
        ?? (base.atMost ? fields.unit.map { "How many \($0.trimmingSpaces) so far today?" } : nil)
        ?? (quit ? Habit.quitQuestion(name.trimmingSpaces) : nil)
      var habit = try HabitInput.checked(
        base, name: name, every: fields.every ?? "daily", at: fields.at, target: amount,
        unit: fields.unit, question: question, ctx)
      habit.tags = try HabitInput.tags(fields.tags)
      habit = try HabitChanges(db: db).add(habit, madeOn: today.day, at: today.savedAt)
      try HabitReminders.update(ctx, db)
      ctx.line(
        ctx.style.green("✓") + " Added \(HabitText.name(habit)): "
          + HabitText.describe(habit, style: ctx.style))
      ctx.line(
        ctx.style.dim(
          "Mark a day: nudge habit done \(HabitText.argument(habit))"
            + (habit.isMeasurable ? " --value N" : "")))
    }
  }
}
