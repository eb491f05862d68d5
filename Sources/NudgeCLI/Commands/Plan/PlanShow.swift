import ArgumentParser
import NudgeCore

extension PlanCommand {
  /// `nudge plan show NAME`: a plan in full — its flows, their questions and slots.
  struct Show: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "show", abstract: "Show one plan: its flows, questions and slots.")

    @Argument(help: "The plan's name (see 'nudge plan list').")
    var name: String

    @Flag(help: "Print the plan as JSON.")
    var json = false

    func run(_ ctx: Context) throws {
      let plans = try ctx.plans(try ctx.openDatabase())
      let entry = try plans.catalogue.named(name)
      let isOn = plans.isOn(entry.plan)
      try ctx.render(PlanSummary(entry, on: isOn), json: json) {
        let plan = entry.plan
        ctx.line(
          ctx.style.bold(VisibleText.escaped(plan.title)) + " (\(plan.name), "
            + (isOn ? "on" : "off: nudge plan on \(plan.name)") + ")")
        if !plan.about.isEmpty { ctx.wrappedLine(VisibleText.escaped(plan.about)) }
        for slot in plan.slots {
          ctx.line(
            ctx.style.dim("slot \(slot.id) at \(VisibleText.escaped(slot.at)): ")
              + VisibleText.escaped(slot.title))
        }
        for flow in plan.flows {
          ctx.line()
          ctx.line(
            ctx.style.bold("nudge \(flow.word)") + "  \(VisibleText.escaped(flow.title))"
              + (flow.slot.map { ctx.style.dim("  (\($0) reminder)") } ?? ""))
          for question in flow.questions {
            let mark = question.required ? "*" : " "
            ctx.line(
              "  \(mark) \(question.id.padded(to: 16)) \(VisibleText.escaped(question.ask))"
                + ctx.style.dim(" [\(VisibleText.escaped(question.kind.described))]"))
          }
        }
        if !plan.challenges.isEmpty {
          let categories = Set(plan.challenges.map(\.category)).sorted()
          ctx.line()
          ctx.line(
            "\(plan.challenges.count) challenges in \(categories.count) categories: "
              + categories.joined(separator: ", "))
        }
        ctx.line()
        ctx.line(ctx.style.dim("* answered for the entry to count"))
      }
    }
  }
}

extension Question.Kind {
  /// How `plan show` names it.
  var described: String {
    switch self {
    case .yesNo: "yes/no"
    case .oneOf(let options): "one of " + options.map(\.id).joined(separator: ", ")
    case .severalOf(let options): "any of " + options.map(\.id).joined(separator: ", ")
    case .text(let max): "text, \(max) characters at most"
    case .number(let unit, let low, let high):
      "a number \(low)-\(high)" + (unit.map { " (\($0))" } ?? "")
    case .timeOfDay: "a time, HH:MM"
    case .challenge: "tonight's challenge, chosen by the plan's rules"
    }
  }
}
