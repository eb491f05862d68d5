import ArgumentParser
import NudgeCore

extension PlanCommand {
  /// `nudge plan words`: the words of the flows plans add to nudge's commands, one
  /// `WORD<TAB>TITLE` a line, for the shell completions (which ask each time: a plan file can
  /// add a flow). Hidden: a script's, not a person's.
  struct Words: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "words", abstract: "The flow words plans add, for shell completion.",
      shouldDisplay: false)

    func run(_ ctx: Context) throws {
      for entry in ctx.planCatalogue().entries {
        for flow in entry.plan.flows where !Nudge.commandWords.contains(flow.word) {
          // a title is one line of plain text (plan files hold no control character)
          ctx.line("\(flow.word)\t\(VisibleText.escaped(flow.title))")
        }
      }
    }
  }
}
