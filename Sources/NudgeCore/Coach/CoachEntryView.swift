import FoundationEssentials

/// A coach flow's entries read in their typed form (`PrepEntry`, `ReviewEntry`,
/// `CheckinEntry`, `HelpNote`): what the coach's commands and the export's lists hold. The
/// entry itself is one of any flow's (`FlowEntry`); this is a view of its answers, by the
/// question ids `plans/coach.plan` gives them.
public protocol CoachEntryView: Codable, Equatable, Sendable {
  /// The coach flow whose entries it reads.
  static var flow: Flow { get }
  /// Reads an entry of its flow; an answer this Nudge cannot read (a newer one's, or a
  /// damaged file's) is refused, naming it.
  init(reading entry: FlowEntry) throws(InputError)
  /// The entry as one of any flow's.
  var flowEntry: FlowEntry { get }
}

extension CoachEntryView {
  /// The view of `entry`, nil when it is another flow's.
  public init?(_ entry: FlowEntry) {
    guard entry.flow == Self.flow, let view = try? Self(reading: entry) else { return nil }
    self = view
  }
}

/// The coach's views, by the flow each reads: the one place a coach flow's id meets its typed
/// form. (A switch, not a table of the view types: a start reads entries through it, and a
/// table of metatypes costs the runtime their metadata first.)
public enum CoachEntries {
  /// `entry` read by its coach flow's view, and written as that view writes it (an answer it
  /// cannot read refused); a plan file's flow's entry as it is.
  static func checked(_ entry: FlowEntry) throws(InputError) -> FlowEntry {
    switch entry.flow {
    case .prep: try PrepEntry(reading: entry).flowEntry
    case .review: try ReviewEntry(reading: entry).flowEntry
    case .checkin: try CheckinEntry(reading: entry).flowEntry
    case .needHelp: try HelpNote(reading: entry).flowEntry
    default: entry
    }
  }

  /// Refuses a coach flow's entry whose answers its view cannot read.
  static func check(_ entry: FlowEntry) throws(InputError) {
    switch entry.flow {
    case .prep: _ = try PrepEntry(reading: entry)
    case .review: _ = try ReviewEntry(reading: entry)
    case .checkin: _ = try CheckinEntry(reading: entry)
    case .needHelp: _ = try HelpNote(reading: entry)
    default: break
    }
  }

  /// Encodes a coach flow's entry in its typed form (its JSON); false for a plan file's flow.
  static func encode(_ entry: FlowEntry, to encoder: any Encoder) throws -> Bool {
    switch entry.flow {
    case .prep: try PrepEntry(reading: entry).encode(to: encoder)
    case .review: try ReviewEntry(reading: entry).encode(to: encoder)
    case .checkin: try CheckinEntry(reading: entry).encode(to: encoder)
    case .needHelp: try HelpNote(reading: entry).encode(to: encoder)
    default: return false
    }
    return true
  }

  /// The coach flow's entry its JSON shows; nil for a plan file's flow.
  static func decoded(_ flow: Flow, json: Data) throws -> FlowEntry? {
    switch flow {
    case .prep: try NudgeJSON.decode(PrepEntry.self, from: json).flowEntry
    case .review: try NudgeJSON.decode(ReviewEntry.self, from: json).flowEntry
    case .checkin: try NudgeJSON.decode(CheckinEntry.self, from: json).flowEntry
    case .needHelp: try NudgeJSON.decode(HelpNote.self, from: json).flowEntry
    default: nil
    }
  }
}

/// A coach flow's day entry (prep, review, check-in), read and written as one of any flow's.
public protocol DayRecord: DayEntry, CoachEntryView {}

extension PrepEntry: DayRecord {
  public static let flow = Flow.prep

  public init(reading entry: FlowEntry) throws(InputError) {
    let answers = StoredAnswer(entry: entry)
    self.init(day: entry.day, other: answers["other"], savedAt: entry.savedAt)
    for item in PrepItem.allCases { self[item] = try answers.yesNo(item.rawValue) ?? false }
  }

  public var flowEntry: FlowEntry {
    var answers = Dictionary(
      uniqueKeysWithValues: PrepItem.allCases.map { ($0.rawValue, StoredAnswer.yesNo(self[$0])) })
    answers["other"] = other
    return FlowEntry(flow: Self.flow, day: day, id: nil, answers: answers, savedAt: savedAt)
  }
}

