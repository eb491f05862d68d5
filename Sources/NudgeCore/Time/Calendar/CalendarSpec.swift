/// A systemd calendar expression (systemd.time(7), as systemd 252 reads it): parsed,
/// normalised, printed and stepped to its next elapse exactly as `systemd-analyze calendar`.
public struct CalendarSpec: Equatable, Sendable {
  /// One item of a component's list: a value, a range, and/or a repetition.
  struct Item: Equatable, Comparable, Sendable {
    var start: Int
    var stop: Int = -1
    var step: Int = 0

    static func < (a: Item, b: Item) -> Bool {
      (a.start, a.stop, a.step) < (b.start, b.stop, b.step)
    }
  }

  /// nil means `*` (any value).
  typealias Chain = [Item]?

  var weekdays = -1
  var year: Chain = nil
  var month: Chain = nil
  var day: Chain = nil
  var hour: Chain = nil
  var minute: Chain = nil
  /// Seconds in microseconds, as systemd keeps them.
  var microsecond: Chain = nil
  var endOfMonth = false
  var utc = false
  /// -1, or the local zone's standard (0) or daylight (1) name was given.
  var dst = -1
  var timezone: String?
  /// The local zone's names, to print a `dst` spec's suffix.
  var localNames: [String] = ["", ""]

  static let usecPerSec = 1_000_000
  static let minYear = 1970
  static let maxYear = 2199
  static let allWeekdays = 127

  /// Why an expression was refused, pointing at the part systemd would not take.
  public struct ParseError: Error, Equatable, Sendable {
    public let message: String
    public init(message: String) { self.message = message }
  }
}

extension CalendarSpec {
  /// How many times it elapses on a day it elapses at all (a DST change aside): the hours,
  /// minutes and seconds it names, multiplied ("*:*:*" 86400, "07:00" 1, "07,19:00" 2).
  public var timesADay: Int {
    Self.valueCount(hour, 0...23) * Self.valueCount(minute, 0...59)
      * Self.valueCount(microsecond, 0...(60 * Self.usecPerSec - 1))
  }

  /// Why this expression can be no reminder's time (nil: it can): one that fires more often
  /// than once a minute (`*:*:*`, `07:00:00/0.5`, `*:*:0/30`) is a timer, not a reminder, and a
  /// sub-second one has elapses the firing rule, which counts in seconds, could not tell apart.
  /// Every door that takes a reminder's time holds it to this (`schedule set`, a plan's slot, a
  /// habit's `--at`, an import, a sync line, `install`).
  public var reminderProblem: String? {
    let perMinute = Self.valueCount(microsecond, 0...(60 * Self.usecPerSec - 1))
    guard perMinute > 1 else { return nil }
    return
      "it fires \(perMinute >= 1_000_000 ? "more than a million" : String(perMinute)) times a minute, and a reminder fires at most once a minute"
  }

  /// How many values of `range` a component's chain names (nil, `*`: all of them); each item's
  /// values are counted up to a million (a repetition of a microsecond names 60 million).
  static func valueCount(_ chain: Chain, _ range: ClosedRange<Int>) -> Int {
    guard let chain else { return range.count }
    var named = Set<Int>()
    for item in chain {
      let last = item.stop >= 0 ? item.stop : item.step > 0 ? range.upperBound : item.start
      var value = item.start
      var taken = 0
      while value <= min(last, range.upperBound) && taken < 1_000_000 {
        if range.contains(value) { named.insert(value) }
        guard item.step > 0 else { break }
        value += item.step
        taken += 1
      }
    }
    return named.count
  }
}
