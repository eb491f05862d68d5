import ArgumentParser
import NudgeCore

extension PauseCommand {
  /// `nudge pause list`: every pause, numbered for `pause remove`.
  struct List: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: "List your pauses, the latest first, numbered for 'remove'.")

    @Flag(help: "List every pause (without it: those ahead, now, and the last 10).")
    var all = false

    @Flag(help: "Print the pauses as JSON.")
    var json = false

    struct Row: Encodable {
      var number: Int
      var firstDay: Day
      var lastDay: Day
      var days: Int
      /// `ahead`, `now` or `past`.
      var when: String
    }

    func run(_ ctx: Context) throws {
      let db = try ctx.openDatabase()
      let today = ctx.today(try db.settings()).day
      let pauses = try PauseCommand.numbered(db)
      let rows = pauses.enumerated().map { index, pause in
        Row(
          number: index + 1, firstDay: pause.firstDay, lastDay: pause.lastDay,
          days: pause.lastDay.ordinal - pause.firstDay.ordinal + 1,
          when: PauseCommand.when(pause, today: today))
      }
      let shown =
        all
        ? rows
        : Array(
          rows.prefix(while: { $0.when != "past" }) + rows.filter { $0.when == "past" }.prefix(10))
      try ctx.render(shown, json: json) {
        guard !rows.isEmpty else {
          ctx.line("No pauses yet. Take days off with: nudge pause --for 5d (or --from DAY ahead).")
          return
        }
        for row in shown {
          let days = row.days == 1 ? "1 day" : "\(row.days) days"
          let label =
            switch row.when {
            case "ahead": ctx.style.cyan("ahead")
            case "now": ctx.style.green("now")
            default: ctx.style.dim("past")
            }
          ctx.line(
            "\(String(repeating: " ", count: max(0, 3 - String(row.number).count)) + String(row.number))  \(PauseCommand.range(row.firstDay, row.lastDay))\(row.lastDay.year == today.year ? "" : " \(row.lastDay.year)")  (\(days))  \(label)"
          )
        }
        if shown.count < rows.count {
          ctx.line(
            ctx.style.dim("\(rows.count - shown.count) older not shown: nudge pause list --all"))
        }
        ctx.line(ctx.style.dim("Take one back whole: nudge pause remove N"))
      }
    }
  }
}
