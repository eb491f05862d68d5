/// Reminder times as people write them ("9pm", "7:30 am", "weekdays 7:30", "weekends 9am",
/// "Mon,Wed,Fri 18:00"), turned into systemd calendar expressions, and back into those words.
public enum PlainTime {
  /// The systemd calendar expression `text` means, or nil when it is not plain words (the
  /// caller then reads it as a systemd expression).
  public static func expression(_ text: String) -> String? {
    let words = words(text)
    // the time of day: at the end ("weekdays 7:30 am") or at the start ("9am weekdays")
    if let (time, rest) = time(in: words, atEnd: true) ?? time(in: words, atEnd: false),
      let days = days(rest)
    {
      return (days.isEmpty ? "" : days + " ") + "*-*-* " + time
    }
    return nil
  }

  /// The systemd calendar expression `text` means for `slot`, whose expression is now
  /// `current`: as `expression(_:)`, except that a bare time for the weekly look back keeps its
  /// weekdays ("7pm": still on Sundays; "daily 7pm" is every day, as written).
  public static func expression(_ text: String, for slot: ReminderSource, current: String)
    -> String?
  {
    guard let every = expression(text), slot == .weekly,
      clock(text.lowercased().split(separator: " ").filter { $0 != "at" }.joined()) != nil
    else { return expression(text) }
    let parts = current.split(separator: " ")
    let days =
      parts.count == 3 && parts[1] == "*-*-*"
        && parts[0].allSatisfy({ $0.isLetter || $0 == "," || $0 == "." })
      ? String(parts[0]) : "Sun"
    return days + " " + every
  }

  /// The word of `text` that stands where a time of day goes and is none ("25" in
  /// "wed..mon 25", "7:75"), when the words before it are day words; nil for anything else.
  public static func badTimeWord(_ text: String) -> String? {
    let words = words(text)
    // a word of a clock's characters: digits, ':' and am/pm ("*:0/15" is systemd's to judge)
    guard let last = words.last, last.contains(where: \.isNumber),
      last.allSatisfy({ $0.isNumber || ":.apm".contains($0) }), clock(last) == nil,
      days(Array(words.dropLast())) != nil
    else { return nil }
    return last
  }

  /// `text`'s words in lower case, a comma a word of its own, without "at", "every", "on".
  private static func words(_ text: String) -> [String] {
    var words = text.lowercased().replacing(",", with: " , ").split(separator: " ").map(String.init)
    words.removeAll { $0 == "at" || $0 == "every" || $0 == "on" }
    return words
  }

  /// The plain words for an expression Nudge can say simply ("weekdays 07:00", "21:30"), nil
  /// for anything else (shown as the expression itself).
  public static func describe(_ expression: String) -> String? {
    let parts = expression.split(separator: " ").map(String.init)
    guard (1...2).contains(parts.count) || parts.count == 3 else { return nil }
    let dateAndTime = parts.suffix(2)
    guard dateAndTime.count == 2, dateAndTime.first == "*-*-*" else { return nil }
    let clock = dateAndTime.last!.split(separator: ":")
    guard clock.count == 3, clock[2] == "00", clock[0].count == 2, clock[1].count == 2,
      clock[0].allSatisfy(\.isNumber), clock[1].allSatisfy(\.isNumber)
    else { return nil }
    let time = "\(clock[0]):\(clock[1])"
    guard parts.count == 3 else { return time }
    switch parts[0] {
    case "Mon..Fri": return "weekdays \(time)"
    case "Sat,Sun", "Sat..Sun": return "weekends \(time)"
    case let days where days.allSatisfy({ $0.isLetter || $0 == "," || $0 == "." }):
      return "\(days) \(time)"
    default: return nil
    }
  }

  /// The hour of day of an expression that fires once a day at a fixed time, else nil.
  public static func hour(of expression: String) -> Int? {
    guard let plain = describe(expression) else { return nil }
    return Int(plain.split(separator: " ").last!.prefix(2))
  }

  /// "HH:MM:00" from the words at one end of `words`, and the words left.
  private static func time(in words: [String], atEnd: Bool) -> (String, [String])? {
    guard !words.isEmpty else { return nil }
    // "7:30 am" is two words, "7:30am" one
    for take in [2, 1] where words.count >= take {
      let piece = atEnd ? words.suffix(take) : words.prefix(take)
      if let clock = clock(piece.joined()) {
        return (clock, atEnd ? Array(words.dropLast(take)) : Array(words.dropFirst(take)))
      }
    }
    return nil
  }

