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

extension FlowEntry {
  /// The entry as the store keeps it.
  public var stored: StoredEntry {
    switch self {
    case .prep(let e):
      var answers = Dictionary(
        uniqueKeysWithValues: PrepItem.allCases.map { ($0.rawValue, StoredAnswer.yesNo(e[$0])) })
      answers["other"] = e.other
      return StoredEntry(flow: flow.rawValue, day: e.day, answers: answers, savedAt: e.savedAt)
    case .review(let e):
      let answers: [String: String?] = [
        "why": e.why, "challenge": e.challenge?.rawValue, "challenge_other": e.challengeOther,
        "swap": e.swap, "commit_to": e.commitTo, "commit_from": e.commitFrom,
      ]
      return StoredEntry(
        flow: flow.rawValue, day: e.day, answers: answers.compactMapValues { $0 },
        savedAt: e.savedAt)
    case .checkin(let e):
      let answers: [String: String?] = [
        "followed": e.followed.map(StoredAnswer.yesNo), "feel": e.feel, "blocker": e.blocker,
      ]
      return StoredEntry(
        flow: flow.rawValue, day: e.day, answers: answers.compactMapValues { $0 },
        savedAt: e.savedAt)
    case .help(let n):
      let answers: [String: String?] = [
        "category": n.category.rawValue, "note": n.note, "coach": n.coach,
      ]
      return StoredEntry(
        flow: flow.rawValue, day: n.day, id: n.id, answers: answers.compactMapValues { $0 },
        savedAt: n.at)
    case .answered(let e):
      return StoredEntry(flow: e.flow, day: e.day, answers: e.answers.values, savedAt: e.savedAt)
    }
  }

  /// Reads back what `stored` wrote; a stored answer this Nudge cannot read (a newer one's, or
  /// a damaged file's) is refused, naming it.
  public init(stored: StoredEntry) throws(InputError) {
    guard let flow = Flow(rawValue: stored.flow) else {
      throw InputError("an entry of '\(stored.flow)', which is not a flow name")
    }
    guard flow.isKeptSeveralADay == (stored.id != nil) else {
      throw InputError(
        "an entry of \(stored.flow) on \(stored.day) "
          + (stored.id.map { "with an id, '\($0)'" } ?? "without the id it needs"))
    }
    let answers = StoredAnswer(entry: stored)
    switch flow {
    case .prep:
      var entry = PrepEntry(day: stored.day, other: answers["other"], savedAt: stored.savedAt)
      for item in PrepItem.allCases { entry[item] = try answers.yesNo(item.rawValue) ?? false }
      self = .prep(entry)
    case .review:
      self = .review(
        ReviewEntry(
          day: stored.day, why: answers["why"],
          challenge: try answers.choice("challenge", of: Challenge.self),
          challengeOther: answers["challenge_other"], swap: answers["swap"],
          commitTo: answers["commit_to"], commitFrom: answers["commit_from"],
          savedAt: stored.savedAt))
    case .checkin:
      self = .checkin(
        CheckinEntry(
          day: stored.day, followed: try answers.yesNo("followed"), feel: answers["feel"],
          blocker: answers["blocker"], savedAt: stored.savedAt))
    case .needHelp:
      guard let id = stored.id, let category = try answers.choice("category", of: HelpCategory.self)
      else { throw InputError("help note \(stored.key) without a category") }
      self = .help(
        HelpNote(
          id: id, day: stored.day, category: category, note: answers["note"],
          coach: answers["coach"], at: stored.savedAt))
    case .defined(let word):
      self = .answered(
        AnsweredEntry(
          flow: word, day: stored.day, answers: FlowAnswers(values: stored.answers),
          savedAt: stored.savedAt))
    }
  }
}

/// A stored answer of the coach's flows, read in its typed form.
private struct StoredAnswer {
  let entry: StoredEntry

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

/// A coach flow's day entry (prep, review, check-in), read and written as one of any flow's.
public protocol DayRecord: DayEntry {
  static var flow: Flow { get }
  /// The entry as one of any flow's.
  var flowEntry: FlowEntry { get }
  /// The entry of this flow that `entry` is, nil when it is another flow's.
  init?(_ entry: FlowEntry)
}

extension PrepEntry: DayRecord {
  public static let flow = Flow.prep
  public var flowEntry: FlowEntry { .prep(self) }
  public init?(_ entry: FlowEntry) {
    guard case .prep(let e) = entry else { return nil }
    self = e
  }
}

extension ReviewEntry: DayRecord {
  public static let flow = Flow.review
  public var flowEntry: FlowEntry { .review(self) }
  public init?(_ entry: FlowEntry) {
    guard case .review(let e) = entry else { return nil }
    self = e
  }
}

extension CheckinEntry: DayRecord {
  public static let flow = Flow.checkin
  public var flowEntry: FlowEntry { .checkin(self) }
  public init?(_ entry: FlowEntry) {
    guard case .checkin(let e) = entry else { return nil }
    self = e
  }
}

extension FlowEntry {
  /// The help note this entry is, nil for any other flow's.
  public var helpNote: HelpNote? {
    guard case .help(let note) = self else { return nil }
    return note
  }

  /// The entry of a defined flow this is, nil for the coach's.
  public var answeredEntry: AnsweredEntry? {
    guard case .answered(let entry) = self else { return nil }
    return entry
  }
}
