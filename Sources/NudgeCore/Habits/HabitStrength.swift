#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Loop Habit Tracker's habit strength: an exponential moving average of how much of the
/// wanted repetitions each day saw, as uhabits computes it (`Score.compute` and
/// `ScoreList.recompute` in uhabits-core/src/jvmMain/java/org/isoron/uhabits/core/models/,
/// iSoron/uhabits 5aa8744e), so a habit imported from Loop keeps the strength Loop showed.
///
/// Each day, oldest first: `score = previous × m + value × (1 − m)` with
/// `m = 0.5^(√frequency / 13)` and `frequency = numerator / denominator`. The day's value is
/// the share of the wanted amount done in the `denominator` days ending that day (capped at 1);
/// for a yes/no habit wanted less than daily, Loop doubles the window and the count (3 in 7 is
/// scored as 6 in 14) to smooth out irregular weeks. A skipped day leaves the score as it was.
/// The score starts at 0 (1 for a measurable "at most" habit) on the first recorded day; days
/// before it do not count.
public enum HabitStrength {
  /// One day's record for the score: nil = nothing recorded, .done(value) (value: 1 for a
  /// yes/no habit, the amount for a measurable one), .skipped, .failed (Loop's NO: nothing
  /// done, and a day the score starts from).
  public enum DayMark: Equatable, Sendable {
    case done(Double)
    case skipped
    case failed
  }

  /// Loop's constant: a daily habit's score moves halfway to the day's value in 13 days.
  public static let halfLifeDays = 13.0

  /// How much of the previous score a day keeps: `0.5^(√frequency / 13)`.
  public static func multiplier(frequency: Double) -> Double {
    pow(0.5, max(0, frequency).squareRoot() / halfLifeDays)
  }

  /// The score (0...1) at the end of the last day of `days` (oldest first, one element per
  /// calendar day, from the habit's first day through today), for a habit wanted `numerator`
  /// times per `denominator` days; `target` is the measurable habit's target over those
  /// `denominator` days (per day for a daily one; nil for yes/no), and `atMost` says the target
  /// is a ceiling ("at most 2 coffees") rather than a floor. A non-positive numerator or
  /// denominator is read as 1; an empty `days` scores 0.
  public static func score(
    days: [DayMark?], numerator: Int, denominator: Int, target: Double?, atMost: Bool = false
  ) -> Double {
    var wanted = max(1, numerator)
    var window = max(1, denominator)
    // Loop's Frequency: n times in n days is daily
    if wanted == window { (wanted, window) = (1, 1) }
    let frequency = Double(wanted) / Double(window)
    let m = multiplier(frequency: frequency)
    let isMeasurable = target != nil
    if !isMeasurable && frequency < 1 { (wanted, window) = (wanted * 2, window * 2) }
    // Loop scores from its oldest recorded day; with nothing recorded, from today alone
    guard let start = days.firstIndex(where: { $0 != nil }) ?? days.indices.last else { return 0 }

    // what a day adds to the rolling sum: for a measurable habit Loop sums the stored values
    // (thousandths, negatives as 0), where a skip is stored as 3, so it adds 0.003
    func amount(_ mark: DayMark?) -> Double {
      switch mark {
      case nil, .failed: 0
      case .skipped: isMeasurable ? 0.003 : 0
      case .done(let value):
        // stored as whole thousandths in a 32-bit integer
        isMeasurable && !value.isNaN
          ? (min(max(value, 0), Double(Int32.max) / 1000) * 1000).rounded() / 1000
          : (isMeasurable ? 0 : 1)
      }
    }

    var score = isMeasurable && atMost ? 1.0 : 0.0
    var rollingSum = 0.0
    for index in start..<days.count {
      rollingSum += amount(days[index])
      if index - window >= start { rollingSum -= amount(days[index - window]) }
      if days[index] == .skipped { continue }
      var done: Double
      if let target {
        if !atMost {
          done = target > 0 ? min(1, rollingSum / target) : 1
        } else if target > 0 {
          done = min(1, max(0, 1 - (rollingSum - target) / target))
        } else {
          done = rollingSum > 0 ? 0 : 1
        }
      } else {
        done = min(1, rollingSum / Double(wanted))
      }
      // a day said no is a miss, whatever a limit's sum says (nothing taken is within it)
      if days[index] == .failed { done = 0 }
      score = score * m + done * (1 - m)
    }
    return score
  }
}
