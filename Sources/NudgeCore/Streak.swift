/// Current and longest streak of done days, with freezes (DESIGN §2).
public struct StreakSummary: Equatable, Sendable {
  public var current: Int
  public var longest: Int
  public var todayDone: Bool
  /// Missed days a held freeze covered, oldest first.
  public var frozen: [Day]
  public var freezesHeld: Int
  /// Done days among the last 7 (today included).
  public var weekDone: Int

  public init(
    current: Int, longest: Int, todayDone: Bool, frozen: [Day], freezesHeld: Int, weekDone: Int
  ) {
    self.current = current
    self.longest = longest
    self.todayDone = todayDone
    self.frozen = frozen
    self.freezesHeld = freezesHeld
    self.weekDone = weekDone
  }
}

/// Evaluates streaks as a pure function of the set of done days and today.
public enum StreakRule {
  public static let daysPerFreeze = 7
  public static let maxFreezes = 2

  /// Walks every day from the first done day to today. A day not done breaks the streak unless
  /// it is today (still pending), or a single missed day covered by a held freeze; a frozen day
  /// keeps the streak alive without adding to its length.
  public static func evaluate(doneDays: Set<Day>, today: Day) -> StreakSummary {
    let weekDone = (0..<7).filter { doneDays.contains(today.adding(days: -$0)) }.count
    let walk = Walk(doneDays: doneDays, through: today)
    return StreakSummary(
      current: walk.run, longest: walk.longest, todayDone: doneDays.contains(today),
      frozen: walk.frozen, freezesHeld: walk.freezes, weekDone: weekDone)
  }

  /// The streak length on each done day, oldest first, as history stands.
  public static func runs(doneDays: Set<Day>) -> [(Day, Int)] {
    guard let last = doneDays.max() else { return [] }
    var out: [(Day, Int)] = []
    _ = Walk(doneDays: doneDays, through: last) { out.append(($0, $1)) }
    return out
  }

  /// One pass over the days from the first done day through `last`.
  struct Walk {
    var run = 0
    var longest = 0
    var freezes = 0
    var frozen: [Day] = []

    init(doneDays: Set<Day>, through last: Day, onDone: (Day, Int) -> Void = { _, _ in }) {
      guard let first = doneDays.lazy.filter({ $0 <= last }).min() else { return }
      var sinceFreeze = 0
      var ordinal = first.ordinal
      let lastOrdinal = last.ordinal
      while ordinal <= lastOrdinal {
        let day = Day(ordinal: ordinal)
        if doneDays.contains(day) {
          run += 1
          sinceFreeze += 1
          if sinceFreeze == daysPerFreeze {
            freezes = min(maxFreezes, freezes + 1)
            sinceFreeze = 0
          }
          longest = max(longest, run)
          onDone(day, run)
        } else if ordinal != lastOrdinal {  // today pending never breaks a streak
          let singleGap =
            ordinal + 1 == lastOrdinal || doneDays.contains(Day(ordinal: ordinal + 1))
          if run > 0 && singleGap && freezes > 0 {
            freezes -= 1
            frozen.append(day)
          } else {
            run = 0
          }
          sinceFreeze = 0
        }
        ordinal += 1
      }
    }
  }
}
