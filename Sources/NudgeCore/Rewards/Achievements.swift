/// An achievement of DESIGN §2: earned once, on the day its condition first holds. The coach's
/// twelve and the sleep plan's two are compiled in; every flow a plan file defines has its own
/// first (`firstOf`, its title the flow's `first`).
public enum Achievement: Hashable, CaseIterable, Codable, Sendable, RawRepresentable {
  case firstPrep, firstReview, firstCheckin, firstHelp
  case streak3, streak7, streak14, streak30, streak100
  case morningWeek, perfectWeek, swaps10
  /// The sleep plan's: seven challenges completed; seven nights in a row in bed within half
  /// an hour of each other.
  case sleepChallenges7, sleepSteadyWeek
  /// The person's own habits: the first done, and one habit done on 7, 30 and 100 days.
  case firstHabit, habitDays7, habitDays30, habitDays100
  /// A habit to quit (`--quit`) kept clear of 7, 30 and 100 days in a row.
  case quitDays7, quitDays30, quitDays100
  /// The first entry of a flow a plan file defines, by the flow's word (key `first-WORD`).
  case firstOf(String)

  /// The compiled-in ones, in the order they are listed.
  public static let allCases: [Achievement] = [
    .firstPrep, .firstReview, .firstCheckin, .firstHelp, .streak3, .streak7, .streak14,
    .streak30, .streak100, .morningWeek, .perfectWeek, .swaps10, .sleepChallenges7,
    .sleepSteadyWeek, .firstHabit, .habitDays7, .habitDays30, .habitDays100, .quitDays7,
    .quitDays30, .quitDays100,
  ]

  /// The habits' own (listed once a habit is there, or once earned).
  public static let habitOnes: Set<Achievement> = [
    .firstHabit, .habitDays7, .habitDays30, .habitDays100, .quitDays7, .quitDays30, .quitDays100,
  ]

  /// The sleep plan's own (listed while it is on, or once earned).
  public static let sleepPlans: Set<Achievement> = [.sleepChallenges7, .sleepSteadyWeek]

  public var rawValue: String {
    switch self {
    case .firstPrep: "first-prep"
    case .firstReview: "first-review"
    case .firstCheckin: "first-checkin"
    case .firstHelp: "first-help"
    case .streak3: "streak-3"
    case .streak7: "streak-7"
    case .streak14: "streak-14"
    case .streak30: "streak-30"
    case .streak100: "streak-100"
    case .morningWeek: "morning-week"
    case .perfectWeek: "perfect-week"
    case .swaps10: "swaps-10"
    case .sleepChallenges7: "sleep-challenges-7"
    case .sleepSteadyWeek: "sleep-steady-week"
    case .firstHabit: "habit-first"
    case .habitDays7: "habit-days-7"
    case .habitDays30: "habit-days-30"
    case .habitDays100: "habit-days-100"
    case .quitDays7: "quit-days-7"
    case .quitDays30: "quit-days-30"
    case .quitDays100: "quit-days-100"
    case .firstOf(let word): "first-" + word
    }
  }

  /// A compiled-in key, or `first-WORD` for a word of the shape plan files allow.
  public init?(rawValue: String) {
    if let known = Self.allCases.first(where: { $0.rawValue == rawValue }) {
      self = known
    } else if rawValue.hasPrefix("first-"), FlowDefinition.isWord(rawValue.dropFirst(6)) {
      self = .firstOf(String(rawValue.dropFirst(6)))
    } else {
      return nil
    }
  }

  public var title: String {
    switch self {
    case .firstPrep: CoachPlan.flow("prep").first
    case .firstReview: CoachPlan.flow("review").first
    case .firstCheckin: CoachPlan.flow("checkin").first
    case .firstHelp: CoachPlan.flow("need-help").first
    case .streak3: "3-day streak"
    case .streak7: "7-day streak"
    case .streak14: "14-day streak"
    case .streak30: "30-day streak"
    case .streak100: "100-day streak"
    case .morningWeek: "Morning week"
    case .perfectWeek: "Perfect week"
    case .swaps10: "10 swaps"
    case .sleepChallenges7: "7 sleep challenges"
    case .sleepSteadyWeek: "A steady week of sleep"
    case .firstHabit: "First habit done"
    case .habitDays7: "A habit on 7 days"
    case .habitDays30: "A habit on 30 days"
    case .habitDays100: "A habit on 100 days"
    case .quitDays7: "7 clean days"
    case .quitDays30: "30 clean days"
    case .quitDays100: "100 clean days"
    case .firstOf(let word): "First \(word)"
    }
  }

