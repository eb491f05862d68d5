import NudgeCore

extension FlowDefinition {
  /// Its `challenge` question, if it has one.
  var challengeQuestion: Question? {
    questions.first { if case .challenge = $0.kind { true } else { false } }
  }

  /// The challenge these answers took: their challenge answer, unless the yes/no question
  /// after it (taking it) was answered no.
  func takenChallenge(in answers: FlowAnswers) -> String? {
    guard let question = challengeQuestion, let id = answers[question.id],
      let index = questions.firstIndex(where: { $0.id == question.id })
    else { return nil }
    if let next = questions.dropFirst(index + 1).first, case .yesNo = next.kind,
      answers[next.id] == "no"
    {
      return nil
    }
    return id
  }

  /// What makes an entry count, said as a clause: "an entry needs bedtime, wake and rested".
  var countsRule: String {
    switch counts {
    case .anyAnswer: "an entry needs an answer"
    case .anyOf(let ids): "an entry needs one of " + ids.joined(separator: ", ")
    case .requiredAnswered:
      "an entry needs " + questions.filter(\.required).map(\.id).joined(separator: ", ")
    }
  }
}
