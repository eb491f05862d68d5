/// How big a celebration is.
public enum CelebrationTier: String, CaseIterable, Codable, Sendable {
  case quiet, spark, confetti, fireworks

  /// Weights in percent (DESIGN §2: about 50/30/15/5).
  public var weight: Int {
    switch self {
    case .quiet: 50
    case .spark: 30
    case .confetti: 15
    case .fireworks: 5
    }
  }

  /// The tier's everyday phrases (a moment of its own has its own: `CelebrationMoment`).
  public var messages: [String] {
    switch self {
    case .quiet:
      [
        "Done.", "Saved. Nice and steady.", "Logged.", "One more small step.", "That counts.",
        "Noted. Steady does it.", "In the book.", "Another day with a plan.", "Quietly done.",
        "Small, and it adds up.", "Kept.", "That's the loop working.", "Tick.",
        "Done, and on to the day.", "Good. That's enough for now.",
      ]
    case .spark:
      [
        "Nice work!", "That's the habit forming.", "Small steps, real change.",
        "You showed up today.", "Another brick in the wall of habit.", "Nicely done.",
        "That's one for the streak.", "Habits are built exactly like this.", "Well kept.",
        "Good move, made on purpose.", "You kept your word to yourself.",
        "Thirty seconds well spent.", "That one counted.", "Another yes to the plan.",
        "Steady hands, steady habits.",
      ]
    case .confetti:
      [
        "Look at you go!", "That's how it's done!", "Your future self says thanks!",
        "Consistency looks good on you!", "Confetti for the quiet wins!",
        "That's a habit taking root!", "You make this look easy!",
        "Another good day in the making!",
        "Show up, check off, celebrate!", "This is the fun part!", "Small win, big smile!",
        "Keep that rhythm going!",
      ]
    case .fireworks:
      [
        "Outstanding!", "You are on fire!", "Big day. Enjoy it!", "This is what change feels like!",
        "Fireworks, because you earned them!", "What a streak of good choices!",
        "Look at what you are building!", "That deserves a proper celebration!",
        "Huge. Really.", "You are proving it to yourself!", "Now that is a win worth marking!",
        "Light it up: you did it!",
      ]
    }
  }
}

/// What kind of moment a finished flow is: a first time, a return after a break, a
/// milestone, or an ordinary day. The wording fits it ("You are on fire!" is no way to greet a
/// first prep).
public enum CelebrationMoment: String, CaseIterable, Codable, Sendable {
  case regular, first, comeback, milestone

  /// The moment's own phrases (the ordinary day uses the tier's).
  public var messages: [String] {
    switch self {
    case .regular: []
    case .first:
      [
        "A first step. The hardest one is done.", "That's the first one. Welcome to the loop.",
        "Day one of something good.", "First one in the book.",
        "Everything starts with a first time. This is yours.",
        "You started. That's the part most people skip.", "The first of many. Nicely begun.",
        "New habit, first brick laid.", "That's how every streak begins.",
        "First time done. It gets easier from here.", "Hello, new routine.",
      ]
    case .comeback:
      [
        "Welcome back. Picking it up again is the habit.",
        "You came back. That matters more than any streak.", "Back at it. Today counts.",
        "A fresh start, right on time.", "Good to see you again. One step and you're back in.",
        "Returning is a skill, and you just used it.", "The door was open. You walked back in.",
        "Breaks happen. Coming back is what counts.", "Right back on track.",
        "Missed days don't undo what you built.", "Welcome back to the loop.",
      ]
    case .milestone:
      [
        "A milestone! Look how far you've come.", "That's a streak worth being proud of.",
        "Days add up. This is what they add up to.",
        "Milestone reached. Your future self is cheering.", "Consistency, made visible.",
        "Look at that streak grow!", "Another milestone on the board!",
        "This streak is real, and it's yours.", "Look back at the days behind you. All yours.",
        "A new high-water mark!", "Steady days, big result.",
      ]
    }
  }

  /// The moment a save is, from what it newly earned and the days done before it: a first
  /// flow of a kind, a streak or weekly achievement, or the first flow of a day after two or
  /// more days without one.
  public static func of(
    newAchievements: [Achievement], previousDoneDay: Day?, day: Day, firstOfDay: Bool
  ) -> CelebrationMoment {
    if newAchievements.contains(where: { !$0.isFirst }) { return .milestone }
    if !newAchievements.isEmpty { return .first }
    if firstOfDay, let previous = previousDoneDay, day.ordinal - previous.ordinal >= 3 {
      return .comeback
    }
    return .regular
  }
}

/// A drawn celebration: its tier, its message and the achievements it announces.
public struct Celebration: Equatable, Sendable, Codable {
  public var tier: CelebrationTier
  public var message: String
  public var achievements: [Achievement]

  public init(tier: CelebrationTier, message: String, achievements: [Achievement] = []) {
    self.tier = tier
    self.message = message
    self.achievements = achievements
  }
}

/// SplitMix64: a tiny seedable generator, so `NUDGE_SEED` makes rewards reproducible.
public struct SplitMix64: RandomNumberGenerator, Sendable {
  private var state: UInt64

  public init(seed: UInt64) { state = seed }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Draws the variable reward for a completed flow.
public enum RewardPicker {
  /// How many of the latest messages a new draw never repeats.
  public static let freshness = 10

