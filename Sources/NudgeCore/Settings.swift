/// Where a reminder comes from, and so when it comes and what it opens: one of the four
/// built-in slots (a flow of the coach's, or the week), a plan's own slot, or a habit's own
/// reminder. Typed here; its text (`rawValue`: `morning`, `PLAN.SLOT`, `habit.hID`) is only
/// what the store, the log and the timers' names keep, read back by `init(rawValue:)`.
public enum ReminderSource: Hashable, CaseIterable, Codable, Sendable, RawRepresentable {
  case morning, midday, evening
  /// "Your week" on Sunday evenings (off by default): opens the weekly look back.
  case weekly
  /// A plan's own reminder time (`walking.noon`): its time and title are in the plan's file,
  /// its schedule stored once the plan is on.
  case plan(plan: String, slot: String)
  /// A habit's own reminder, by the habit's id and which of its reminders it is, from 1
  /// (`habit.h3`, then `habit.h3.2`): its time is the habit's `--at` (its first, second …).
  case habit(Int, reminder: Int = 1)

  /// The built-in four.
  public static let allCases: [ReminderSource] = [.morning, .midday, .evening, .weekly]

  public var rawValue: String {
    switch self {
    case .morning: "morning"
    case .midday: "midday"
    case .evening: "evening"
    case .weekly: "weekly"
    case .plan(let plan, let slot): plan + "." + slot
    case .habit(let id, 1): "habit.h\(id)"
    case .habit(let id, let n): "habit.h\(id).\(n)"
    }
  }

  /// A built-in slot's name, `habit.hID` or `habit.hID.N` (an id above 0, N from 2 to
  /// `Habit.maxReminders`), or `PLAN.SLOT` of two ids as plan files write them.
  public init?(rawValue: String) {
    if let builtIn = Self.allCases.first(where: { $0.rawValue == rawValue }) {
      self = builtIn
      return
    }
    let habitParts = rawValue.dropFirst(7).split(separator: ".", omittingEmptySubsequences: false)
    if rawValue.hasPrefix("habit.h"), (1...2).contains(habitParts.count),
      let id = Int(habitParts[0]), id > 0,
      let n = habitParts.count == 2 ? Int(habitParts[1]) : 1, (1...Habit.maxReminders).contains(n),
      ReminderSource.habit(id, reminder: n).rawValue == rawValue
    {
      self = .habit(id, reminder: n)
      return
    }
    let parts = rawValue.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    guard parts.count == 2, parts.allSatisfy(PlanFile.isID) else { return nil }
    self = .plan(plan: parts[0], slot: parts[1])
  }

  /// Whether it has a timer of its own, its time not one of the built-in settings: a plan's
  /// slot or a habit's reminder.
  public var hasOwnTimer: Bool {
    switch self {
    case .plan, .habit: true
    default: false
    }
  }

  /// The habit whose reminder it is, nil for any other.
  public var habitID: Int? {
    if case .habit(let id, _) = self { return id }
    return nil
  }

  /// The slot of plan `plan`'s `[[slot]]` with id `id`.
  public static func of(plan: String, id: String) -> ReminderSource {
    ReminderSource.allCases.first { $0.rawValue == id } ?? .plan(plan: plan, slot: id)
  }
}

/// A setting a person can change with `nudge config set KEY VALUE`.
public enum SettingKey: String, CaseIterable, Sendable {
  case rolloverHour = "rollover-hour"
  case celebrations
  case terminal
  case stalenessMorning = "staleness.morning"
  case stalenessMidday = "staleness.midday"
  case stalenessEvening = "staleness.evening"
  case stalenessWeekly = "staleness.weekly"
  case snooze
  case weekStart = "week-start"

  public var defaultValue: String {
    switch self {
    case .rolloverHour: "4"
    case .celebrations: "on"
    case .terminal: ""
    case .stalenessMorning, .stalenessMidday, .stalenessEvening, .stalenessWeekly: "4h"
    case .snooze: "15m"
    case .weekStart: ""
    }
  }

  /// Values to offer when completing `config set KEY <TAB>` (the terminal is free text).
  public var suggestedValues: [String] {
    switch self {
    case .rolloverHour: (0...12).map(String.init)
    case .celebrations: ["on", "off"]
    case .terminal: []
    case .stalenessMorning, .stalenessMidday, .stalenessEvening, .stalenessWeekly:
      ["30m", "1h", "2h", "4h", "8h"]
    case .snooze: ["5m", "10m", "15m", "30m", "1h"]
    case .weekStart: WeekStart.allCases.map(\.rawValue)
    }
  }

  /// What the setting means and which values it takes, for `config list` and errors.
  public var allowed: String {
    switch self {
    case .rolloverHour: "an hour from 0 to 12 at which a new day starts"
    case .celebrations: "on or off"
    case .terminal:
      "a command on PATH that runs a program given after it, e.g. 'xterm -e' or 'tmux new-window' (empty: auto-detect)"
    case .stalenessMorning, .stalenessMidday, .stalenessEvening, .stalenessWeekly:
      "a duration from 1m to 24h such as 4h, 90m or 2h30m, after which a late reminder is skipped"
    case .snooze:
      "a duration from 10s to 12h such as 15m, 1m or 1h, after which a snoozed reminder comes back"
    case .weekStart:
      "monday, sunday or saturday, the day a week begins on (unset: your locale's first weekday)"
    }
  }

