import FoundationEssentials

/// A local calendar date ("2026-11-19") that an action counts for, after the rollover hour.
public struct Day: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
  public let year: Int
  public let month: Int
  public let day: Int

  public init(year: Int, month: Int, day: Int) {
    self.year = year
    self.month = month
    self.day = day
  }

  /// Parses the `YYYY-MM-DD` form; returns nil for anything else or a date that does not exist.
  /// A year outside 0...9999 is read as `description` writes it (`-0001`, `10000`, up to nine
  /// digits), so a day an older Nudge stored out of range still reads back.
  public init?(_ text: String) {
    var text = text
    guard let day = text.withUTF8({ Day(utf8: $0) }) else { return nil }
    self = day
  }

  /// The same from the text's bytes (a column's, read without making a `String`): any byte
  /// that is not a digit or a dash where the form has one, invalid UTF-8 too, is no day.
  public init?(utf8 all: UnsafeBufferPointer<UInt8>) {
    let parsed = { () -> (Int, Int, Int)? in
      let negative = all.first == UInt8(ascii: "-")
      let bytes = UnsafeBufferPointer(rebasing: all[(negative ? 1 : 0)...])
      let yearDigits = bytes.count - 6
      guard (4...9).contains(yearDigits), bytes[yearDigits] == UInt8(ascii: "-"),
        bytes[yearDigits + 3] == UInt8(ascii: "-")
      else { return nil }
      func number(_ range: Range<Int>) -> Int? {
        var value = 0
        for i in range {
          let digit = Int(bytes[i]) - 48
          guard (0...9).contains(digit) else { return nil }
          value = value * 10 + digit
        }
        return value
      }
      guard let y = number(0..<yearDigits), yearDigits == 4 || y >= 10_000,
        let m = number(yearDigits + 1..<yearDigits + 3),
        let d = number(yearDigits + 4..<yearDigits + 6)
      else {
        return nil
      }
      return (negative ? -y : y, m, d)
    }()
    guard let (y, m, d) = parsed, (1...12).contains(m), d >= 1, d <= Day.daysIn(month: m, year: y)
    else { return nil }
    self.init(year: y, month: m, day: d)
  }

  public var description: String {
    guard (0...9999).contains(year), (1...12).contains(month), (1...31).contains(day) else {
      return zeroPadded(year, 4) + "-" + zeroPadded(month, 2) + "-" + zeroPadded(day, 2)
    }
    // the usual day, written digit by digit (it is written for every row read or saved)
    let (year, month, day) = (year, month, day)
    return String(unsafeUninitializedCapacity: 10) { text in
      writePadded(year, width: 4, endingAt: 4, in: text)
      text[4] = UInt8(ascii: "-")
      writePadded(month, width: 2, endingAt: 7, in: text)
      text[7] = UInt8(ascii: "-")
      writePadded(day, width: 2, endingAt: 10, in: text)
      return 10
    }
  }

  public static func < (a: Day, b: Day) -> Bool {
    (a.year, a.month, a.day) < (b.year, b.month, b.day)
  }

  public static func isLeap(_ year: Int) -> Bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
  }

  public static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: return isLeap(year) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// Days since 1970-01-01 (proleptic Gregorian), for arithmetic without a calendar.
  public var ordinal: Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let mp = (month + 9) % 12
    let doy = (153 * mp + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146097 + doe - 719468
  }

  public init(ordinal: Int) {
    let z = ordinal + 719468
    let era = (z >= 0 ? z : z - 146096) / 146097
    let doe = z - era * 146097
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let d = doy - (153 * mp + 2) / 5 + 1
    let m = mp < 10 ? mp + 3 : mp - 9
    self.init(year: yoe + era * 400 + (m <= 2 ? 1 : 0), month: m, day: d)
  }

  public func adding(days: Int) -> Day { Day(ordinal: ordinal + days) }

  /// 0 = Sunday … 6 = Saturday.
  public var weekday: Int { ((ordinal % 7) + 7 + 4) % 7 }

  public init(from decoder: any Decoder) throws {
    let text = try decoder.singleValueContainer().decode(String.self)
    guard let day = Day(text) else {
      throw DecodingError.dataCorrupted(
        .init(
          codingPath: decoder.codingPath,
          debugDescription: "'\(text)' is not a date of the form YYYY-MM-DD"))
    }
    self = day
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }
}

