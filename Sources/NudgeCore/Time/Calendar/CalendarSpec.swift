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
  }
}
