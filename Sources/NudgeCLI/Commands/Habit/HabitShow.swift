import ArgumentParser
import NudgeCore

extension HabitCommand {
  /// `nudge habit show NAME`.
  struct Show: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "show",
      abstract: "One habit: its heatmap, streaks, strength, last weeks, its notes.")

    @Argument(
      help: "The habit: its name, any case, or a unique start of it.",
      completion: .shellCommand("nudge habit names 2>/dev/null"))
    var name: String

    @Flag(help: "Print the habit as JSON.")
    var json = false

    /// The most notes of the last 30 days shown, newest first.
    static let notesShown = 10

    func run(_ ctx: Context) throws {
      let db = try ctx.openDatabase()
      let today = ctx.today(try db.settings()).day
      let habit = try HabitInput.find(name, in: try db.habits(), ctx)
      let report = try HabitReport.of(
        habit, db, today: today, weekStart: ctx.weekStart(try db.settings()))
      try ctx.render(report, json: json) {
        let style = ctx.style
        ctx.line(
          style.bold(VisibleText.escaped(habit.name)) + (habit.archived ? " (archived)" : ""))
        ctx.line("  " + HabitText.describe(habit, style: style))
        ctx.line("  " + HabitText.streakLine(report) + ", best \(report.bestStreak)")
        ctx.line("  Strength: \(report.strength)%")
        let checks = try db.habitChecks(habit.id, from: today.adding(days: -29))
        ctx.line("  " + HabitText.tally(checks, habit, today: today))
        ctx.line()
        try HabitHeatmap.draw(ctx, habit, db, today: today, weeks: Heatmap.defaultWeeks)
        let notes = checks.filter { $0.note != nil }.suffix(Self.notesShown)
        if !notes.isEmpty {
          ctx.line()
          ctx.line("  Notes:")
          for check in notes.reversed() {
            let text = "\(check.day.short): \(VisibleText.escaped(check.note ?? ""))"
            for part in TerminalText.wrap(text, width: max(20, ctx.columns - 4), indent: 2) {
              ctx.line("    " + part)
            }
          }
        }
      }
    }
  }
}
