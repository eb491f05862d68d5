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

    @Option(
      help: ArgumentHelp("Only the habits with this tag.", valueName: "tag"),
      completion: .shellCommand("nudge habit tags 2>/dev/null"))
    var tag: String?

    func run(_ ctx: Context) throws {
      let db = try ctx.openDatabase()
      let today = ctx.today(try db.settings()).day
      let habits = try db.habits(includingArchived: all).filter { tag == nil || $0.hasTag(tag!) }
      let reports = try HabitReport.all(
        habits, db, today: today, weekStart: ctx.weekStart(try db.settings()))
      try ctx.render(reports, json: json) {
        guard !habits.isEmpty else {
          if let tag {
            let tags = HabitCommand.tags(of: try db.habits(includingArchived: true))
            ctx.line(
              "No habit has the tag '\(VisibleText.escaped(tag))'"
                + (tags.isEmpty
                  ? "; add one with: nudge habit edit NAME --tag \(VisibleText.escaped(tag))"
                  : " (your tags: \(tags.map(VisibleText.escaped).joined(separator: ", "))).")
            )
            return
          }
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
                  + HabitText.reminders(habit)
                  + (habit.tags.isEmpty ? "" : "  " + HabitText.tagWords(habit))
                  + (habit.archived ? "  (archived)" : "")))
        }
      }
    }
  }
}
