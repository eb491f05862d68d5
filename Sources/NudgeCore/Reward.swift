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

  public var messages: [String] {
    switch self {
    case .quiet:
      ["Done.", "Saved. Nice and steady.", "Logged.", "One more small step.", "That counts."]
    case .spark:
      [
        "Nice work!", "That's the habit forming.", "Small steps, real change.",
        "You showed up today.", "Another brick in the wall of habit.",
      ]
    case .confetti:
      [
        "Look at you go!", "That's how it's done!", "Your future self says thanks!",
        "Consistency looks good on you!",
      ]
    case .fireworks:
      [
        "Outstanding!", "You are on fire!", "Big day. Enjoy it!", "This is what change feels like!",
      ]
    }
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
  /// A new achievement always gets fireworks with its title; celebrations off gives quiet
  /// (still naming the achievement); otherwise the tier is drawn by weight. The message never
  /// repeats `previousMessage`.
  public static func draw<R: RandomNumberGenerator>(
    using rng: inout R, newAchievements: [Achievement] = [], celebrationsOn: Bool = true,
    previousMessage: String? = nil
  ) -> Celebration {
    let tier: CelebrationTier
    if !celebrationsOn {
      tier = .quiet
    } else if !newAchievements.isEmpty {
      tier = .fireworks
    } else {
      var roll = Int.random(in: 0..<100, using: &rng)
      tier =
        CelebrationTier.allCases.first { t in
          roll -= t.weight
          return roll < 0
        } ?? .quiet
    }
    let messages = tier.messages
    var index = Int.random(in: 0..<messages.count, using: &rng)
    if messages[index] == previousMessage { index = (index + 1) % messages.count }
    return Celebration(tier: tier, message: messages[index], achievements: newAchievements)
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
    previousMessage: String?
  ) -> Celebration? {
    if updated && newAchievements.isEmpty { return nil }
    var rng = SplitMix64(seed: seed &+ number &* 0x9E37_79B9_7F4A_7C15)
    return RewardPicker.draw(
      using: &rng, newAchievements: newAchievements, celebrationsOn: celebrationsOn,
      previousMessage: previousMessage)
  }

  /// The seed of the animation of draw `number` (a replay shows the same frames).
  public func animationSeed(_ number: UInt64) -> UInt64 { seed ^ number }
}

/// The 12-week heatmap of `nudge streak`: one column a week (Monday first), oldest first.
public enum Heatmap {
  /// What one cell shows.
  public enum Cell: Equatable, Sendable {
    /// Before the first day anything was done: nothing to count yet.
    case beforeFirstUse
    case done, frozen, missed
    /// Today, not done yet: still in progress, never a miss.
    case inProgress
    case future
  }

  /// The Monday that starts each of the last `count` calendar weeks (Monday to Sunday).
  public static func mondays(_ count: Int, today: Day) -> [Day] {
    let thisMonday = today.adding(days: -((today.weekday + 6) % 7))
    return (0..<count).map { thisMonday.adding(days: -7 * (count - 1 - $0)) }
  }

  public static func weeks(
    _ count: Int, today: Day, doneDays: Set<Day>, frozen: Set<Day>
  ) -> [[Cell]] {
    let firstUse = doneDays.min()
    return mondays(count, today: today).map { monday in
      (0..<7).map { d in cell(monday.adding(days: d), today, doneDays, frozen, firstUse) }
    }
  }

  /// The last 7 days ending today (what "this week" means in the ring and the today view).
  public static func lastSevenDays(today: Day, doneDays: Set<Day>, frozen: Set<Day>) -> [Cell] {
    let firstUse = doneDays.min()
    return (0..<7).reversed().map {
      cell(today.adding(days: -$0), today, doneDays, frozen, firstUse)
    }
  }

  static func cell(_ day: Day, _ today: Day, _ done: Set<Day>, _ frozen: Set<Day>, _ first: Day?)
    -> Cell
  {
    if day > today { return .future }
    if done.contains(day) { return .done }
    if day == today { return .inProgress }
    guard let first, day > first else { return .beforeFirstUse }
    return frozen.contains(day) ? .frozen : .missed
  }
}