  /// A flow done for the first time (a first, not a milestone).
  public var isFirst: Bool {
    switch self {
    case .firstPrep, .firstReview, .firstCheckin, .firstHelp, .firstOf, .firstHabit: true
    default: false
    }
  }

  /// What it takes, shown while it is locked.
  public var requirement: String {
    switch self {
    case .firstPrep: "Prep tonight once."
    case .firstReview: "Do a Morning Focus once."
    case .firstCheckin: "Check in at the end of a day once."
    case .firstHelp: "Use 'I need help' once. Asking is a win."
    case .streak3, .streak30, .streak100:
      "Keep a \(streakLength!)-day streak."
    case .streak7, .streak14:
      "Keep a \(streakLength!)-day streak (it earns a streak freeze: a missed day won't break it)."
    case .morningWeek: "Do the Morning Focus 7 days in a row."
    case .perfectWeek: "Prep, review and check in on each of 7 days in a row."
    case .swaps10: "Follow your swap in 10 check-ins."
    case .sleepChallenges7: "Complete 7 sleep challenges (nudge challenge)."
    case .sleepSteadyWeek: "Log 7 nights in a row with bedtimes within 30 minutes of each other."
    case .firstHabit: "Mark a habit of your own done once (nudge habit done)."
    case .habitDays7, .habitDays30, .habitDays100:
      "Do one of your habits on \(habitDays!) days (met: a measurable one's target reached)."
    case .quitDays7, .quitDays30, .quitDays100:
      "Keep clear of a habit you quit (--quit) \(quitDays!) days in a row (nudge habit slip records a slip)."
    case .firstOf(let word): "Do 'nudge \(word)' once."
    }
  }

  /// The clean days in a row a quit milestone takes.
  var quitDays: Int? {
    switch self {
    case .quitDays7: 7
    case .quitDays30: 30
    case .quitDays100: 100
    default: nil
    }
  }

