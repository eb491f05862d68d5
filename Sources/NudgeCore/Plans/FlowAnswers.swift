/// A flow's answers of one day, by question id, held to its definition: what the store keeps
/// for any flow (no column per question), what `--answer ID=VALUE` fills and a draft resumes.
public struct FlowAnswers: Equatable, Sendable {
  /// Each answer as text, as typed on the command line and stored: `yes`/`no`, an option id,
  /// option ids joined by `,`, the text, a whole number, `HH:MM`.
  public internal(set) var values: [String: String] = [:]

  public init() {}

  /// Why an answer was refused: the question and what it takes.
  public struct Refusal: Error, Equatable, Sendable {
    public var message: String
    public init(message: String) { self.message = message }
  }

  /// Sets question `id` to `value` (`ID=VALUE` split), or refuses it with what it takes.
  public mutating func set(_ id: String, to value: String, in flow: FlowDefinition)
    throws(Refusal)
  {
    guard let question = flow.questions.first(where: { $0.id == id }) else {
      throw Refusal(
        message:
          "'\(id)' is not a question of \(flow.word) (\(flow.questions.map(\.id).joined(separator: ", ")))"
      )
    }
    let value = question.kind.normalized(value)
    guard question.kind.allows(value) else {
      throw Refusal(message: "\(id)=\(value) is not an answer: \(id) takes \(question.kind.takes)")
    }
    values[id] = value
  }

  /// Parses `ID=VALUE` pairs (the `--answer` flags, repeatable) into answers for `flow`.
  public static func parsing(_ pairs: [String], for flow: FlowDefinition) throws(Refusal)
    -> FlowAnswers
  {
    var answers = FlowAnswers()
    for pair in pairs {
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      guard parts.count == 2, !parts[0].isEmpty else {
        throw Refusal(message: "'\(pair)' is not ID=VALUE (e.g. \(flow.example))")
      }
      try answers.set(String(parts[0]), to: String(parts[1]), in: flow)
    }
    return answers
  }

  /// These answers with `newer` laid over them (a later run of the same day).
  public func merging(_ newer: FlowAnswers) -> FlowAnswers {
    var merged = self
    merged.values.merge(newer.values) { $1 }
    return merged
  }

  /// The questions to ask, in order, given the answers so far: a question with a `when` only
  /// once the question it depends on got that answer.
  public func questionsToAsk(in flow: FlowDefinition) -> [Question] {
    flow.questions.filter { question in
      guard let condition = question.when else { return true }
      guard let answer = values[condition.question] else { return false }
      let source = flow.questions.first { $0.id == condition.question }
      if case .severalOf? = source?.kind {
        return answer.split(separator: ",").contains { $0 == condition.answer }
      }
      return answer == condition.answer
    }
  }

  /// The answers that still apply: one whose `when` no longer holds is dropped (a challenge
  /// changed from "other" leaves no words for it).
  public func applying(to flow: FlowDefinition) -> FlowAnswers {
    // until nothing more drops: a question dropped can take one that depends on it along
    var kept = self
    while true {
      let asked = Set(kept.questionsToAsk(in: flow).map(\.id))
      let next = kept.values.filter { asked.contains($0.key) }
      if next.count == kept.values.count { return kept }
      kept.values = next
    }
  }

  /// How many questions are answered (an import never replaces an entry with one that
  /// answers fewer).
  public var answered: Int { values.count }

  /// Whether the entry counts for the day, by the flow's rule.
  public func counts(for flow: FlowDefinition) -> Bool {
    switch flow.counts {
    case .anyAnswer: return !values.isEmpty
    case .anyOf(let ids): return ids.contains { values[$0] != nil }
    case .requiredAnswered:
      let required = questionsToAsk(in: flow).filter(\.required)
      return !required.isEmpty && required.allSatisfy { values[$0.id] != nil }
    }
  }

  /// The answer to question `id`, if any.
  public subscript(id: String) -> String? { values[id] }
}

extension Question.Kind {
  /// An answer as typed, in its stored form: `y`/`n` and case for yes/no, a time `7:05` as
  /// `07:05`, spaces at the ends dropped.
  public func normalized(_ typed: String) -> String {
    let text = typed.trimmingSpaces
    switch self {
    case .yesNo:
      switch text.lowercased() {
      case "y", "yes": return "yes"
      case "n", "no": return "no"
      default: return text
      }
    case .timeOfDay:
      let parts = text.split(separator: ":", omittingEmptySubsequences: false)
      guard parts.count == 2, parts[0].count == 1, parts[0].allSatisfy(\.isNumber) else {
        return text
      }
      return "0" + text
    case .severalOf(let options):
      // in the options' order, each once
      let picked = Set(text.split(separator: ",").map { $0.trimmingSpaces })
      let known = options.map(\.id).filter { picked.contains($0) }
      return known.count == picked.count ? known.joined(separator: ",") : text
    default:
      return text
    }
  }

  /// What it takes, for a refusal.
  public var takes: String {
    switch self {
    case .yesNo: "yes or no"
    case .oneOf(let options): "one of " + options.map(\.id).joined(separator: ", ")
    case .severalOf(let options):
      "any of " + options.map(\.id).joined(separator: ", ") + ", joined by commas"
    case .text(let max): "one line of text of at most \(max) characters, no control characters"
    case .number(let unit, let low, let high):
      "a whole number from \(low) to \(high)" + (unit.map { " (\($0))" } ?? "")
    case .timeOfDay: "a time of day, HH:MM (23:15)"
    case .challenge(let ids):
      "one of the plan's challenges (\(ids.prefix(3).joined(separator: ", ")), …)"
    }
  }
}

extension FlowDefinition {
  /// An example command line answering its required questions (or its first).
  public var example: String {
    let shown =
      questions.filter(\.required).isEmpty
      ? Array(questions.prefix(1)) : questions.filter(\.required)
    return (["nudge", word] + shown.map { "--answer \($0.id)=\($0.kind.exampleAnswer)" })
      .joined(separator: " ")
  }
}

extension Question.Kind {
  var exampleAnswer: String {
    switch self {
    case .yesNo: "yes"
    case .oneOf(let options), .severalOf(let options): options[0].id
    case .text: "'a few words'"
    case .number(_, let low, let high): String(min(max(low, 1), high))
    case .timeOfDay: "23:00"
    case .challenge(let ids): ids[0]
    }
  }
}
