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
      var habit = try HabitInput.checked(
        Habit(name: name, since: today.day), name: name, every: fields.every ?? "daily",
        at: fields.at,
        target: try fields.target.map {
          try HabitInput.wholeNumber($0, option: "--target", from: 1)
        },
        unit: fields.unit, question: fields.question, ctx)
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
