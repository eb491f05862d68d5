/// Everything recorded for one day, as the timeline and `history --json` show it.
public struct HistoryDay: Codable, Equatable, Sendable {
  public var date: Day
  public var prep: PrepEntry?
  public var review: ReviewEntry?
  public var checkin: CheckinEntry?
  public var help: [HelpNote]
  /// The day's entries of flows plan files define, by flow word.
  public var flows: [String: AnsweredEntry]

  public init(
    date: Day, prep: PrepEntry? = nil, review: ReviewEntry? = nil, checkin: CheckinEntry? = nil,
    help: [HelpNote] = [], flows: [String: AnsweredEntry] = [:]
  ) {
    self.date = date
    self.flows = flows
    self.prep = prep
    self.review = review
    self.checkin = checkin
    self.help = help
  }

  enum CodingKeys: String, CodingKey {
    case date, prep, review, checkin, help, flows
  }

  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      date: try c.decode(Day.self, forKey: .date),
      prep: try c.decodeIfPresent(PrepEntry.self, forKey: .prep),
      review: try c.decodeIfPresent(ReviewEntry.self, forKey: .review),
      checkin: try c.decodeIfPresent(CheckinEntry.self, forKey: .checkin),
      help: try c.decodeIfPresent([HelpNote].self, forKey: .help) ?? [],
      flows: try c.decodeIfPresent([String: AnsweredEntry].self, forKey: .flows) ?? [:])
  }

  /// Writes `null` for a flow not done that day, so every key is always present.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(date, forKey: .date)
    try c.encode(prep, forKey: .prep)
    try c.encode(review, forKey: .review)
    try c.encode(checkin, forKey: .checkin)
    try c.encode(help, forKey: .help)
    try c.encode(flows, forKey: .flows)
  }

  /// A day is done when any flow was completed on it.
  public var isDone: Bool {
    prep != nil || review != nil || checkin != nil || !help.isEmpty || !flows.isEmpty
  }
}

/// Lays out history entries as one `HistoryDay` per day of a range, oldest first.
public enum Timeline {
  public static func days(
    endingOn last: Day, count: Int, prep: [PrepEntry], review: [ReviewEntry],
    checkin: [CheckinEntry], help: [HelpNote], answered: [AnsweredEntry] = []
  ) -> [HistoryDay] {
    guard count > 0 else { return [] }
    let first = last.adding(days: -(count - 1))
    var days = (0..<count).map { HistoryDay(date: first.adding(days: $0)) }
    /// Where `day` is in `days`, nil outside them.
    func index(_ day: Day) -> Int? {
      let offset = day.ordinal - first.ordinal
      return offset >= 0 && offset < count ? offset : nil
    }
    for e in prep { if let i = index(e.day) { days[i].prep = e } }
    for e in review { if let i = index(e.day) { days[i].review = e } }
    for e in checkin { if let i = index(e.day) { days[i].checkin = e } }
    for n in help.sorted(by: HelpNote.savedBefore) {
      if let i = index(n.day) { days[i].help.append(n) }
    }
    for e in answered { if let i = index(e.day) { days[i].flows[e.flow] = e } }
    return days
  }
}

/// The line that ends the I-need-help flow: what the last 7 days of captures have in common.
public enum HelpPattern {
  public static func line(notes: [HelpNote], today: Day, latest: HelpCategory?) -> String? {
    let week = notes.filter { $0.day > today.adding(days: -7) && $0.day <= today }
    guard !week.isEmpty else { return nil }
    if week.count == 1 {
      return "This is your first capture this week. Noticing is the first step."
    }
    var counts: [HelpCategory: Int] = [:]
    for n in week { counts[n.category, default: 0] += 1 }
    let top = counts.values.max()!
    let leaders = HelpCategory.allCases.filter { counts[$0] == top }
    let leader = latest.flatMap { leaders.contains($0) ? $0 : nil } ?? leaders[0]
    let name = leader == .other ? "other / not sure" : leader.rawValue
    if top == week.count {
      return "All \(week.count) of your captures this week were \(name)."
    }
    return "\(top) of your \(week.count) captures this week \(top == 1 ? "was" : "were") \(name)."
  }
}