  /// A new achievement always gets fireworks with its title; celebrations off gives quiet
  /// (still naming the achievement); a comeback at least a spark; otherwise the tier is drawn
  /// by weight. The message fits the moment and is none of `recentMessages` (the latest
  /// first) while the phrases last; past that, the one shown longest ago.
  public static func draw<R: RandomNumberGenerator>(
    using rng: inout R, newAchievements: [Achievement] = [], celebrationsOn: Bool = true,
    recentMessages: [String] = [], moment: CelebrationMoment = .regular
  ) -> Celebration {
    let tier: CelebrationTier
    var roll = Int.random(in: 0..<100, using: &rng)
    if !celebrationsOn {
      tier = .quiet
    } else if !newAchievements.isEmpty {
      tier = .fireworks
    } else {
      let drawn =
        CelebrationTier.allCases.first { t in
          roll -= t.weight
          return roll < 0
        } ?? .quiet
      tier = moment == .comeback && drawn == .quiet ? .spark : drawn
    }
    let pool = celebrationsOn && !moment.messages.isEmpty ? moment.messages : tier.messages
    let recent = Array(recentMessages.prefix(freshness))
    let fresh = pool.filter { !recent.contains($0) }
    let message: String
    if fresh.isEmpty {
      // every phrase was shown lately: the one shown longest ago
      message = pool.max { (recent.firstIndex(of: $0) ?? 0) < (recent.firstIndex(of: $1) ?? 0) }!
    } else {
      message = fresh[Int.random(in: 0..<fresh.count, using: &rng)]
    }
    return Celebration(tier: tier, message: message, achievements: newAchievements)
  }
}

/// How a finished flow's reward is drawn: from a seed (`NUDGE_SEED`, else random per run) and
/// the number of draws so far, so a run can be replayed.
public struct RewardDraw: Sendable {
  public var seed: UInt64

  public init(seed: UInt64) { self.seed = seed }

  /// The celebration draw `number` gives, or nil: a day's entry saved again earns one only with
  /// a new achievement.
  public func celebration(
    number: UInt64, newAchievements: [Achievement], updated: Bool, celebrationsOn: Bool,
    recentMessages: [String], moment: CelebrationMoment = .regular
  ) -> Celebration? {
    if updated && newAchievements.isEmpty { return nil }
    var rng = SplitMix64(seed: seed &+ number &* 0x9E37_79B9_7F4A_7C15)
    return RewardPicker.draw(
      using: &rng, newAchievements: newAchievements, celebrationsOn: celebrationsOn,
      recentMessages: recentMessages, moment: moment)
  }

  /// The seed of the animation of draw `number` (a replay shows the same frames).
  public func animationSeed(_ number: UInt64) -> UInt64 { seed ^ number }
}

/// The heatmap of `nudge streak` (12 weeks unless `--weeks` says otherwise) and its ring of
/// the last 7 days: one column a week (Monday first), oldest first.
public enum Heatmap {
  /// What one cell shows.
  public enum Cell: Equatable, Sendable {
    /// Before the first day anything was done: nothing to count yet.
    case beforeFirstUse
    case done, frozen, missed
    /// A day off (`nudge pause`) with nothing done: the streak waited, nothing was missed.
    case paused
    /// Today, not done yet: still in progress, never a miss.
    case inProgress
    case future
  }

  /// The weeks `nudge streak` shows unless told otherwise.
  public static let defaultWeeks = 12
  /// How many weeks `--weeks` may ask for: one to a year's worth.
  public static let allowedWeeks = 1...53

  /// The Monday that starts each of the last `count` calendar weeks (Monday to Sunday).
  public static func mondays(_ count: Int, today: Day) -> [Day] {
    WeekStart.monday.firstDays(count, today: today)
  }

  /// The last `count` calendar weeks, seven cells each (`weekStart`'s day first), oldest week
  /// first. `paused`: the days off; one with a flow done shows done.
  /// `firstUse`: the first done day (when `doneDays` holds only the recent ones).
  public static func weeks(
    _ count: Int, today: Day, doneDays: Set<Day>, frozen: Set<Day>, paused: Set<Day> = [],
    firstUse: Day?? = nil, weekStart: WeekStart = .monday
  ) -> [[Cell]] {
    let firstUse = firstUse ?? doneDays.min()
    return weekStart.firstDays(count, today: today).map { monday in
      (0..<7).map { d in
        cell(monday.adding(days: d), today, doneDays, frozen, paused, firstUse)
      }
    }
  }

  /// The last 7 days ending today (what "this week" means in the ring and the today view).
  public static func lastSevenDays(
    today: Day, doneDays: Set<Day>, frozen: Set<Day>, paused: Set<Day> = [], firstUse: Day?? = nil
  ) -> [Cell] {
    let firstUse = firstUse ?? doneDays.min()
    return (0..<7).reversed().map {
      cell(today.adding(days: -$0), today, doneDays, frozen, paused, firstUse)
    }
  }

  /// The days off among those the ring and a heatmap of `weeks` weeks show up to today,
  /// oldest first: what `streak --json` reports as `paused_days`.
  public static func pausedDays(
    _ paused: Set<Day>, weeks: Int, today: Day, weekStart: WeekStart = .monday
  ) -> [Day] {
    let first = min(
      weekStart.firstDays(weeks, today: today).first ?? today, today.adding(days: -6))
    return paused.filter { first <= $0 && $0 <= today }.sorted()
  }

  static func cell(
    _ day: Day, _ today: Day, _ done: Set<Day>, _ frozen: Set<Day>, _ paused: Set<Day>,
    _ first: Day?
  ) -> Cell {
    if day > today { return .future }
    if done.contains(day) { return .done }
    // a day off is one whether or not anything was done before it
    if paused.contains(day) { return .paused }
    if day == today { return .inProgress }
    guard let first, day > first else { return .beforeFirstUse }
    return frozen.contains(day) ? .frozen : .missed
  }
}

/// A celebration as drawn, with its draw number: what the Replay button replays.
public struct StoredCelebration: Codable, Equatable, Sendable {
  public var number: UInt64
  public var celebration: Celebration

  public init(number: UInt64, celebration: Celebration) {
    self.number = number
    self.celebration = celebration
  }
}
