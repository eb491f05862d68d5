import ArgumentParser
import NudgeCore
import NudgeStore
import NudgeUseCases

/// `nudge plan`: the plans Nudge knows (built in, and the person's plan files), one plan in
/// full, and a check of a plan file.
struct PlanCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "plan", abstract: "List, show and check plans (sets of flows).",
    discussion: """
      Two plans are built in: coach (prep, review, check-in, need-help) and sleep. Plan files \
      of your own go in $XDG_CONFIG_HOME/nudge/plans/NAME.plan (~/.config/nudge/plans); \
      the format is in 'man nudge' (PLAN FILES).
      """,
    subcommands: [List.self, Show.self, On.self, Off.self, Check.self, Words.self],
    defaultSubcommand: List.self
  )

  static func choose(_ name: String, on: Bool, _ ctx: Context) throws {
    let db = try ctx.openDatabase()
    let plans = try ctx.plans(db)
    let entry = try plans.catalogue.named(name)
    let plan = entry.plan
    if plan.name == PlanSet.coach && !on {
      throw CLIError(
        "the coach plan cannot be turned off yet: its four flows are compiled in; turn its reminders off instead (nudge schedule off all).",
        code: .usage)
    }
    if plans.isOn(plan) == on {
      ctx.line("The \(plan.name) plan is \(on ? "on" : "off") already.")
    } else {
      let choices = try ChoosePlan(db: db)(
        plan.name, on: on, madeOn: ctx.today(try db.settings()).day,
        at: InstantFormat.format(ctx.clock.started, in: ctx.timeZone))
      // its own reminder times: timers enabled or disabled, when the reminders are installed
      try UserUnits(ctx: ctx, dryRun: false).update(
        try ctx.allSchedules(db, plans: PlanSet(catalogue: plans.catalogue, choices: choices)),
        db: db)
      ctx.line(ctx.style.green("✓") + " The \(plan.name) plan is \(on ? "on" : "off").")
    }
    if on {
      for flow in plan.flows {
        ctx.line(
          "  nudge \(flow.word)  \(VisibleText.escaped(flow.title))"
            + ctx.style.dim(try PlanCommand.reminderWords(flow, plan, ctx, db)))
      }
    } else {
      ctx.line("What its flows saved is kept, and still counts for the days it was done.")
    }
  }

  /// "  — evening reminder", "  — midday reminder (off: nudge schedule on midday)": the slot
  /// that offers `flow`, and whether its reminder is on (a plan's own slot is on with its
  /// plan); "" for a flow no reminder offers.
  static func reminderWords(_ flow: FlowDefinition, _ plan: Plan, _ ctx: Context, _ db: AppDatabase)
    throws -> String
  {
    guard let id = flow.slot else { return "" }
    let slot = ReminderSource.of(plan: plan.name, id: id)
    guard !slot.hasOwnTimer else { return "  — \(id) reminder" }
    let on = try db.schedules().first { $0.slot == slot }?.enabled ?? slot.enabledByDefault
    return "  — \(id) reminder" + (on ? "" : " (off: nudge schedule on \(id))")
  }

}

extension PlanCatalogue {
  /// The plan named `name`, else a usage error that lists the plans.
  func named(_ name: String) throws -> Entry {
    guard let entry = plan(named: name) else {
      let names = entries.map(\.plan.name)
      throw CLIError(
        "there is no plan named '\(name)' (\(names.joined(separator: ", "))).\(Suggestion.hint(for: name, among: names)) See 'nudge plan list'.",
        code: .usage)
    }
    return entry
  }
}
