import ArgumentParser

extension PlanCommand {
  /// `nudge plan off NAME`: stop following a plan; what it saved stays, and still counts for
  /// the days it was done.
  struct Off: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "off",
      abstract: "Turn a plan off: its flows stop running; what they saved is kept.")

    @Argument(help: "The plan's name (see 'nudge plan list').")
    var name: String

    func run(_ ctx: Context) throws { try PlanCommand.choose(name, on: false, ctx) }
  }
}
