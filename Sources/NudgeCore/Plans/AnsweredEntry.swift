/// A defined flow's entry of one day: its answers by question id, held to the flow's
/// definition, stored as they are (no column per question).
public struct AnsweredEntry: Codable, Equatable, Sendable {
  /// The flow's word (`sleep`): the store's and the journal's name for it.
  public var flow: String
  public var day: Day
  public var answers: FlowAnswers
  /// When it was last saved, ISO 8601 with the offset then in effect.
  public var savedAt: String
  /// The challenge its answers name, as `show` and `history --json` print it: never stored
  /// or read back (the answer keeps the challenge's id).
  public var challenge: ChallengeShown? = nil

  public init(flow: String, day: Day, answers: FlowAnswers = FlowAnswers(), savedAt: String) {
    self.flow = flow
    self.day = day
    self.answers = answers
    self.savedAt = savedAt
  }

  enum CodingKeys: String, CodingKey {
    case flow, day, answers, savedAt, challenge
  }

  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      flow: try c.decode(String.self, forKey: .flow), day: try c.decode(Day.self, forKey: .day),
      answers: try c.decode(FlowAnswers.self, forKey: .answers),
      savedAt: try c.decode(String.self, forKey: .savedAt))
  }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(flow, forKey: .flow)
    try c.encode(day, forKey: .day)
    try c.encode(answers, forKey: .answers)
    try c.encode(savedAt, forKey: .savedAt)
    try c.encodeIfPresent(challenge, forKey: .challenge)
  }
}

/// A challenge as an entry's JSON shows it: its id, name and category.
public struct ChallengeShown: Codable, Equatable, Sendable {
  public var id: String
  public var name: String
  public var category: String

  public init(id: String, name: String, category: String) {
    self.id = id
    self.name = name
    self.category = category
  }
}

extension FlowAnswers: Codable {
  /// Encoded as a JSON object of question id → answer text.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(values)
  }

  /// Reads back what `encode` wrote. Whether the answers fit a definition is checked where
  /// the definition is known (`checked(against:)`).
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    self.init(values: try container.decode([String: String].self))
  }
}

extension FlowAnswers {
  /// Answers as they were stored or imported: hostile until `checked(against:)`.
  public init(values: [String: String]) {
    self.init()
    for (id, value) in values { self.values[id] = value }
  }

  /// These answers held to `flow`: each must be one of its questions' and one that question
  /// allows, else the refusal says which and what it takes.
  public func checked(against flow: FlowDefinition) throws(Refusal) -> FlowAnswers {
    var checked = FlowAnswers()
    for (id, value) in values.sorted(by: { $0.key < $1.key }) {
      try checked.set(id, to: value, in: flow)
      guard checked.values[id] == value else {
        throw Refusal(message: "\(id)=\(value) is not in its stored form")
      }
    }
    return checked
  }
}
