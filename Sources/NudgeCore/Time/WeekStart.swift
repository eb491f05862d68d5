/// The day a week begins on (`nudge config set week-start`, else the locale's first weekday):
/// what `week`, the heatmaps and every N-per-week period count weeks from.
public enum WeekStart: String, CaseIterable, Sendable {
  case monday, sunday, saturday

  /// Its weekday, as `Day.weekday` numbers them (0 Sunday … 6 Saturday).
  public var weekday: Int {
    switch self {
    case .monday: 1
    case .sunday: 0
    case .saturday: 6
    }
  }

  /// The first day of the week `day` is in.
  public func firstDay(of day: Day) -> Day {
    day.adding(days: -((day.weekday - weekday + 7) % 7))
  }

  /// The week's days' short names, first to last ("Mon" … "Sun" for a Monday start).
  public var dayNames: [String] {
    let names = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    return (0..<7).map { names[(weekday + $0) % 7] }
  }

  /// The first day of each of the last `count` weeks, oldest first, the last one holding
  /// `today`.
  public func firstDays(_ count: Int, today: Day) -> [Day] {
    let this = firstDay(of: today)
    return (0..<count).map { this.adding(days: -7 * (count - 1 - $0)) }
  }

  /// The start a C library locale gives (`locale first_weekday`: the `first_weekday`-th day,
  /// from 1, counted from the day `week-1stday` names, a date as YYYYMMDD); nil for a day
  /// other than these three, or numbers that do not read.
  public static func ofLocale(firstWeekday: Int, weekOneStartsOn yyyymmdd: Int) -> WeekStart? {
    let (y, m, d) = (yyyymmdd / 10000, yyyymmdd / 100 % 100, yyyymmdd % 100)
    guard (1...7).contains(firstWeekday), (1...9999).contains(y), (1...12).contains(m),
      (1...Day.daysIn(month: m, year: y)).contains(d)
    else { return nil }
    let base = Day(year: y, month: m, day: d)
    let weekday = (base.weekday + firstWeekday - 1) % 7
    return allCases.first { $0.weekday == weekday }
  }
}
