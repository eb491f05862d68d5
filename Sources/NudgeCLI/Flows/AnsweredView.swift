import NudgeCore

/// How an entry of a defined flow reads on screen, from its definition: in full (`show`,
/// `history --full`), in one short part (`history`), and the today view's line. Every text is
/// escaped; a flow no plan defines now shows its stored ids and answers as they are.
struct AnsweredView {
  let plans: PlanSet

  /// The entries of a day, in the catalogue's order of flows (then any no plan has now).
  func ordered(_ entries: [String: AnsweredEntry]) -> [AnsweredEntry] {
    // most days hold one defined flow's entry or none: nothing to order, no catalogue to walk
    if entries.count < 2 { return Array(entries.values) }
    let order = plans.definedFlows.map(\.flow.word)
    return entries.values.sorted {
      (order.firstIndex(of: $0.flow) ?? order.count, $0.flow)
        < (order.firstIndex(of: $1.flow) ?? order.count, $1.flow)
    }
  }

  /// The challenge another flow of `word`'s plan took on the day of `entries` (accepted, not
  /// declined), by name: what a flow that asks no challenge question of its own (the
  /// evening's "did you complete it?") is about.
  func challengeTaken(by word: String, among entries: [String: AnsweredEntry]) -> String? {
    guard let (flow, plan) = plans.flow(word), flow.challengeQuestion == nil,
      !plan.challenges.isEmpty
    else { return nil }
    for other in plan.flows where other.word != word {
      if let answers = entries[other.word]?.answers, let id = other.takenChallenge(in: answers) {
        return challenge(id, of: other.word)?.name
      }
    }
    return nil
  }

  /// Each answered question as (the question's words, the answer's words), in the flow's
  /// order; first the challenge it is about when another flow of its plan took one that day
  /// (`day`: the day's entries).
  func fields(_ entry: AnsweredEntry, day: [String: AnsweredEntry] = [:]) -> [(
    label: String, answer: String
  )] {
    let about =
      challengeTaken(by: entry.flow, among: day).map {
        [(label: "Tonight's challenge", answer: VisibleText.escaped($0))]
      } ?? []
    return about + questionFields(entry)
  }

  private func questionFields(_ entry: AnsweredEntry) -> [(label: String, answer: String)] {
    guard let flow = plans.flow(entry.flow)?.flow else {
      return entry.answers.values.sorted { $0.key < $1.key }.map {
        (VisibleText.escaped($0.key), VisibleText.escaped($0.value))
      }
    }
    return flow.questions.compactMap { question in
      entry.answers[question.id].map {
        (VisibleText.escaped(question.ask), VisibleText.escaped(shown($0, question, entry.flow)))
      }
    }
  }

  /// An answer in words: a challenge by its name.
  func shown(_ answer: String, _ question: Question, _ word: String) -> String {
    if case .challenge = question.kind, let found = challenge(answer, of: word) {
      return found.name
    }
    return question.kind.shown(answer)
  }

  /// The challenge `id` of the plan whose flow is `word`, for JSON and the screen.
  func challenge(_ id: String, of word: String) -> ChallengeShown? {
    guard let challenge = plans.flow(word)?.plan.challenges.first(where: { $0.id == id }) else {
      return nil
    }
    // the bedtime it was offered with is not kept: said in words
    return ChallengeShown(
      id: id, name: challenge.name.replacing("{bedtime}", with: "your usual bedtime"),
      category: challenge.category)
  }

  /// `entries` with the challenge each names filled in (for `--json`).
  func withChallenges(_ day: HistoryDay) -> HistoryDay {
    var day = day
    for (word, entry) in day.flows {
      guard let flow = plans.flow(word)?.flow, let question = flow.challengeQuestion,
        let id = entry.answers[question.id]
      else { continue }
      day.flows[word]?.challenge = challenge(id, of: word)
    }
    return day
  }

  /// One short part of a history line: "last night: bedtime 23:10 · wake 07:00".
  func part(_ entry: AnsweredEntry) -> String {
    let parts: [String]
    if let flow = plans.flow(entry.flow)?.flow {
      parts = flow.questions.prefix(3).compactMap { question in
        entry.answers[question.id].map {
          "\(question.id) \(VisibleText.escaped(shown($0, question, entry.flow)))"
        }
      }
    } else {
      parts = []
    }
    return plans.title(of: entry.flow).lowercased()
      + (parts.isEmpty ? "" : ": " + parts.joined(separator: ", "))
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