/// The wall-clock reading of an instant in a time zone (the zone rules the calendar engine
/// uses: `TZ` names, `:path`, POSIX strings; never Foundation's guesses).
public struct LocalTime: Equatable, Sendable {
  public let date: Day
  public let hour: Int
  public let minute: Int
  public let second: Int
  /// Seconds east of UTC in effect at that instant.
  public let utcOffset: Int

  public init(_ instant: Instant, in zone: ZoneRules) {
    let seconds = instant.seconds
    let offset = zone.localType(at: seconds).offset
    // a `right/` zone counts leap seconds in its time_t, as glibc's localtime does
    let leap = zone.leapCorrection(at: seconds)
    let local = seconds + offset - leap.correction
    let days = local >= 0 ? local / 86400 : (local - 86399) / 86400
    let secs = local - days * 86400
    date = Day(ordinal: days)
    hour = secs / 3600
    minute = secs % 3600 / 60
    second = secs % 60 + leap.hit
    utcOffset = offset
  }
}

/// Assigns actions to days: the local date after subtracting the rollover hour.
public struct DayRule: Equatable, Sendable {
  public static let defaultRolloverHour = 4
  /// The latest hour a day may roll over at (`rollover-hour` takes 0 to 12).
  public static let maxRolloverHour = 12
  public var rolloverHour: Int

  public init(rolloverHour: Int = DayRule.defaultRolloverHour) {
    self.rolloverHour = rolloverHour
  }

  /// A save at 00:40 with the default 04:00 rollover counts for the evening before.
  public func day(of instant: Instant, in zone: ZoneRules) -> Day {
    let local = LocalTime(instant, in: zone)
    return local.hour < rolloverHour ? local.date.adding(days: -1) : local.date
  }
}

/// `n` in decimal with at least `width` digits (a minus sign before them), without going
/// through Foundation's formatter (the preview prints thousands).
/// Writes `n` (0 or more) as its last `width` decimal digits, zero-padded, into `text` just
/// before `end`: `zeroPadded` in place, for texts built byte by byte.
func writePadded(
  _ n: Int, width: Int, endingAt end: Int, in text: UnsafeMutableBufferPointer<UInt8>
) {
  var rest = n
  for position in stride(from: end - 1, through: end - width, by: -1) {
    text[position] = UInt8(ascii: "0") + UInt8(rest % 10)
    rest /= 10
  }
}

public func zeroPadded(_ n: Int, _ width: Int) -> String {
  let digits = String(n.magnitude)
  let padding = String(repeating: "0", count: max(0, width - digits.count))
  return (n < 0 ? "-" : "") + padding + digits
}

extension Day {
  /// Which way a weekday name points from today: back to the latest such day (a day to fill
  /// in or show), or ahead to the next one (the last day of a pause).
  public enum Direction: Sendable {
    case past, future
  }

  /// The words a day can be given in, for messages.
  public static let wordsHint =
    "today, yesterday, tomorrow, a weekday (monday…sunday) or YYYY-MM-DD"

  /// The day-naming words other than dates, for suggestions.
  public static let dayWords = [
    "today", "yesterday", "tomorrow", "monday", "tuesday", "wednesday", "thursday", "friday",
    "saturday", "sunday",
  ]

  /// A day as a person names it: today, yesterday, tomorrow, a weekday (`mon`, `monday`,
  /// `mondays`; the latest one up to today, or the next from today, as `direction` says), or
  /// `YYYY-MM-DD`; nil for anything else.
  public static func named(_ word: String, today: Day, toward direction: Direction) -> Day? {
    let text = word.lowercased().trimmingSpaces
    switch text {
    case "today": return today
    case "yesterday": return today.adding(days: -1)
    case "tomorrow": return today.adding(days: 1)
    default: break
    }
    if let name = PlainTime.weekday(text) {
      let names = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
      let wanted = names.firstIndex(of: name)!
      let offset =
        direction == .past
        ? -((today.weekday - wanted + 7) % 7) : (wanted - today.weekday + 7) % 7
      return today.adding(days: offset)
    }
    return Day(text)
  }
}
