/// The coach's plan as `plans/coach.plan` writes it (compiled in as `BuiltInPlans`), read once
/// on first use: the one place its flows' titles, questions, option labels, slots and
/// first-achievement words live. `Flow.title`, `ReminderSource.flow`, the coach's
/// `Achievement.title`s and the coach's commands (`ask`, `label`) ask it.
public enum CoachPlan {
  /// The plan, as plans/coach.plan writes it: compiled in as a value by
  /// scripts/builtin-plans (`compiled`), so a start does not parse it (the today view reads
  /// its titles); CoachPlanTests holds the value to what the plan file reader makes of the text.
  public static var plan: Plan { compiled }

  /// The coach's flows whose commands are compiled in (their named flags, prep's "all
  /// prepped", the need-help mini-coach); any other flow of coach.plan runs from its
  /// definition, as every plan's flows do.
  public static let compiledFlowIDs: Set<String> = ["prep", "review", "checkin", "need-help"]

  /// The coach's text as it ships.
  public static let text = BuiltInPlans.texts.first { $0.name == "coach" }?.text ?? ""

  /// The definition of the coach's flow with this id (`prep`, `review`, `checkin`,
  /// `need-help`).
  public static func flow(_ id: String) -> FlowDefinition {
    guard let flow = plan.flows.first(where: { $0.id == id }) else {
      fatalError("plans/coach.plan has no flow '\(id)'")
    }
    return flow
  }

  /// The coach's compiled flow a built-in slot's reminder offers first (`slot = ...` in the
  /// plan), nil for a slot none of them names. Another flow of coach.plan with that slot is
  /// offered after them, as any plan's flow of a built-in slot is (`ReminderSource.offer`).
  public static func flow(offeredBy slot: String) -> FlowDefinition? {
    plan.flows.first { $0.slot == slot && compiledFlowIDs.contains($0.id) }
  }

  /// The words coach.plan asks question `question` of `flow` in, given the answers so far
  /// (question id → answer) and whether a past day is filled in: its `ask`, `past` or
  /// `then_ask` (plans/FORMAT.md). The coach's commands ask in these words.
  public static func ask(
    _ flow: Flow, _ question: String, after answers: [String: String] = [:],
    pastDay: Bool = false
  ) -> String {
    guard let asked = self.flow(flow.rawValue).questions.first(where: { $0.id == question })
    else { fatalError("plans/coach.plan has no question \(flow).\(question)") }
    return asked.words(after: answers, pastDay: pastDay)
  }

  /// The words coach.plan gives option `option` of question `question` of flow `flow` (a
  /// challenge's "Sugary drinks", a craving's "Stress / emotional"): the one place they live.
  public static func label(_ flow: String, _ question: String, option: String) -> String {
    guard let asked = self.flow(flow).questions.first(where: { $0.id == question }),
      case .oneOf(let options) = asked.kind,
      let found = options.first(where: { $0.id == option })
    else { fatalError("plans/coach.plan has no option '\(option)' of \(flow).\(question)") }
    return found.label
  }
}