  /// "HH:MM:00" for "9pm", "9:30pm", "21:30", "7" (07:00), "noon", "midnight".
  static func clock(_ word: String) -> String? {
    if word == "noon" { return "12:00:00" }
    if word == "midnight" { return "00:00:00" }
    var text = Substring(word)
    var meridiem: String? = nil
    for suffix in ["am", "pm", "a.m.", "p.m."] where text.hasSuffix(suffix) {
      meridiem = String(suffix.prefix(1))
      text = text.dropLast(suffix.count)
      break
    }
    let fields = text.split(separator: ":", omittingEmptySubsequences: false)
    guard (1...2).contains(fields.count), fields.allSatisfy({ !$0.isEmpty && $0.count <= 2 }),
      fields.allSatisfy({ $0.allSatisfy(\.isNumber) }), var hour = Int(fields[0]),
      let minute = fields.count == 2 ? Int(fields[1]) : 0, (0..<60).contains(minute)
    else { return nil }
    if fields.count == 2 && fields[1].count != 2 { return nil }
    if let meridiem {
      guard (1...12).contains(hour) else { return nil }
      hour = hour % 12 + (meridiem == "p" ? 12 : 0)
    }
    // a bare hour is that hour on the 24-hour clock: "7" is 07:00, "19" is 19:00
    guard (0..<24).contains(hour) else { return nil }
    return "\(hour < 10 ? "0" : "")\(hour):\(minute < 10 ? "0" : "")\(minute):00"
  }

  /// The days part: "" for every day, else systemd's weekday list; nil when not day words.
  static func days(_ words: [String]) -> String? {
    let words = words.filter { $0 != "," && $0 != "and" }
    if words.isEmpty || words == ["daily"] || words == ["day"] || words == ["everyday"] {
      return ""
    }
    if words == ["weekdays"] || words == ["weekday"] { return "Mon..Fri" }
    if words == ["weekends"] || words == ["weekend"] { return "Sat,Sun" }
    var names: [String] = []
    for word in words {
      let range = word.replacing("..", with: "-").split(separator: "-").map(String.init)
      let days = range.compactMap(weekday)
      guard days.count == range.count, (1...2).contains(days.count) else { return nil }
      names.append(weekdayRange(days))
    }
    return names.joined(separator: ",")
  }

  /// systemd's form of a day or a range of days ("Mon", "Mon..Fri"); a range that runs past
  /// Sunday, as people write "Fri-Mon", is split there ("Fri..Sun,Mon"): systemd refuses a
  /// range that runs backwards.
  static func weekdayRange(_ days: [String]) -> String {
    let week = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    guard days.count == 2, let first = week.firstIndex(of: days[0]),
      let last = week.firstIndex(of: days[1]), first > last
    else { return days.joined(separator: "..") }
    let tail = first == 6 ? "Sun" : "\(days[0])..Sun"
    let head = last == 0 ? "Mon" : "Mon..\(days[1])"
    return tail + "," + head
  }

  /// "Mon" for "mon", "monday", "mondays".
  static func weekday(_ word: String) -> String? {
    let names = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
    let long = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
    for (short, full) in zip(names, long)
    where word == short || word == full || word == full + "s" || word == String(full.prefix(4)) {
      return short.prefix(1).uppercased() + short.dropFirst()
    }
    return nil
  }
}

extension ReminderSource {
  /// The hours a slot's reminder belongs in; a time outside them is asked about first (a
  /// "morning" reminder at midnight is more likely a slip than a wish).
  public var usualHours: ClosedRange<Int> {
    switch self {
    case .morning: 4...11
    case .midday: 10...16
    case .evening: 16...23
    case .weekly: 8...22
    case .plan, .habit: 0...23
    }
  }

  /// The part of the day, for the question.
  public var partOfDay: String {
    switch self {
    case .morning: "a morning"
    case .midday: "a midday"
    case .evening: "an evening"
    case .weekly: "a weekly"
    case .plan, .habit: "a plan's"
    }
  }
}
