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
    guard let first = doneDays.filter({ $0 <= today }).min() else {
      return StreakSummary(
        current: 0, longest: 0, todayDone: false, frozen: [], freezesHeld: 0, weekDone: 0)
    }
    var run = 0
    var longest = 0
    var sinceFreeze = 0
    var freezes = 0
    var frozen: [Day] = []
    var ordinal = first.ordinal
    let last = today.ordinal
    while ordinal <= last {
      let day = Day(ordinal: ordinal)
      if doneDays.contains(day) {
        run += 1
        sinceFreeze += 1
        if sinceFreeze == daysPerFreeze {
          freezes = min(maxFreezes, freezes + 1)
          sinceFreeze = 0
        }
        longest = max(longest, run)
      } else if ordinal == last {
        break  // today is pending: it never breaks a streak
      } else {
        let next = Day(ordinal: ordinal + 1)
        let singleGap = ordinal + 1 == last || doneDays.contains(next)
        if run > 0 && singleGap && freezes > 0 {
          freezes -= 1
          frozen.append(day)
          sinceFreeze = 0
        } else {
          run = 0
          sinceFreeze = 0
        }
      }
      ordinal += 1
    }
    return StreakSummary(
      current: run, longest: longest, todayDone: doneDays.contains(today), frozen: frozen,
      freezesHeld: freezes, weekDone: weekDone)
  }
}
