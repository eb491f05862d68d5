import NudgeCore
import NudgeStore

/// The plans as this person has them: every plan Nudge knows, and which are on (a plan not
/// turned on or off follows its file's `on`). The coach's four flows run from their own
/// commands; every other plan's flows run from their definitions (`DefinedFlowCommand`).
struct PlanSet {
  /// The name of the plan whose flows are compiled in.
  static let coach = "coach"

  var catalogue: PlanCatalogue
  var choices: [String: Bool]

  func isOn(_ plan: Plan) -> Bool { choices[plan.name] ?? plan.onByDefault }

  /// The flows plan files define (the coach's aside), with their plan, on or off.
  var definedFlows: [(flow: FlowDefinition, plan: Plan)] {
    catalogue.entries.filter { $0.plan.name != Self.coach }
      .flatMap { entry in entry.plan.flows.map { ($0, entry.plan) } }
  }

  /// The defined flows of the plans that are on.
  var flowsOn: [FlowDefinition] { definedFlows.filter { isOn($0.plan) }.map(\.flow) }

  /// The defined flows of the plans that are on that `slot`'s reminder offers.
  func flowsOn(_ slot: Slot) -> [FlowDefinition] { flowsOn.filter { $0.slot == slot.rawValue } }

  /// The defined flow whose word is `word`, and its plan.
  func flow(_ word: String) -> (flow: FlowDefinition, plan: Plan)? {
    definedFlows.first { $0.flow.word == word }
  }

  /// The definition of a defined flow that is on; nil for the coach's and for one that is
  /// not (a plan turned off, or a file since removed).
  func definitionOn(_ flow: Flow) -> FlowDefinition? {
    guard case .defined(let word) = flow, let found = self.flow(word), isOn(found.plan) else {
      return nil
    }
    return found.flow
  }

  /// A defined flow's title as it is shown: its definition's, or its word when no plan has it
  /// now.
  func title(of word: String) -> String {
    flow(word).map { VisibleText.escaped($0.flow.title) } ?? VisibleText.escaped(word)
  }
}

extension Context {
  /// The plans as this person has them (the catalogue read now, the choices from `db`).
  func plans(_ db: AppDatabase) throws -> PlanSet {
    PlanSet(catalogue: planCatalogue(), choices: try db.planChoices())
  }
}
