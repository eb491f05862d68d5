import ArgumentParser

extension HabitCommand {
  /// `nudge habit unarchive NAME`.
  struct Unarchive: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "unarchive", abstract: "Bring an archived habit back.")

    @Argument(
      help: "The habit: its name, any case, or a unique start of it.",
      completion: .shellCommand("nudge habit names 2>/dev/null"))
    var name: String

    func run(_ ctx: Context) throws { try HabitInput.archive(name, false, ctx) }
  }
}
