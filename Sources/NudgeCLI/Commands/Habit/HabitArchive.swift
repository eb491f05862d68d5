import ArgumentParser

extension HabitCommand {
  /// `nudge habit archive NAME`.
  struct Archive: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "archive",
      abstract: "Set a habit aside: no reminder, not listed; its days are kept.")

    @Argument(
      help: "The habit: its name, any case, or a unique start of it.",
      completion: .shellCommand("nudge habit names 2>/dev/null"))
    var name: String

    func run(_ ctx: Context) throws { try HabitInput.archive(name, true, ctx) }
  }
}
