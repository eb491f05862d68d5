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

  /// `nudge habit tags`: every tag in use, one a line, for the shell completions. Hidden.
  struct Tags: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "tags", abstract: "The habits' tags, for shell completion.",
      shouldDisplay: false)

    func run(_ ctx: Context) throws {
      for tag in HabitCommand.tags(of: try ctx.openDatabase().habits(includingArchived: true)) {
        ctx.line(VisibleText.escaped(tag))
      }
    }
  }

  /// The tags `habits` have, each once (in any case: as first met), sorted.
  static func tags(of habits: [Habit]) -> [String] {
    var seen: [String: String] = [:]
    for tag in habits.flatMap(\.tags) where seen[tag.lowercased()] == nil {
      seen[tag.lowercased()] = tag
    }
    return seen.sorted { $0.key < $1.key }.map(\.value)
  }
}
