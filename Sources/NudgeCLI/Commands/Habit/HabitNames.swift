import ArgumentParser
import NudgeCore

extension HabitCommand {
  /// `nudge habit names`: one name a line, for the shell completions. Hidden.
  struct Names: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "names", abstract: "The habits' names, for shell completion.",
      shouldDisplay: false)

    func run(_ ctx: Context) throws {
      for habit in try ctx.openDatabase().habits(includingArchived: true) {
        ctx.line(VisibleText.escaped(habit.name))
      }
    }
  }
}
