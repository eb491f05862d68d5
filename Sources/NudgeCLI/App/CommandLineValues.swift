import ArgumentParser
import FoundationEssentials
import NudgeCore
import NudgeLinux

/// Parses yes/no answers given as flag values.
func yesNoValue(_ text: String) -> Bool? {
  switch text.lowercased() {
  case "yes", "y", "true", "1": true
  case "no", "n", "false", "0": false
  default: nil
  }
}

/// The one-line refusal of a number given to `option` outside `range`: what it takes, and what
/// was given ("--days must be from 1 to 3650 days, not -1."); `note` is added in brackets.
func outOfRange<Number: Comparable & LosslessStringConvertible>(
  _ option: String, _ value: Number, _ range: ClosedRange<Number>, unit: String = "",
  note: String? = nil
) -> ValidationError {
  func spoken(_ n: Number) -> String {
    // 5.0 is said 5, as it was typed
    let text = String(n)
    return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
  }
  let what = unit.isEmpty ? "" : " " + unit
  let why = note.map { " (\($0))" } ?? ""
  return ValidationError(
    "\(option) must be from \(spoken(range.lowerBound)) to \(spoken(range.upperBound))\(what)\(why), not \(spoken(value))."
  )
}

/// Cleans an optional flag value as free text, as a usage error when it is not.
func flagText(_ value: String?, _ flag: String) throws -> String? {
  do { return try FreeText.clean(value, field: flag) } catch { throw CLIError.usage(error) }
}

extension Day {
  /// "Sat 21 Nov" for timelines.
  var short: String {
    Self.weekdayNames[weekday] + " " + String(day) + " " + Self.monthNames[month - 1]
  }

  private static let weekdayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
  private static let monthNames = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
  ]

  /// "Sat".
  var weekdayName: String { Self.weekdayNames[weekday] }

  /// "21 Nov", for the heatmap's week labels.
  var dayMonth: String { String(short.split(separator: " ", maxSplits: 1)[1]) }

  /// "Sat 21 Nov", with the year ("Sat 20 Nov 2027") when it is not `today`'s: a day a
  /// pause ends on may be next year's.
  func short(from today: Day) -> String {
    year == today.year ? short : short + " \(year)"
  }

  /// "Saturday 21 November" for headings.
  var long: String {
    let names = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    let months = [
      "January", "February", "March", "April", "May", "June", "July", "August", "September",
      "October", "November", "December",
    ]
    return "\(names[weekday]) \(day) \(months[month - 1])"
  }
}

/// "21:30" from a saved timestamp; "02:30 (+02:00)" when `zone` shows that clock time twice
/// that day (a fall-back night), so the two read apart.
func clockTime(_ iso: String, in zone: ZoneRules) -> String { InstantFormat.clock(iso, in: zone) }

/// An optional that is written as JSON `null` when absent, so every documented key is always
/// present (synthesised `Encodable` would leave the key out).
// swift-format-ignore: UseSynthesizedInitializer
@propertyWrapper
struct NullWhenAbsent<Value: Encodable>: Encodable {
  var wrappedValue: Value?

  // spelled out: property-wrapper initialisation needs it
  init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
  }
}

extension Day {
  /// A day as a person names it on the command line: today, yesterday, tomorrow, a weekday
  /// (the latest one up to today) or YYYY-MM-DD; else a usage error with a suggestion.
  static func named(_ word: String, today: Day) throws -> Day {
    guard let day = Day.named(word, today: today, toward: .past) else {
      throw CLIError(
        "'\(word)' is not a day: use \(Day.wordsHint).\(Suggestion.hint(for: word, among: Day.dayWords))",
        code: .usage)
    }
    return day
  }
}
