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

  /// The same days off as pauses that do not overlap (two computers may each have paused days
  /// the other did): each starts after the one before it ends, one left with no day of its own
  /// is dropped. What an export writes, so its import takes it.
  public static func disjoint(_ pauses: [Pause]) -> [Pause] {
    var out: [Pause] = []
    for pause in pauses.sorted(by: { ($0.firstDay, $0.lastDay) < ($1.firstDay, $1.lastDay) }) {
      var next = pause
      if let last = out.last, last.lastDay >= next.firstDay {
        next.firstDay = last.lastDay.adding(days: 1)
      }
      if next.firstDay <= next.lastDay { out.append(next) }
    }
    return out
  }

  /// The pause's days up to `limit` (a pause is at most a year).
  public func days(through limit: Day) -> [Day] {
    guard firstDay <= min(lastDay, limit) else { return [] }
    return (firstDay.ordinal...min(lastDay, limit).ordinal).map(Day.init(ordinal:))
  }

  /// The longest pause Nudge takes.
  public static let maxDays = 365

  /// How many days back a pause can start: the days a flow can still be filled in.
  public static let backDays = 7

  /// The last day of a pause that starts `today`: `--until DAY` (that day included: a date,
  /// today, tomorrow or a weekday, the next one from today) or `--for
  /// N d|w` (N days from today, today included); at most a year.
  public static func lastDay(until: String?, for length: String?, today: Day) throws(InputError)
    -> Day
  {
    try days(from: nil, until: until, for: length, today: today).lastDay
  }

  /// The pause `--from DAY` (today when nil; a day ahead, or one at most `backDays` back: see
  /// `firstDay`) with `--until DAY` (a weekday: the first one on or after the first
  /// day) or `--for N d|w` (N days from the first, that day included); at most a year.
  public static func days(from: String?, until: String?, for length: String?, today: Day)
    throws(InputError) -> Pause
  {
    let first = try firstDay(from, today: today)
    let last: Day
    switch (until, length) {
    case (let until?, nil):
      let word = until.lowercased().trimmingSpaces
      let relative = ["today", "yesterday", "tomorrow"].contains(word) ? today : first
      guard let day = Day.named(until, today: relative, toward: .future) else {
        throw InputError(
          "--until '\(VisibleText.escaped(until))' is not a day: use \(Day.wordsHint).\(Suggestion.hint(for: VisibleText.escaped(until), among: Day.dayWords))"
        )
      }
      last = day
    case (nil, let length?):
      let text = length.lowercased()
      let unit: Character = text.last == "w" ? "w" : "d"
      let number = text.last.map { $0 == "d" || $0 == "w" ? String(text.dropLast()) : text } ?? text
      guard number.allSatisfy(\.isNumber), let n = Int(number), n >= 1, n <= 10 * maxDays else {
        throw InputError(
          "--for '\(VisibleText.escaped(length))' is not a length: use a positive number of days or weeks, e.g. 5d or 2w."
        )
      }
      last = first.adding(days: (unit == "w" ? n * 7 : n) - 1)
    case (nil, nil):
      throw InputError(
        "say how long: --until DAY (tomorrow, friday, YYYY-MM-DD) or --for 5d (or 2w).")
    default:
      throw InputError("give --until or --for, not both.")
    }
    guard last >= first else {
      throw InputError(
        first == today
          ? "--until \(last) is in the past; a pause starts today, on a day ahead (--from), or up to \(backDays) days back (--from)."
          : "--until \(last) is before --from \(first): the last day comes on or after the first.")
    }
    guard last.ordinal - first.ordinal < maxDays else {
      throw InputError("a pause lasts at most a year (until \(first.adding(days: maxDays - 1))).")
    }
    return Pause(firstDay: first, lastDay: last)
  }

  /// `--from`'s day: today when nil; a day ahead (a weekday is the next one, today included:
  /// "from friday" on a Thursday is tomorrow), at most a year ahead; or a past day (yesterday,
  /// "last friday", a date) at most `backDays` back.
  static func firstDay(_ from: String?, today: Day) throws(InputError) -> Day {
    guard let from else { return today }
    let earliest = today.adding(days: -backDays)
    let words = from.lowercased().split(separator: " ", omittingEmptySubsequences: true)
    let day: Day?
    if words.count == 2, words[0] == "last", PlainTime.weekday(String(words[1])) != nil {
      day = Day.named(String(words[1]), today: today.adding(days: -1), toward: .past)
    } else {
      day = Day.named(from, today: today, toward: .future)
    }
    guard let day else {
      throw InputError(
        "--from '\(VisibleText.escaped(from))' is not a day: use today, tomorrow, a weekday (the next one), 'last friday', yesterday or YYYY-MM-DD.\(Suggestion.hint(for: VisibleText.escaped(from), among: Day.dayWords))"
      )
    }
    guard day <= today.adding(days: maxDays) else {
      throw InputError(
        "--from \(day) is more than a year ahead: a pause can be planned up to \(today.adding(days: maxDays))."
      )
    }
    guard day >= earliest else {
      throw InputError(
        "--from \(day) is more than \(backDays) days back: days off can be marked back to \(earliest)."
      )
    }
    return day
  }

  /// Whether the pause is still ahead of `today`.
  public func isAhead(of today: Day) -> Bool { firstDay > today }

  /// The past days (before `today`) this pause marks.
  public func pastDays(today: Day) -> [Day] { days(through: today.adding(days: -1)) }
}
