import ArgumentParser
import NudgeCore

extension HabitCommand {
  /// `nudge habit list [--json] [--all]`.
  struct List: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: "List your habits: today, streak, strength.")

    @Flag(help: "Print the habits as JSON.")
    var json = false

    @Flag(help: "Archived habits too.")
    var all = false

    func run(_ ctx: Context) throws {
      let db = try ctx.openDatabase()
      let today = ctx.today(try db.settings()).day
      let habits = try db.habits(includingArchived: all)
      let reports = try HabitReport.all(habits, db, today: today)
      try ctx.render(reports, json: json) {
        guard !habits.isEmpty else {
          ctx.line("No habits yet. Add one: nudge habit add \"Stretch\" --at 9pm")
          return
        }
        let style = ctx.style
        let width = min(24, habits.map { VisibleText.escaped($0.name).count }.max() ?? 0)
        for (habit, report) in zip(habits, reports) {
          // ✓ done, - skipped, ✗ no, ○ to do today, · nothing wanted today
          let state =
            switch report.today {
            case .done: style.green("✓")
            case .skipped: style.blue("-")
            case .failed: style.red("✗")
            case .due: style.yellow("○")
            case .notDue: style.dim("·")
            }
          ctx.line(
            "\(state) \(style.bold(VisibleText.escaped(habit.name).fitted(to: width)))  "
              + "\(HabitText.streakLine(report))  "
              + style.dim(
                "strength \(report.strength)%  \(habit.every.description)"
                  + (habit.at.map { ", reminder \(VisibleText.escaped(HabitText.time($0)))" } ?? "")
                  + (habit.archived ? "  (archived)" : "")))
        }
      }
    }
  }
}
