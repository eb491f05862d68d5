/// An achievement of DESIGN §2: earned once, on the day its condition first holds.
public enum Achievement: String, CaseIterable, Codable, Sendable {
  case firstPrep = "first-prep"
  case firstReview = "first-review"
  case firstCheckin = "first-checkin"
  case firstHelp = "first-help"
  case streak3 = "streak-3"
  case streak7 = "streak-7"
  case streak14 = "streak-14"
  case streak30 = "streak-30"
  case streak100 = "streak-100"
  case morningWeek = "morning-week"
  case perfectWeek = "perfect-week"
  case swaps10 = "swaps-10"

  public var title: String {
    switch self {
    case .firstPrep: "First prep"
    case .firstReview: "First Morning Focus"
    case .firstCheckin: "First check-in"
    case .firstHelp: "Asked for help"
    case .streak3: "3-day streak"
    case .streak7: "7-day streak"
    case .streak14: "14-day streak"
    case .streak30: "30-day streak"
    case .streak100: "100-day streak"
    case .morningWeek: "Morning week"
    case .perfectWeek: "Perfect week"
    case .swaps10: "10 swaps"
    }
  }

  /// What it takes, shown while it is locked.
  public var requirement: String {
    switch self {
    case .firstPrep: "Prep tonight once."
    case .firstReview: "Do a Morning Focus once."
    case .firstCheckin: "Check in at the end of a day once."
    case .firstHelp: "Use 'I need help' once. Asking is a win."
    case .streak3, .streak7, .streak14, .streak30, .streak100:
      "Keep a \(streakLength!)-day streak."
    case .morningWeek: "Do the Morning Focus 7 days in a row."
    case .perfectWeek: "Prep, review and check in on each of 7 days in a row."
    case .swaps10: "Follow your swap in 10 check-ins."
    }
  }

  var streakLength: Int? {
    switch self {
    case .streak3: 3
    case .streak7: 7
    case .streak14: 14
    case .streak30: 30
    case .streak100: 100
    default: nil
    }
  }
}

/// The facts of history achievements are decided from: which days had which flow.
public struct HistoryFacts: Equatable, Sendable {
  public var prepDays: Set<Day>
  public var reviewDays: Set<Day>
  public var checkinDays: Set<Day>
  public var helpDays: Set<Day>
  /// Days whose check-in says the swap was followed.
  public var followedDays: Set<Day>

  public init(
    prepDays: Set<Day> = [], reviewDays: Set<Day> = [], checkinDays: Set<Day> = [],
    helpDays: Set<Day> = [], followedDays: Set<Day> = []
  ) {
    self.prepDays = prepDays
    self.reviewDays = reviewDays
    self.checkinDays = checkinDays
    self.helpDays = helpDays
    self.followedDays = followedDays
  }

  public var doneDays: Set<Day> { prepDays.union(reviewDays).union(checkinDays).union(helpDays) }
}

/// Decides every achievement as a pure function of history.
public enum AchievementRule {
  /// The day each achievement's condition first held; absent when it never has.
  public static func evaluate(_ facts: HistoryFacts) -> [Achievement: Day] {
    var earned: [Achievement: Day] = [:]
    earned[.firstPrep] = facts.prepDays.min()
    earned[.firstReview] = facts.reviewDays.min()
    earned[.firstCheckin] = facts.checkinDays.min()
    earned[.firstHelp] = facts.helpDays.min()
    for (day, length) in StreakRule.runs(doneDays: facts.doneDays) {
      for achievement in Achievement.allCases {
        if let needed = achievement.streakLength, length >= needed, earned[achievement] == nil {
          earned[achievement] = day
        }
      }
    }
    earned[.morningWeek] = firstDayOfRun(facts.reviewDays, length: 7)
    let perfect = facts.prepDays.intersection(facts.reviewDays).intersection(facts.checkinDays)
    earned[.perfectWeek] = firstDayOfRun(perfect, length: 7)
    let followed = facts.followedDays.sorted()
    if followed.count >= 10 { earned[.swaps10] = followed[9] }
    return earned
  }

  /// The last day of the first run of `length` consecutive days.
  static func firstDayOfRun(_ days: Set<Day>, length: Int) -> Day? {
    var run = 0
    var previous: Day? = nil
    for day in days.sorted() {
      run = previous.map { $0.adding(days: 1) == day } == true ? run + 1 : 1
      if run >= length { return day }
      previous = day
    }
    return nil
  }
}

/// An achievement and the day it was earned (`nudge achievements --json`, exports).
public struct EarnedAchievement: Codable, Equatable, Sendable {
  public var key: Achievement
  public var earnedOn: Day

  enum CodingKeys: String, CodingKey {
    case key
    case earnedOn = "earned_on"
  }

  public init(key: Achievement, earnedOn: Day) {
    self.key = key
    self.earnedOn = earnedOn
  }
}
