import ArgumentParser

extension PlanCommand {
  /// `nudge plan on NAME`: follow a plan: its flows run, count for the streak and show in
  /// the views.
  struct On: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "on", abstract: "Turn a plan on: its flows run and count for your streak.")

    @Argument(help: "The plan's name (see 'nudge plan list').")
    var name: String

    func run(_ ctx: Context) throws { try PlanCommand.choose(name, on: true, ctx) }
  }
}