  public static func named(_ name: String) throws(InputError) -> SettingKey {
    guard let key = SettingKey(rawValue: name) else {
      let keys = allCases.map(\.rawValue).joined(separator: ", ")
      throw InputError("'\(name)' is not a setting; the settings are \(keys).")
    }
    return key
  }

  /// Checks a value and returns it in its canonical spelling.
  public func validate(_ raw: String) throws(InputError) -> String {
    let value = raw.trimmingSpaces
    let bad = InputError("'\(raw)' is not a valid \(rawValue): use \(allowed).")
    switch self {
    case .rolloverHour:
      guard let hour = Int(value), (0...12).contains(hour), value.allSatisfy(\.isNumber) else {
        throw bad
      }
      return String(hour)
    case .celebrations:
      switch value.lowercased() {
      case "on", "yes", "true", "1": return "on"
      case "off", "no", "false", "0": return "off"
      default: throw bad
      }
    case .terminal:
      if value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
        throw bad
      }
      guard (try? CommandLineWords.split(value)) != nil else { throw bad }
      return value
    case .stalenessMorning, .stalenessMidday, .stalenessEvening, .stalenessWeekly:
      guard let seconds = DurationText.parseSeconds(value), (60...86400).contains(seconds) else {
        throw bad
      }
      return DurationText.format(seconds: seconds)
    case .snooze:
      guard let seconds = DurationText.parseSeconds(value), (10...43200).contains(seconds) else {
        throw bad
      }
      return DurationText.format(seconds: seconds)
    case .weekStart:
      guard let start = WeekStart(rawValue: value.lowercased()) else { throw bad }
      return start.rawValue
    }
  }
}

/// The settings in force: stored values over defaults, already validated.
public struct Settings: Equatable, Sendable {
  public var values: [SettingKey: String]

  public init(stored: [String: String] = [:]) {
    var values: [SettingKey: String] = [:]
    for key in SettingKey.allCases {
      if let raw = stored[key.rawValue], let valid = try? key.validate(raw) {
        values[key] = valid
      }
    }
    self.values = values
  }

  public func value(_ key: SettingKey) -> String { values[key] ?? key.defaultValue }

  public var rolloverHour: Int { Int(value(.rolloverHour)) ?? DayRule.defaultRolloverHour }
  public var celebrationsOn: Bool { value(.celebrations) == "on" }
  public var dayRule: DayRule { DayRule(rolloverHour: rolloverHour) }

  public func stalenessSeconds(for slot: ReminderSource) -> Int {
    let key: SettingKey
    switch slot {
    case .morning: key = .stalenessMorning
    case .midday: key = .stalenessMidday
    case .evening: key = .stalenessEvening
    case .weekly: key = .stalenessWeekly
    case .plan, .habit: return 4 * 3600  // a plan's own reminder: the default window
    }
    return DurationText.parseSeconds(value(key)) ?? 4 * 3600
  }

  /// The day a week begins on, when the person chose one (nil: the locale's).
  public var weekStart: WeekStart? { WeekStart(rawValue: value(.weekStart)) }

  /// How long Snooze puts a reminder off.
  public var snoozeSeconds: Int { DurationText.parseSeconds(value(.snooze)) ?? 900 }
}

/// Durations written as `4h`, `90m`, `2h30m`, `45s`.
public enum DurationText {
  public static func parseSeconds(_ text: String) -> Int? {
    guard !text.isEmpty else { return nil }
    var total = 0
    var number = ""
    var sawUnit = false
    for ch in text {
      if ch.isASCII && ch.isNumber {
        number.append(ch)
      } else {
        guard let n = Int(number), n <= 100_000 else { return nil }
        switch ch {
        case "h": total += n * 3600
        case "m": total += n * 60
        case "s": total += n
        default: return nil
        }
        number = ""
        sawUnit = true
      }
    }
    guard number.isEmpty, sawUnit else { return nil }
    return total
  }

  public static func format(seconds: Int) -> String {
    let h = seconds / 3600
    let m = seconds % 3600 / 60
    let s = seconds % 60
    var out = ""
    if h > 0 { out += "\(h)h" }
    if m > 0 { out += "\(m)m" }
    if s > 0 || out.isEmpty { out += "\(s)s" }
    return out
  }

  /// A duration as a button says it: "15 min", "1 h", "1 h 30 min", "30 s".
  public static func spoken(seconds: Int) -> String {
    let (h, m, s) = (seconds / 3600, seconds % 3600 / 60, seconds % 60)
    var parts: [String] = []
    if h > 0 { parts.append("\(h) h") }
    if m > 0 { parts.append("\(m) min") }
    if s > 0 || parts.isEmpty { parts.append("\(s) s") }
    return parts.joined(separator: " ")
  }
}

/// Splits a configured command line into argv words, honouring quotes; never runs a shell.
public enum CommandLineWords {
  public static func split(_ line: String) throws(InputError) -> [String] {
    var words: [String] = []
    var current = ""
    var inWord = false
    var quote: Character? = nil
    var escaped = false
    for ch in line {
      if escaped {
        current.append(ch)
        escaped = false
      } else if ch == "\\" && quote != "'" {
        escaped = true
        inWord = true
      } else if let q = quote {
        if ch == q { quote = nil } else { current.append(ch) }
      } else if ch == "'" || ch == "\"" {
        quote = ch
        inWord = true
      } else if ch == " " || ch == "\t" {
        if inWord { words.append(current) }
        current = ""
        inWord = false
      } else {
        current.append(ch)
        inWord = true
      }
    }
    if quote != nil || escaped { throw InputError("unbalanced quote or trailing backslash") }
    if inWord { words.append(current) }
    return words
  }
}
