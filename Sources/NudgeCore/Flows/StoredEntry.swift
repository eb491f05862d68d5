/// An entry of any flow as the store keeps it: one row of one table, whatever the flow — its
/// answers a JSON object of question id → answer text, by the ids its plan gives its questions
/// (`plans/coach.plan` for the coach's four), so a question is never a column.
public struct StoredEntry: Equatable, Sendable {
  /// The flow's stored name (`prep`, `need-help`, `sleep`).
  public var flow: String
  public var day: Day
  /// A help note's id (a flow kept several times a day); nil for an entry kept by its day.
  public var id: String?
  public var answers: [String: String]
  /// When it was last saved (a help note: when it was taken), ISO 8601 with its offset.
  public var savedAt: String

  public init(
    flow: String, day: Day, id: String? = nil, answers: [String: String], savedAt: String
  ) {
    self.flow = flow
    self.day = day
    self.id = id
    self.answers = answers
    self.savedAt = savedAt
  }

  /// What finds it among its flow's entries, as `FlowEntry.key` says it: its id, else its day.
  public var key: String { id ?? day.description }
}

extension Flow {
  /// Whether a day can have several entries of it, each found by its id (the help notes);
  /// every other flow has at most one a day.
  public var isKeptSeveralADay: Bool { self == .needHelp }
}
