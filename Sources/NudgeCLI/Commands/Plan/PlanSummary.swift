import NudgeCore

/// A plan as `plan list --json` and `plan show --json` print it.
struct PlanSummary: Encodable {
  struct FlowSummary: Encodable {
    var id: String
    var word: String
    var title: String
    @NullWhenAbsent var slot: String?
    var questions: [String]
  }
  var name: String
  var title: String
  var on: Bool
  @NullWhenAbsent var file: String?
  var flows: [FlowSummary]
  var slots: [String: String]

  init(_ entry: PlanCatalogue.Entry, on: Bool) {
    name = entry.plan.name
    title = entry.plan.title
    self.on = on
    file = entry.file
    flows = entry.plan.flows.map {
      FlowSummary(
        id: $0.id, word: $0.word, title: $0.title, slot: $0.slot, questions: $0.questions.map(\.id))
    }
    slots = Dictionary(uniqueKeysWithValues: entry.plan.slots.map { ($0.id, $0.at) })
  }
}
