import ArgumentParser
import NudgeUseCases

extension HabitCommand {
  /// `nudge habit remove NAME [--yes]`.
  struct Remove: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "remove",
      abstract: "Remove a habit and its days ('nudge undo' today brings it back).")

    @Argument(
      help: "The habit: its name, any case, or a unique start of it.",
      completion: .shellCommand("nudge habit names 2>/dev/null"))
    var name: String

    @Flag(help: "Remove without asking (off a terminal, it is needed).")
    var yes = false

    func run(_ ctx: Context) throws {
      let db = try ctx.openDatabase()
      let today = ctx.today(try db.settings())
      let habit = try HabitInput.find(name, in: try db.habits(), ctx)
      let days = try db.habitChecks(habit.id).count
      if !yes {
        guard ctx.input.isTerminal else {
          throw CLIError(
            "stdin is not a terminal, so Nudge will not ask whether to remove \(HabitText.name(habit)) and its \(days) recorded day\(days == 1 ? "" : "s"); to remove it: nudge habit remove \(HabitText.argument(habit)) --yes",
            code: .usage)
        }
        ctx.output.write(
          "Remove \(HabitText.name(habit)) and its \(days) recorded day\(days == 1 ? "" : "s")? [y/N] "
        )
        guard let answer = ctx.input.readLine(), yesNoValue(answer.trimmingSpaces) == true else {
          ctx.line("Kept.")
          return
        }
      }
      let settled = try HabitChanges(db: db).remove(habit, madeOn: today.day, at: today.savedAt)
      try HabitReminders.update(ctx, db)
      ctx.line(
        "Removed \(HabitText.name(habit)) and its \(days) recorded day\(days == 1 ? "" : "s"). "
          + ctx.style.dim("(nudge undo brings it back, today)"))
      HabitText.sayLost(settled, ctx)
    }
  }
}