  /// The days of one habit a habit milestone takes.
  var habitDays: Int? {
    switch self {
    case .habitDays7: 7
    case .habitDays30: 30
    case .habitDays100: 100
    default: nil
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

/// A habit to quit as its achievements read it: the day it began, its slips, and the last day
/// recorded of it (a clean day or a slip), through which its runs are counted.
public struct QuitRecord: Equatable, Sendable {
  public var since: Day
  public var slips: Set<Day>
  public var through: Day

  public init(since: Day, slips: Set<Day>, through: Day) {
    self.since = since
    self.slips = slips
    self.through = through
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
  /// Days off (`nudge pause`): a streak waits over them.
  public var pausedDays: Set<Day> = []
  /// Days with an entry of a flow a plan file defines (they count for streaks too).
  public var definedDays: Set<Day> = []
  /// The first day of each defined flow with an entry, by its word.
  public var definedFirsts: [String: Day] = [:]
  /// The sleep plan's nights (bedtimes, minutes after midnight) and its days of a challenge
  /// completed.
  public var bedtimes: [Day: Int] = [:]
  public var challengesCompleted: Set<Day> = []
  /// Each habit's days done (meeting it), oldest first, one list a habit.
  public var habitDays: [[Day]] = []
  /// Each habit to quit: the day it began, its slips, and the last day recorded of it (a clean
  /// day or a slip): its runs are counted through that day.
  public var quitHabits: [QuitRecord] = []

  public init(
    prepDays: Set<Day> = [], reviewDays: Set<Day> = [], checkinDays: Set<Day> = [],
    helpDays: Set<Day> = [], followedDays: Set<Day> = [], pausedDays: Set<Day> = [],
    definedDays: Set<Day> = [], definedFirsts: [String: Day] = [:], bedtimes: [Day: Int] = [:],
    challengesCompleted: Set<Day> = []
  ) {
    self.pausedDays = pausedDays
    self.definedDays = definedDays
    self.definedFirsts = definedFirsts
    self.bedtimes = bedtimes
    self.challengesCompleted = challengesCompleted
    self.prepDays = prepDays
    self.reviewDays = reviewDays
    self.checkinDays = checkinDays
    self.helpDays = helpDays
    self.followedDays = followedDays
  }

  /// The facts of the days each flow has an entry on (help notes: days with one).
  public init(daysByFlow: [Flow: Set<Day>], pausedDays: Set<Day> = []) {
    self.init(
      prepDays: daysByFlow[.prep] ?? [], reviewDays: daysByFlow[.review] ?? [],
      checkinDays: daysByFlow[.checkin] ?? [], helpDays: daysByFlow[.needHelp] ?? [],
      pausedDays: pausedDays)
    for (flow, days) in daysByFlow {
      guard let word = flow.definedWord else { continue }
      definedDays.formUnion(days)
      if let first = days.min() { definedFirsts[word] = first }
    }
  }

  public var doneDays: Set<Day> {
    prepDays.union(reviewDays).union(checkinDays).union(helpDays).union(definedDays)
  }
}

/// Decides every achievement as a pure function of history.
public enum AchievementRule {
  /// The day each achievement's condition first held; absent when it never has.
  public static func evaluate(_ facts: HistoryFacts) -> [Achievement: Day] {
    // one bit per set of days, in the order the grid is given them
    let grid = DayGrid([
      facts.prepDays, facts.reviewDays, facts.checkinDays, facts.helpDays, facts.followedDays,
      facts.pausedDays, facts.definedDays,
    ])
    let day = { (ordinal: Int?) in ordinal.map(Day.init(ordinal:)) }
    var earned: [Achievement: Day] = [:]
    earned[.firstPrep] = day(grid.first(HistoryBits.prep.rawValue))
    earned[.firstReview] = day(grid.first(HistoryBits.review.rawValue))
    earned[.firstCheckin] = day(grid.first(HistoryBits.checkin.rawValue))
    earned[.firstHelp] = day(grid.first(HistoryBits.help.rawValue))
    let done = HistoryBits.done.rawValue
    if let last = grid.last(done) {
      var pending = Achievement.allCases.compactMap { a in a.streakLength.map { (a, $0) } }
      _ = StreakRule.Walk(grid, mask: done, paused: HistoryBits.paused.rawValue, through: last) {
        ordinal, length in
        guard !pending.isEmpty else { return }
        pending.removeAll { achievement, needed in
          guard length >= needed else { return false }
          earned[achievement] = Day(ordinal: ordinal)
          return true
        }
      }
    }
    earned[.morningWeek] = day(grid.firstRun(of: 7, all: HistoryBits.review.rawValue))
    let everyFlow: HistoryBits = [.prep, .review, .checkin]
    earned[.perfectWeek] = day(grid.firstRun(of: 7, all: everyFlow.rawValue))
    earned[.swaps10] = day(grid.nth(10, HistoryBits.followed.rawValue))
    for (word, first) in facts.definedFirsts { earned[.firstOf(word)] = first }
    let completed = facts.challengesCompleted.sorted()
    if completed.count >= 7 { earned[.sleepChallenges7] = completed[6] }
    earned[.sleepSteadyWeek] = SleepCoach.firstSteadyWeek(facts.bedtimes)
    earned[.firstHabit] = facts.habitDays.compactMap(\.first).min()
    for achievement in [Achievement.habitDays7, .habitDays30, .habitDays100] {
      let n = achievement.habitDays!
      earned[achievement] = facts.habitDays.compactMap { $0.count >= n ? $0[n - 1] : nil }.min()
    }
    for achievement in [Achievement.quitDays7, .quitDays30, .quitDays100] {
      let n = achievement.quitDays!
      earned[achievement] = facts.quitHabits.compactMap { quit -> Day? in
        var run = 0
        var day = quit.since
        while day <= quit.through {
          run = quit.slips.contains(day) ? 0 : run + 1
          if run == n { return day }
          day = day.adding(days: 1)
        }
        return nil
      }.min()
    }
    return earned
  }
}

/// What a day of history holds, as the bits of its `DayGrid` cell (the order of the sets in
/// `AchievementRule.evaluate`).
struct HistoryBits: OptionSet {
  let rawValue: UInt8

  static let prep = HistoryBits(rawValue: 1 << 0)
  static let review = HistoryBits(rawValue: 1 << 1)
  static let checkin = HistoryBits(rawValue: 1 << 2)
  static let help = HistoryBits(rawValue: 1 << 3)
  /// The check-in said the swap was followed.
  static let followed = HistoryBits(rawValue: 1 << 4)
  /// A day off (`nudge pause`).
  static let paused = HistoryBits(rawValue: 1 << 5)
  /// An entry of a flow a plan file defines.
  static let defined = HistoryBits(rawValue: 1 << 6)
  /// A day that counts for a streak: any flow finished.
  static let done: HistoryBits = [.prep, .review, .checkin, .help, .defined]
}

/// An achievement and the day it was earned (`nudge achievements --json`, exports).
public struct EarnedAchievement: Codable, Equatable, Sendable {
  public var key: Achievement
  public var earnedOn: Day

  public init(key: Achievement, earnedOn: Day) {
    self.key = key
    self.earnedOn = earnedOn
  }
}
