import FoundationEssentials

/// One saved entry of any flow: a day's prep, review or check-in, one help note, or a day's
/// entry of a flow a plan file defines.
public enum FlowEntry: Equatable, Sendable, Encodable {
  case prep(PrepEntry)
  case review(ReviewEntry)
  case checkin(CheckinEntry)
  case help(HelpNote)
  case answered(AnsweredEntry)

  public var flow: Flow {
    switch self {
    case .prep: .prep
    case .review: .review
    case .checkin: .checkin
    case .help: .needHelp
    case .answered(let e): .defined(e.flow)
    }
  }

  /// The day the entry counts for.
  public var day: Day {
    switch self {
    case .prep(let e): e.day
    case .review(let e): e.day
    case .checkin(let e): e.day
    case .help(let n): n.day
    case .answered(let e): e.day
    }
  }

  /// What finds the entry again: its day, or a help note's id.
  public var key: String {
    if case .help(let note) = self { return note.id }
    return day.description
  }

  /// The same entry as saved at `savedAt` (what a run that changed no answer leaves).
  public func stamped(_ savedAt: String) -> FlowEntry? {
    var stored = self.stored
    stored.savedAt = savedAt
    return try? FlowEntry(stored: stored)
  }

  /// Encodes the entry itself (as `history --json` shows it).
  public func encode(to encoder: any Encoder) throws {
    switch self {
    case .prep(let e): try e.encode(to: encoder)
    case .review(let e): try e.encode(to: encoder)
    case .checkin(let e): try e.encode(to: encoder)
    case .help(let n): try n.encode(to: encoder)
    case .answered(let e): try e.encode(to: encoder)
    }
  }

  /// The entry as JSON (its `history --json` form), for the change journal.
  public func json() throws -> String {
    let data =
      switch self {
      case .prep(let e): try NudgeJSON.encode(e)
      case .review(let e): try NudgeJSON.encode(e)
      case .checkin(let e): try NudgeJSON.encode(e)
      case .help(let n): try NudgeJSON.encode(n)
      case .answered(let e): try NudgeJSON.encode(e)
      }
    return String(decoding: data, as: UTF8.self)
  }

  /// Reads back what `json()` wrote for an entry of `flow`.
  public init(flow: Flow, json: String) throws {
    let data = Data(json.utf8)
    switch flow {
    case .prep: self = .prep(try NudgeJSON.decode(PrepEntry.self, from: data))
    case .review: self = .review(try NudgeJSON.decode(ReviewEntry.self, from: data))
    case .checkin: self = .checkin(try NudgeJSON.decode(CheckinEntry.self, from: data))
    case .needHelp: self = .help(try NudgeJSON.decode(HelpNote.self, from: data))
    case .defined(let word):
      let entry = try NudgeJSON.decode(AnsweredEntry.self, from: data)
      guard entry.flow == word else { throw InputError("an entry of \(entry.flow), not \(word)") }
      self = .answered(entry)
    }
  }
}

/// What a change did to an entry.
public enum ChangeKind: String, Codable, Sendable {
  /// A flow finished for a day that had no entry of it (or a new help note).
  case saved
  /// A flow finished again for a day that had one: its answers merged in.
  case updated
  /// `nudge edit`.
  case edited
  /// `nudge delete`.
  case deleted
}

/// One change to the entries, kept so that `nudge undo` can take it back.
public struct EntryChange: Equatable, Sendable {
  public var id: Int
  /// The day (after the rollover hour) the change was made on: `undo` takes back only today's.
  public var madeOn: Day
  public var at: String
  public var kind: ChangeKind
  public var flow: Flow
  /// The entry before the change (nil: there was none) and after it (nil: deleted).
  public var before: FlowEntry?
  public var after: FlowEntry?
  /// Its place in the one count of every journal `undo` reads (0: journaled before it began).
  public var seq: Int

  public init(
    id: Int, madeOn: Day, at: String, kind: ChangeKind, flow: Flow, before: FlowEntry?,
    after: FlowEntry?, seq: Int = 0
  ) {
    self.seq = seq
    self.id = id
    self.madeOn = madeOn
    self.at = at
    self.kind = kind
    self.flow = flow
    self.before = before
    self.after = after
  }

  /// The entry the change touched: as it was before (what an undo brings back), or as the
  /// change created it.
  public var entry: FlowEntry? { before ?? after }
}

/// The answers of an unfinished flow, kept the moment each is given: question key → answer
/// ("" for a question answered with nothing).
public struct FlowDraft: Equatable, Sendable {
  public var flow: Flow
  public var day: Day
  public var answers: [String: String]

  public init(flow: Flow, day: Day, answers: [String: String] = [:]) {
    self.flow = flow
    self.day = day
    self.answers = answers
  }
}
