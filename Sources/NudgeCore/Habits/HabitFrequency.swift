/// How often a habit is wanted (`--every`): every day, on some weekdays, a number of times a
/// week or a month, or once every few days.
public enum HabitFrequency: Hashable, Sendable {
  case daily
  /// On these weekdays (0 = Sunday … 6 = Saturday); every other day is not due.
  case weekdays(Set<Int>)
  /// This many times in each week, Monday to Sunday.
  case timesPerWeek(Int)
  /// This many times in each calendar month.
  case timesPerMonth(Int)
  /// Once in each run of this many days, counted from the habit's first day.
  case everyDays(Int)

  /// What `--every` takes, for messages.
  public static let allowed =
    "daily, weekdays, weekends, days such as Mon,Wed,Fri, N/week (1-7), N/month (1-28) or 'every N days' (2-365)"

  /// Reads `--every`: `daily`, `weekdays`, `weekends`, `weekly`, `Mon,Wed,Fri`, `3/week`,
  /// `2/month`, `every 3 days`; an error says what is allowed.
  public static func parse(_ text: String) throws(InputError) -> HabitFrequency {
    let words = text.lowercased().trimmingSpaces
    switch words {
    case "daily", "every day", "1/day": return .daily
    case "weekdays": return .weekdays([1, 2, 3, 4, 5])
    case "weekends": return .weekdays([0, 6])
    case "weekly": return .timesPerWeek(1)
    case "monthly": return .timesPerMonth(1)
    default: break
    }
    func count(_ digits: Substring, in range: ClosedRange<Int>, per: String) throws(InputError)
      -> Int
    {
      guard let n = Int(digits), digits.allSatisfy(\.isASCII) else {
        throw InputError("'\(text)' is not a frequency; write \(allowed).")
      }
      guard range.contains(n) else {
        throw InputError(
          "'\(text)' can't be met: a \(per) has room for \(range.lowerBound) to \(range.upperBound) times; write \(allowed)"
        )
      }
      return n
    }
    if let slash = words.firstIndex(of: "/") {
      let per = words[words.index(after: slash)...]
      let number = words[..<slash]
      switch per {
      case "week", "w", "wk": return .timesPerWeek(try count(number, in: 1...7, per: "week"))
      case "month", "m", "mo":
        return .timesPerMonth(try count(number, in: 1...28, per: "month"))
      default: throw InputError("'\(text)' is not a frequency; write \(allowed).")
      }
    }
    let parts = words.split(separator: " ")
    if parts.count == 3, parts[0] == "every", parts[2] == "days" || parts[2] == "day" {
      let n = try count(parts[1], in: 1...365, per: "run of days")
      return n == 1 ? .daily : .everyDays(n)
    }
    var days = Set<Int>()
    for word in words.split(whereSeparator: { $0 == "," || $0 == " " }) {
      guard let name = PlainTime.weekday(String(word)) else {
        throw InputError("'\(text)' is not a frequency; write \(allowed).")
      }
      days.insert(["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"].firstIndex(of: name)!)
    }
    guard !days.isEmpty else { throw InputError("a frequency is needed; write \(allowed)") }
    return days.count == 7 ? .daily : .weekdays(days)
  }

  /// The words `parse` reads back: `daily`, `weekdays`, `Mon,Wed,Fri`, `3/week`, `every 3 days`.
  public var description: String {
    switch self {
    case .daily: return "daily"
    case .weekdays(let days):
      if days == [1, 2, 3, 4, 5] { return "weekdays" }
      if days == [0, 6] { return "weekends" }
      let names = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
      // Monday first, as a week is read
      return [1, 2, 3, 4, 5, 6, 0].filter(days.contains).map { names[$0] }.joined(separator: ",")
    case .timesPerWeek(let n): return "\(n)/week"
    case .timesPerMonth(let n): return "\(n)/month"
    case .everyDays(let n): return "every \(n) days"
    }
  }

  /// How many times a period needs it done.
  public var timesPerPeriod: Int {
    switch self {
    case .daily, .weekdays, .everyDays: 1
    case .timesPerWeek(let n), .timesPerMonth(let n): n
    }
  }

  /// Whether each day is wanted on its own (daily, or on its weekdays), not a number of times
  /// in a period: a day it is due with nothing done is a miss.
  public var isDayByDay: Bool {
    switch self {
    case .daily, .weekdays: true
    case .timesPerWeek, .timesPerMonth, .everyDays: false
    }
  }

  /// What its streak counts: `days`, `weeks`, `months` or `periods` (of every N days).
  public var streakUnit: String {
    switch self {
    case .daily, .weekdays: "days"
    case .timesPerWeek: "weeks"
    case .timesPerMonth: "months"
    case .everyDays: "periods"
    }
  }

  /// Loop Habit Tracker's numerator and denominator: so many times in so many days.
  public var loopRatio: (numerator: Int, denominator: Int) {
    switch self {
    case .daily: (1, 1)
    case .weekdays(let days): (days.count, 7)
    case .timesPerWeek(let n): (n, 7)
    case .timesPerMonth(let n): (n, 30)
    case .everyDays(let n): (1, n)
    }
  }

  /// The first day of the period `day` is in: the day itself for a day-by-day habit, the
  /// first day of its week (as `weekStart` begins them), the first of its month, or the start
  /// of its run of N days counted from `start`.
  public func periodStart(of day: Day, start: Day, weekStart: WeekStart = .monday) -> Day {
    switch self {
    case .daily, .weekdays: day
    case .timesPerWeek: weekStart.firstDay(of: day)
    case .timesPerMonth: Day(year: day.year, month: day.month, day: 1)
    case .everyDays(let n):
      start.adding(days: Int((Double(day.ordinal - start.ordinal) / Double(n)).rounded(.down)) * n)
    }
  }

  /// The last day of the period that starts on `first`.
  public func periodEnd(from first: Day) -> Day {
    switch self {
    case .daily, .weekdays: first
    case .timesPerWeek: first.adding(days: 6)
    case .timesPerMonth:
      Day(
        year: first.year, month: first.month, day: Day.daysIn(month: first.month, year: first.year))
    case .everyDays(let n): first.adding(days: n - 1)
    }
  }

  /// Whether a day-by-day habit is wanted on `day` (a period habit: any day of its period).
  public func isDue(on day: Day) -> Bool {
    if case .weekdays(let days) = self { return days.contains(day.weekday) }
    return true
  }
}
