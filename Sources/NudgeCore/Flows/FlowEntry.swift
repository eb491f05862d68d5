import FoundationEssentials

/// One saved entry of any flow, checked: its flow, the day it counts for, its answers by the
/// ids its plan gives its questions, and when it was saved. Every flow's entry is this one
/// shape; the coach's four are also read in a typed form (`PrepEntry` …, the coach's room),
/// which is how their JSON looks.
public struct FlowEntry: Equatable, Sendable, Encodable {
  public let flow: Flow
  /// The day the entry counts for.
  public let day: Day
  /// A help note's id (a flow kept several times a day); nil for an entry kept by its day.
  public let id: String?
  /// Question id → answer text.
  public let answers: [String: String]
  /// When it was last saved (a help note: when it was taken), ISO 8601 with its offset.
  public private(set) var savedAt: String

  /// An entry made by its flow's own room, which has checked the answers: the coach's typed
  /// entries (`CoachEntryView.flowEntry`) and a plan's answered entry (`AnsweredEntry`).
  init(flow: Flow, day: Day, id: String?, answers: [String: String], savedAt: String) {
    self.flow = flow
    self.day = day
    self.id = id
    self.answers = answers
    self.savedAt = savedAt
  }

  /// Reads what the store, a sync line or an import holds, checked: a flow name of the shape
  /// flows have, an id exactly when the flow keeps several a day, and (a coach flow) answers
  /// its typed form reads, kept as that form writes them. Anything else is refused, naming it.
  public init(stored: StoredEntry) throws(InputError) {
    self = try CoachEntries.checked(Self(unchecked: stored))
  }

  /// Reads a row of the store's own `flow_entry`: checked as `init(stored:)` checks, its
  /// answers kept as they were written (every writer wrote them as `stored` gives them; a
  /// start reads a week of rows, and writing each one's answers again on every read was most
  /// of what one shape for every entry first cost it).
  public init(row: StoredEntry) throws(InputError) {
    self = try Self(unchecked: row)
    try CoachEntries.check(self)
  }

  /// The shape of `stored` held to a flow's: a flow name and an id exactly when its flow
  /// keeps several a day; its answers not yet read.
  private init(unchecked stored: StoredEntry) throws(InputError) {
    guard let flow = Flow(rawValue: stored.flow) else {
      throw InputError("an entry of '\(stored.flow)', which is not a flow name")
    }
    guard flow.isKeptSeveralADay == (stored.id != nil) else {
      throw InputError(
        "an entry of \(stored.flow) on \(stored.day) "
          + (stored.id.map { "with an id, '\($0)'" } ?? "without the id it needs"))
    }
    self.init(
      flow: flow, day: stored.day, id: stored.id, answers: stored.answers,
      savedAt: stored.savedAt)
  }

  /// The entry as the store keeps it.
  public var stored: StoredEntry {
    StoredEntry(flow: flow.rawValue, day: day, id: id, answers: answers, savedAt: savedAt)
  }

  /// What finds the entry again among its flow's: its id, else its day.
  public var key: String { id ?? day.description }

  /// The same entry as saved at `savedAt` (what a run that changed no answer leaves).
  public func stamped(_ savedAt: String) -> FlowEntry {
    var copy = self
    copy.savedAt = savedAt
    return copy
  }

  /// A plan file's flow's entry in its answered form; nil for the coach's.
  public var answeredEntry: AnsweredEntry? {
    guard let word = flow.definedWord else { return nil }
    return AnsweredEntry(
      flow: word, day: day, answers: FlowAnswers(values: answers), savedAt: savedAt)
  }

  /// The help note this entry is, nil for any other flow's.
  public var helpNote: HelpNote? { HelpNote(self) }

  /// Encodes the entry as `history --json` shows it: a coach flow's in its typed form, any
  /// other as its answered form.
  public func encode(to encoder: any Encoder) throws {
    if try !CoachEntries.encode(self, to: encoder) {
      try answeredEntry?.encode(to: encoder)
    }
  }

  /// The entry as JSON (its `history --json` form), for the change journal.
  public func json() throws -> String {
    String(decoding: try NudgeJSON.encode(self), as: UTF8.self)
  }

  /// Reads back what `json()` wrote for an entry of `flow`.
  public init(flow: Flow, json: String) throws {
    let data = Data(json.utf8)
    if let entry = try CoachEntries.decoded(flow, json: data) {
      self = entry
    } else {
      let entry = try NudgeJSON.decode(AnsweredEntry.self, from: data)
      guard entry.flow == flow.rawValue else {
        throw InputError("an entry of \(entry.flow), not \(flow)")
      }
      self = entry.flowEntry
    }
  }
}

extension AnsweredEntry {
  /// The entry as one of any flow's.
  public var flowEntry: FlowEntry {
    FlowEntry(flow: .defined(flow), day: day, id: nil, answers: answers.values, savedAt: savedAt)
  }
}