extension ReviewEntry: DayRecord {
  public static let flow = Flow.review

  public init(reading entry: FlowEntry) throws(InputError) {
    let answers = StoredAnswer(entry: entry)
    self.init(
      day: entry.day, why: answers["why"],
      challenge: try answers.choice("challenge", of: Challenge.self),
      challengeOther: answers["challenge_other"], swap: answers["swap"],
      commitTo: answers["commit_to"], commitFrom: answers["commit_from"], savedAt: entry.savedAt)
  }

  public var flowEntry: FlowEntry {
    let answers: [String: String?] = [
      "why": why, "challenge": challenge?.rawValue, "challenge_other": challengeOther,
      "swap": swap, "commit_to": commitTo, "commit_from": commitFrom,
    ]
    return FlowEntry(
      flow: Self.flow, day: day, id: nil, answers: answers.compactMapValues { $0 },
      savedAt: savedAt)
  }
}

extension CheckinEntry: DayRecord {
  public static let flow = Flow.checkin

  public init(reading entry: FlowEntry) throws(InputError) {
    let answers = StoredAnswer(entry: entry)
    self.init(
      day: entry.day, followed: try answers.yesNo("followed"), feel: answers["feel"],
      blocker: answers["blocker"], savedAt: entry.savedAt)
  }

  public var flowEntry: FlowEntry {
    let answers: [String: String?] = [
      "followed": followed.map(StoredAnswer.yesNo), "feel": feel, "blocker": blocker,
    ]
    return FlowEntry(
      flow: Self.flow, day: day, id: nil, answers: answers.compactMapValues { $0 },
      savedAt: savedAt)
  }
}

extension HelpNote: CoachEntryView {
  public static let flow = Flow.needHelp

  public init(reading entry: FlowEntry) throws(InputError) {
    let answers = StoredAnswer(entry: entry)
    guard let id = entry.id, let category = try answers.choice("category", of: HelpCategory.self)
    else { throw InputError("help note \(entry.key) without a category") }
    self.init(
      id: id, day: entry.day, category: category, note: answers["note"],
      coach: answers["coach"], at: entry.savedAt)
  }

  public var flowEntry: FlowEntry {
    let answers: [String: String?] = ["category": category.rawValue, "note": note, "coach": coach]
    return FlowEntry(
      flow: Self.flow, day: day, id: id, answers: answers.compactMapValues { $0 }, savedAt: at)
  }
}

/// A stored answer of the coach's flows, read in its typed form.
private struct StoredAnswer {
  let entry: FlowEntry

  static func yesNo(_ flag: Bool) -> String { flag ? "yes" : "no" }

  /// The answer to `id`: found by comparing it with the handful of keys there are, without
  /// hashing it (a coach's entry has at most six; hashing each id asked for, present or not,
  /// was a tenth of reading ten years of entries).
  subscript(id: String) -> String? {
    for (key, value) in entry.answers where key == id { return value }
    return nil
  }

  func yesNo(_ id: String) throws(InputError) -> Bool? {
    switch self[id] {
    case nil: nil
    case "yes": true
    case "no": false
    case let other?: throw unreadable(id, other)
    }
  }

  func choice<T: RawRepresentable<String>>(_ id: String, of type: T.Type) throws(InputError) -> T? {
    guard let text = self[id] else { return nil }
    guard let value = T(rawValue: text) else { throw unreadable(id, text) }
    return value
  }

  private func unreadable(_ id: String, _ text: String) -> InputError {
    InputError("'\(text)' as the \(id) of \(entry.flow) \(entry.key)")
  }
}

extension ExportDocument {
  /// Files `entry` in its list: a coach flow's in its typed list, a plan file's flow's in
  /// `flows`.
  public mutating func add(_ entry: FlowEntry) {
    if let e = PrepEntry(entry) {
      prep.append(e)
    } else if let e = ReviewEntry(entry) {
      review.append(e)
    } else if let e = CheckinEntry(entry) {
      checkin.append(e)
    } else if let e = entry.helpNote {
      help.append(e)
    } else if let e = entry.answeredEntry {
      flows.append(e)
    }
  }
}
