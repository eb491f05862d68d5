import ArgumentParser
import NudgeCore
import NudgeUseCases

extension HabitCommand {
  /// `nudge habit skip NAME [--day DAY]`.
  struct Skip: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "skip",
      abstract: "Skip a habit today (or on --day): a skipped day never breaks its streak.")

    @Argument(
      help: "The habit: its name, any case, or a unique start of it.",
      completion: .shellCommand("nudge habit names 2>/dev/null"))
    var name: String

    @Option(
      help: ArgumentHelp(
        "The day: yesterday, a weekday (the latest one) or YYYY-MM-DD.", valueName: "day"))
    var day: String?

    func run(_ ctx: Context) throws {
      let db = try ctx.openDatabase()
      let today = ctx.today(try db.settings())
      let habit = try HabitInput.find(name, in: try db.habits(), ctx)
      let day = try HabitInput.day(self.day, for: habit, today: today.day)
      let skip = HabitCheck(day: day, done: false, savedAt: today.savedAt)
      let (before, settled) = try HabitChanges(db: db).record(
        skip, habit: habit.id, madeOn: today.day, at: today.savedAt)
      ctx.line(
        "Skipped \(HabitText.name(habit)) \(FlowDay.describe(day, today: today.day)); its streak waits. "
          + ctx.style.dim("(nudge undo takes it back)"))
      if let replaced = HabitText.replaced(before, by: skip, habit) {
        ctx.line(ctx.style.dim(replaced))
      }
      HabitText.sayLost(settled, ctx)
    }
  }
}
