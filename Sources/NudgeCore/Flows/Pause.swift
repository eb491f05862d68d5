/// Days off — a holiday, sick days (`nudge pause`): no reminder fires, and a paused day not
/// done neither extends nor breaks a streak nor uses a freeze; a flow done on one still counts.
public struct Pause: Codable, Equatable, Sendable {
  public var firstDay: Day
  public var lastDay: Day

  public init(firstDay: Day, lastDay: Day) {
    self.firstDay = firstDay
    self.lastDay = lastDay
  }

  public func contains(_ day: Day) -> Bool { firstDay <= day && day <= lastDay }

  /// The pause's days up to `limit` (a pause is at most a year).
  public func days(through limit: Day) -> [Day] {
    guard firstDay <= min(lastDay, limit) else { return [] }
    return (firstDay.ordinal...min(lastDay, limit).ordinal).map(Day.init(ordinal:))
  }

  /// The longest pause Nudge takes.
  public static let maxDays = 365

  /// The last day of a pause that starts `today`: `--until DAY` (that day included: a date,
  /// today, tomorrow or a weekday, the next one from today) or `--for
  /// N d|w` (N days from today, today included); at most a year.
  public static func lastDay(until: String?, for length: String?, today: Day) throws(InputError)
    -> Day
  {
    let last: Day
    switch (until, length) {
    case (let until?, nil):
      guard let day = Day.named(until, today: today, toward: .future) else {
        throw InputError(
          "--until '\(until)' is not a day: use \(Day.wordsHint).\(Suggestion.hint(for: until, among: Day.dayWords))"
        )
      }
      last = day
    case (nil, let length?):
      let text = length.lowercased()
      let unit: Character = text.last == "w" ? "w" : "d"
      let number = text.last.map { $0 == "d" || $0 == "w" ? String(text.dropLast()) : text } ?? text
      guard number.allSatisfy(\.isNumber), let n = Int(number), n >= 1, n <= 10 * maxDays else {
        throw InputError(
          "--for '\(length)' is not a length: use a positive number of days or weeks, e.g. 5d or 2w."
        )
      }
      last = today.adding(days: (unit == "w" ? n * 7 : n) - 1)
    case (nil, nil):
      throw InputError(
        "say how long: --until DAY (tomorrow, friday, YYYY-MM-DD) or --for 5d (or 2w).")
    default:
      throw InputError("give --until or --for, not both.")
    }
    guard last >= today else {
      throw InputError("--until \(last) is in the past; a pause starts today.")
    }
    guard last.ordinal - today.ordinal < maxDays else {
      throw InputError("a pause lasts at most a year (until \(today.adding(days: maxDays - 1))).")
    }
    return last
  }
}
