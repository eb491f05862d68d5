import ArgumentParser
import NudgeCore

extension PlanCommand {
  /// `nudge plan list`: every plan, its flows and their slots; broken files named.
  struct List: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: "List the plans, their flows and their slots.")

    @Flag(help: "Print the plans as JSON.")
    var json = false

    func run(_ ctx: Context) throws {
      let db = try ctx.openDatabase()
      let plans = try ctx.plans(db)
      let catalogue = plans.catalogue
      for problem in catalogue.problems {
        ctx.output.writeError("nudge: \(VisibleText.escaped(problem.described)) (set aside)\n")
      }
      try ctx.render(catalogue.entries.map { PlanSummary($0, on: plans.isOn($0.plan)) }, json: json)
      {
        for entry in catalogue.entries {
          let plan = entry.plan
          let state = plans.isOn(plan) ? ctx.style.green("on ") : ctx.style.dim("off")
          ctx.line(
            "\(state) \(ctx.style.bold(plan.name))  \(VisibleText.escaped(plan.title))"
              + ctx.style.dim(entry.file.map { "  (\(VisibleText.escaped($0)))" } ?? "  (built in)")
          )
          for flow in plan.flows {
            ctx.line(
              "      nudge \(flow.word)  \(VisibleText.escaped(flow.title))"
                + ctx.style.dim(try PlanCommand.reminderWords(flow, plan, ctx, db)))
          }
        }
      }
    }
  }
}
