import FoundationEssentials

/// One line of the Prep Tonight checklist.
public enum PrepItem: String, CaseIterable, Codable, Sendable {
  case stickyNotes = "sticky-notes"
  case produce, water, breakfast

  /// Its words: coach.plan's question without its question mark ("Water ready").
  public var label: String {
    let asked = CoachPlan.ask(.prep, rawValue)
    return asked.hasSuffix("?") ? String(asked.dropLast()) : asked
  }
}

/// A flow's entry of one day (prep, review, check-in): a save merges into what the day has,
/// and is refused unless the merged entry counts.
public protocol DayEntry: Codable, Equatable, Sendable {
  /// The entry of a day with nothing answered yet.
  static func blank(day: Day, savedAt: String) -> Self
  var day: Day { get }
  /// When it was last saved, ISO 8601 with the offset then in effect.
  var savedAt: String { get set }
  /// Whether the entry is enough for the flow to count as done that day.
  var counts: Bool { get }
  /// How many of its questions the entry answers: an import never replaces an entry with
  /// one that answers fewer.
  var answered: Int { get }
}

/// What was prepared on an evening for the next day.
public struct PrepEntry: DayEntry {
  public var day: Day
  public var stickyNotes: Bool
  public var produce: Bool
  public var water: Bool
  public var breakfast: Bool
  public var other: String?
  /// When it was last saved, ISO 8601 with the offset then in effect.
  public var savedAt: String

  public init(
    day: Day, stickyNotes: Bool = false, produce: Bool = false, water: Bool = false,
    breakfast: Bool = false, other: String? = nil, savedAt: String
  ) {
    self.day = day
    self.stickyNotes = stickyNotes
    self.produce = produce
    self.water = water
    self.breakfast = breakfast
    self.other = other
    self.savedAt = savedAt
  }

  public subscript(item: PrepItem) -> Bool {
    get {
      switch item {
      case .stickyNotes: stickyNotes
      case .produce: produce
      case .water: water
      case .breakfast: breakfast
      }
    }
    set {
      switch item {
      case .stickyNotes: stickyNotes = newValue
      case .produce: produce = newValue
      case .water: water = newValue
      case .breakfast: breakfast = newValue
      }
    }
  }

  public var doneCount: Int { PrepItem.allCases.filter { self[$0] }.count }

  public static func blank(day: Day, savedAt: String) -> Self { Self(day: day, savedAt: savedAt) }

  /// A prep counts with something prepped: one item ready, or a line of something else.
  public var counts: Bool { doneCount > 0 || other != nil }

  public var answered: Int { doneCount + (other == nil ? 0 : 1) }

  /// "All prepped": every item ready (the `a` answer and the reminder's button).
  public mutating func markAllReady() {
    for item in PrepItem.allCases { self[item] = true }
  }
}

/// The challenge picked in the Morning Focus.
public enum Challenge: String, CaseIterable, Codable, Sendable {
  case skippingMeals = "skipping-meals"
  case lateNightSnacking = "late-night-snacking"
  case sugaryDrinks = "sugary-drinks"
  case onTheGo = "on-the-go"
  case emotionalEating = "emotional-eating"
  case other

  /// Its words, as coach.plan gives the Morning Focus's challenge question.
  public var label: String { CoachPlan.label("review", "challenge", option: rawValue) }
}

/// The Morning Focus: my why, today's challenge, my swap and the commitment.
public struct ReviewEntry: DayEntry {
  public var day: Day
  public var why: String?
  public var challenge: Challenge?
  public var challengeOther: String?
  public var swap: String?
  public var commitTo: String?
  public var commitFrom: String?
  public var savedAt: String

  public init(
    day: Day, why: String? = nil, challenge: Challenge? = nil, challengeOther: String? = nil,
    swap: String? = nil, commitTo: String? = nil, commitFrom: String? = nil, savedAt: String
  ) {
    self.day = day
    self.why = why
    self.challenge = challenge
    self.challengeOther = challengeOther
    self.swap = swap
    self.commitTo = commitTo
    self.commitFrom = commitFrom
    self.savedAt = savedAt
  }

  /// The challenge as the person named it ("Other" shows their own words).
  public var challengeText: String? {
    guard let challenge else { return nil }
    if challenge == .other, let challengeOther, !challengeOther.isEmpty { return challengeOther }
    return challenge.label
  }

  /// "Today I will … instead of …", when both halves are known.
  public var commitment: String? {
    switch (commitTo, commitFrom) {
    case (let to?, let from?): "Today I will \(to) instead of \(from)."
    case (let to?, nil): "Today I will \(to)."
    default: nil
    }
  }

  public static func blank(day: Day, savedAt: String) -> Self { Self(day: day, savedAt: savedAt) }

  /// A Morning Focus counts with its commitment, "Today I will …".
  public var counts: Bool { commitTo != nil }

  public var answered: Int {
    [why, challengeOther, swap, commitTo, commitFrom].compactMap { $0 }.count
      + (challenge == nil ? 0 : 1)
  }
}

/// The end-of-day check-in.
public struct CheckinEntry: DayEntry {
  public var day: Day
  public var followed: Bool?
  public var feel: String?
  public var blocker: String?
  public var savedAt: String

  public init(
    day: Day, followed: Bool? = nil, feel: String? = nil, blocker: String? = nil, savedAt: String
  ) {
    self.day = day
    self.followed = followed
    self.feel = feel
    self.blocker = blocker
    self.savedAt = savedAt
  }

  public static func blank(day: Day, savedAt: String) -> Self { Self(day: day, savedAt: savedAt) }

  /// A check-in counts with its answer: was the swap followed, or (on a day without a swap)
  /// how the day went.
  public var counts: Bool { followed != nil || feel != nil }

  public var answered: Int { (followed == nil ? 0 : 1) + [feel, blocker].compactMap { $0 }.count }
}

/// What kind of craving a help request was about.
public enum HelpCategory: String, CaseIterable, Codable, Sendable {
  case stress, habit, physical, other

  /// Its words, as coach.plan gives the need-help flow's category question.
  public var label: String { CoachPlan.label("need-help", "category", option: rawValue) }
}

/// A tagged note captured by the I-need-help flow; several a day are kept.
public struct HelpNote: Codable, Equatable, Sendable {
  /// Stable identity, so that importing the same note twice keeps one.
  public var id: String
  public var day: Day
  public var category: HelpCategory
  public var note: String?
  /// What the mini-coach did ("breathing 2:00", "swap: water · trigger: place").
  public var coach: String?
  public var at: String

  public init(
    id: String, day: Day, category: HelpCategory, note: String?, coach: String? = nil, at: String
  ) {
    self.id = id
    self.day = day
    self.category = category
    self.note = note
    self.coach = coach
    self.at = at
  }
}

extension HelpNote {
  /// Whether `a` was saved before `b`: by the instant, not the text of their time stamps
  /// (02:30+01:00 comes after 02:30+02:00 on a fall-back night); the same instant by id.
  public static func savedBefore(_ a: HelpNote, _ b: HelpNote) -> Bool {
    let (x, y) = (InstantFormat.parse(a.at), InstantFormat.parse(b.at))
    if x != y, let x, let y { return x < y }
    return (a.at, a.id) < (b.at, b.id)
  }
}
