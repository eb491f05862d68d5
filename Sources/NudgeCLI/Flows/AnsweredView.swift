import NudgeCore

/// How an entry of a defined flow reads on screen, from its definition: in full (`show`,
/// `history --full`), in one short part (`history`), and the today view's line. Every text is
/// escaped; a flow no plan defines now shows its stored ids and answers as they are.
struct AnsweredView {
  let plans: PlanSet

  /// The entries of a day, in the catalogue's order of flows (then any no plan has now).
  func ordered(_ entries: [String: AnsweredEntry]) -> [AnsweredEntry] {
    let order = plans.definedFlows.map(\.flow.word)
    return entries.values.sorted {
      (order.firstIndex(of: $0.flow) ?? order.count, $0.flow)
        < (order.firstIndex(of: $1.flow) ?? order.count, $1.flow)
    }
  }

  /// Each answered question as (the question's words, the answer's words), in the flow's order.
  func fields(_ entry: AnsweredEntry) -> [(label: String, answer: String)] {
    guard let flow = plans.flow(entry.flow)?.flow else {
      return entry.answers.values.sorted { $0.key < $1.key }.map {
        (VisibleText.escaped($0.key), VisibleText.escaped($0.value))
      }
    }
    return flow.questions.compactMap { question in
      entry.answers[question.id].map {
        (VisibleText.escaped(question.ask), VisibleText.escaped(question.kind.shown($0)))
      }
    }
  }

  /// One short part of a history line: "last night: bedtime 23:10 · wake 07:00".
  func part(_ entry: AnsweredEntry) -> String {
    let shown: [String]
    if let flow = plans.flow(entry.flow)?.flow {
      shown = flow.questions.prefix(3).compactMap { question in
        entry.answers[question.id].map {
          "\(question.id) \(VisibleText.escaped(question.kind.shown($0)))"
        }
      }
    } else {
      shown = []
    }
    return plans.title(of: entry.flow).lowercased()
      + (shown.isEmpty ? "" : ": " + shown.joined(separator: ", "))
  }
}

extension Question.Kind {
  /// A stored answer in words: an option's label, a number with its unit.
  func shown(_ answer: String) -> String {
    switch self {
    case .oneOf(let options): options.first { $0.id == answer }?.label ?? answer
    case .severalOf(let options):
      answer.split(separator: ",").map { id in
        options.first { $0.id == id }?.label ?? String(id)
      }.joined(separator: ", ")
    case .number(let unit?, _, _): "\(answer) \(unit)"
    default: answer
    }
  }
}
