import FoundationEssentials

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
