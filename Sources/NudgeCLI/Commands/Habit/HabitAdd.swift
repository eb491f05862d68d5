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

    func run(_ ctx: Context) throws {
      let db = try ctx.openDatabase()
      let today = ctx.today(try db.settings())
      let (amount, atMost) = try fields.amount()
      var base = Habit(name: name, since: today.day)
      base.atMost = atMost ?? false
      // a limit's reminder asks how many so far
      let question =
        fields.question
        ?? (base.atMost ? fields.unit.map { "How many \($0.trimmingSpaces) so far today?" } : nil)
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
