import ArgumentParser
import NudgeCore

extension PlanCommand {
  /// `nudge plan check FILE`: reads a plan file as Nudge would, and says every problem as
  /// FILE:LINE: what is wrong and what is allowed.
  struct Check: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "check", abstract: "Check a plan file (FILE:LINE for what is wrong).")

    @Argument(help: "The plan file.")
    var file: String

    func run(_ ctx: Context) throws {
      let text: String
      switch Context.planFileText(file, files: ctx.platform.files) {
      case .success(let read): text = read
      case .failure(let why):
        throw CLIError(
          "cannot read \(VisibleText.escaped(file)): \(why.message).",
          code: .noInput)
      }
      let others = ctx.planCatalogue(excluding: file)
      let words = Set(others.entries.flatMap { $0.plan.flows.map(\.word) })
        .union(Nudge.commandWords)
      do throws(PlanFileError) {
        let plan = try PlanFile.read(
          text, reservedWords: words, timeProblem: ctx.planTimeProblem)
        if plan.name == "habit" {
          throw PlanFileError(
            line: PlanFile.nameLine(in: text),
            "the plan name 'habit' is Nudge's own (your habits' reminders); give this one another name"
          )
        }
        if let other = others.plan(named: plan.name) {
          throw PlanFileError(
            line: PlanFile.nameLine(in: text),
            "a plan named '\(plan.name)' is already there (\(other.file ?? "built in")); give this one another name"
          )
        }
        let questions = plan.flows.map(\.questions.count).reduce(0, +)
        ctx.line(
          "\(VisibleText.escaped(file)): plan '\(plan.name)', \(plan.flows.count) flow\(plan.flows.count == 1 ? "" : "s") (\(plan.flows.map(\.word).joined(separator: ", "))), \(questions) question\(questions == 1 ? "" : "s"): ok"
        )
      } catch {
        throw CLIError(error.described(file: file), code: .badData)
      }
    }
  }
}
