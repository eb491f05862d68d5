/// A habit of the person's own (`nudge habit add`): a name, the question its reminder asks,
/// how often it is wanted, an optional reminder time, and for a measurable habit a target a
/// day and its unit.
public struct Habit: Equatable, Sendable {
  /// The store's id: what its reminder's slot (`habit.hID`) and link are made from; a rename
  /// keeps it.
  public var id: Int
  /// As the person typed it; unique among habits, case-insensitively.
  public var name: String
  /// What its reminder asks ("Did you stretch today?").
  public var question: String
  public var every: HabitFrequency
  /// When its (first) reminder comes, in the words `schedule set` takes or a calendar
  /// expression.
  public var at: String?
  /// When its further reminders come, after `at` (`--at 8:00 --at 20:00`): each its own timer.
  /// Empty while `at` is nil.
  public var alsoAt: [String] = []
  /// The amount a day that meets it (a measurable habit); nil for a yes/no habit.
  public var target: Int?
  /// The target's unit (pages, minutes); nil for a yes/no habit.
  public var unit: String?
  /// The first day it counts from (the day it was added, or its earliest imported check).
  public var since: Day
  public var archived: Bool
  /// The id it travels by, the same on every computer (sync, an export): nil until the store
  /// has given it one.
  public var uid: String? = nil
  /// Its tags (`--tag health`), as first typed, in the order given; compared in any case.
  public var tags: [String] = []
  /// A limit (`--at-most 2 --unit coffees`): its target is a ceiling, a day counts when its
  /// amount stays at or under it.
  public var atMost = false
  /// A habit to break (`--quit`): every day is clean unless a slip is recorded (`habit slip`);
  /// its streak counts clean days in a row.
  public var quit = false

  public init(
    id: Int = 0, name: String, question: String? = nil, every: HabitFrequency = .daily,
    at: String? = nil, target: Int? = nil, unit: String? = nil, since: Day, archived: Bool = false
  ) {
    self.id = id
    self.name = name
    self.question = question ?? Habit.defaultQuestion(name)
    self.every = every
    self.at = at
    self.target = target
    self.unit = unit
    self.since = since
    self.archived = archived
  }

  /// Whether a done needs an amount (`--value`).
  public var isMeasurable: Bool { target != nil }

  /// Its first reminder's slot, `habit.hID`.
  public var slot: ReminderSource { .habit(id) }

  /// All its reminder times, first to last: `at`, then `alsoAt`. Setting them sets both.
  public var reminderTimes: [String] {
    get { (at.map { [$0] } ?? []) + alsoAt }
    set {
      at = newValue.first
      alsoAt = Array(newValue.dropFirst())
    }
  }

  /// Each reminder's slot, in the order of `reminderTimes`: `habit.hID`, `habit.hID.2`, ….
  public var reminderSlots: [ReminderSource] {
    reminderTimes.indices.map { .habit(id, reminder: $0 + 1) }
  }

  /// The most reminders a habit has (each is a timer of its own).
  public static let maxReminders = 6

  /// What is wrong with `time` as a reminder time before it is read as one: a line break or
  /// another control character (its further times are kept one a line); nil when it has none.
  public static func reminderTimeProblem(_ time: String) -> String? {
    time.unicodeScalars.contains { $0.properties.generalCategory == .control }
      ? "a reminder time is one line of plain text (no line breaks or control characters)"
      : nil
  }

  /// The question asked when none is given.
  public static func defaultQuestion(_ name: String) -> String { "\(name) today?" }

  /// The question a habit to quit asks when none is given.
  public static func quitQuestion(_ name: String) -> String { "Clear of \(name) today?" }

  /// The longest name and question.
  /// The most habits kept, archived ones too: each may have a reminder timer of its own.
  public static let maxCount = 100
  /// The most days recorded of all habits together, so that everything kept exports in a
  /// document `import` takes (`ExportDocument.maxBytes`): 250,000 days of about 130 bytes
  /// each are 31 MiB (20 habits for 34 years).
  public static let maxDaysInAll = 250_000
  public static let maxNameLength = 60
  public static let maxQuestionLength = 200
  public static let maxUnitLength = 24

  /// `text` as a habit's name, trimmed, or an error that says what a name can be. `reserved`:
  /// words that would read as a command (`habit done list` is ambiguous).
  public static func checkedName(_ text: String, reserved: Set<String>) throws(InputError)
    -> String
  {
    let name = text.trimmingSpaces
    guard !name.isEmpty else {
      throw InputError("a habit needs a name: one line of 1 to \(maxNameLength) characters")
    }
    guard name.count <= maxNameLength else {
      throw InputError(
        "that name has \(name.count) characters; a habit's name has at most \(maxNameLength)")
    }
    guard !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
    else {
      throw InputError("a habit's name is one line of plain text (no tabs or control characters)")
    }
    guard !name.hasPrefix("-") else {
      throw InputError("a habit's name can't start with '-' (it would read as an option)")
    }
    // its reminder's link carries it percent-encoded: letters outside ASCII take more room
    guard DeepLink.habit(name).url.utf8.count <= DeepLink.maxLength else {
      throw InputError(
        "that name is too long for its reminder's link; a shorter one, please (60 characters, fewer outside ASCII)"
      )
    }
    guard !reserved.contains(name.lowercased()) else {
      throw InputError(
        "'\(name)' is one of nudge's command words; give the habit another name (e.g. '\(name) habit')"
      )
    }
    return name
  }

  /// `text` as a question (trimmed, one line), or an error.
  public static func checkedQuestion(_ text: String) throws(InputError) -> String {
    try oneLine(
      text, max: maxQuestionLength,
      "a question is one line of 1 to \(maxQuestionLength) characters of plain text")
  }

  /// `text` trimmed, when it is one line of 1 to `max` characters with no control character;
  /// else `refusal`.
  static func oneLine(_ text: String, max: Int, _ refusal: String) throws(InputError) -> String {
    let line = text.trimmingSpaces
    guard !line.isEmpty, line.count <= max,
      !line.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
    else { throw InputError(refusal) }
    return line
  }

  /// `text` as a unit (pages, minutes), or an error.
  public static func checkedUnit(_ text: String) throws(InputError) -> String {
    try oneLine(
      text, max: maxUnitLength,
      "a unit is a word or two of 1 to \(maxUnitLength) characters (pages, minutes)")
  }

  /// The most tags a habit has, and the longest tag.
  public static let maxTags = 10
  public static let maxTagLength = 24

  /// `text` as a tag: one word of letters, digits, `-` and `_`, 1 to `maxTagLength` long.
  public static func checkedTag(_ text: String) throws(InputError) -> String {
    let tag = text.trimmingSpaces
    guard !tag.isEmpty, tag.count <= maxTagLength,
      tag.unicodeScalars.allSatisfy({
        $0.properties.isAlphabetic || $0.properties.numericType != nil || $0 == "-" || $0 == "_"
      }), !tag.hasPrefix("-")
    else {
      throw InputError(
        "a tag is one word of 1 to \(maxTagLength) letters, digits, '-' or '_' (not starting with '-'), not '\(VisibleText.escaped(String(text.prefix(40))))'"
      )
    }
    return tag
  }

  /// `tags` checked, their repeats (in any case) dropped, at most `maxTags`.
  public static func checkedTags(_ tags: [String]) throws(InputError) -> [String] {
    var kept: [String] = []
    for text in tags {
      let tag = try checkedTag(text)
      if !kept.contains(where: { $0.lowercased() == tag.lowercased() }) { kept.append(tag) }
    }
    guard kept.count <= maxTags else {
      throw InputError("a habit has at most \(maxTags) tags, not \(kept.count)")
    }
    return kept
  }

  /// Whether it has `tag`, in any case.
  public func hasTag(_ tag: String) -> Bool {
    tags.contains { $0.lowercased() == tag.lowercased() }
  }

  /// The longest note on a day.
  public static let maxNoteLength = 500

  /// `text` as a day's note (trimmed, one line of plain text), or an error.
  public static func checkedNote(_ text: String) throws(InputError) -> String {
    guard text.utf8.count <= maxNoteLength * 4 else {
      throw InputError(
        "that note has \(text.utf8.count) bytes; a note is one line of at most \(maxNoteLength) characters (\(maxNoteLength * 4) bytes)"
      )
    }
    let line = try oneLine(
      text, max: maxNoteLength,
      "a note is one line of 1 to \(maxNoteLength) characters of plain text (no newlines or control characters)"
    )
    guard !line.unicodeScalars.contains(where: { $0.value == 0x2028 || $0.value == 0x2029 }) else {
      throw InputError("a note is one line: no line or paragraph separators")
    }
    return line
  }

  /// The largest target and value.
  public static let maxAmount = 1_000_000

  /// `n` as a limit (`--at-most`: 0 allowed, no coffee at all), or an error.
  public static func checkedLimit(_ n: Int) throws(InputError) -> Int {
    guard (0...maxAmount).contains(n) else {
      throw InputError("a limit is a whole number from 0 to \(maxAmount)")
    }
    return n
  }

  /// `n` as a target, or an error.
  public static func checkedTarget(_ n: Int) throws(InputError) -> Int {
    guard (1...maxAmount).contains(n) else {
      throw InputError("a target is a whole number from 1 to \(maxAmount)")
    }
    return n
  }
}

/// What was recorded of a habit on one day: done (with its amount, for a measurable habit),
/// skipped (a skipped day never breaks its streak) or failed (said not done: the miss it is),
/// and the person's note on it.
public struct HabitCheck: Equatable, Sendable, Codable {
  /// The three marks a day can hold; a day with no check is unknown.
  public enum Mark: String, Sendable, Codable {
    case done, skipped, failed
  }

  public var day: Day
  /// false: skipped, or failed when `failed`.
  public var done: Bool
  /// Said not done (`habit fail`, a reminder's No): a miss, where a skip excuses the day.
  public var failed: Bool
  /// A measurable habit's amount that day.
  public var value: Int?
  /// The person's note on the day ("on the train"): one line, at most `Habit.maxNoteLength`.
  public var note: String?
  /// When it was recorded, ISO 8601 with its offset.
  public var savedAt: String

  public init(
    day: Day, done: Bool, failed: Bool = false, value: Int? = nil, note: String? = nil,
    savedAt: String
  ) {
    self.day = day
    self.done = done
    self.failed = failed && !done
    self.value = value
    self.note = note
    self.savedAt = savedAt
  }

  /// A check of `mark`.
  public init(day: Day, _ mark: Mark, value: Int? = nil, note: String? = nil, savedAt: String) {
    self.init(
      day: day, done: mark == .done, failed: mark == .failed, value: value, note: note,
      savedAt: savedAt)
  }

  /// Which of the three it is.
  public var mark: Mark { done ? .done : failed ? .failed : .skipped }

  /// Whether it excuses its day (a skip): a failed day does not.
  public var isSkip: Bool { mark == .skipped }

  enum CodingKeys: String, CodingKey { case day, done, failed, value, note, savedAt }

  // `failed` written only when true and `note` only when there is one, so a check from before
  // either (an export, the undo journal) reads as it always did
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    if try c.decode(Bool.self, forKey: .done),
      try c.decodeIfPresent(Bool.self, forKey: .failed) == true
    {
      throw DecodingError.dataCorruptedError(
        forKey: .failed, in: c, debugDescription: "a day is done or failed, not both")
    }
    self.init(
      day: try c.decode(Day.self, forKey: .day), done: try c.decode(Bool.self, forKey: .done),
      failed: try c.decodeIfPresent(Bool.self, forKey: .failed) ?? false,
      value: try c.decodeIfPresent(Int.self, forKey: .value),
      note: try c.decodeIfPresent(String.self, forKey: .note),
      savedAt: try c.decode(String.self, forKey: .savedAt))
  }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(day, forKey: .day)
    try c.encode(done, forKey: .done)
    if failed { try c.encode(true, forKey: .failed) }
    try c.encodeIfPresent(value, forKey: .value)
    try c.encodeIfPresent(note, forKey: .note)
    try c.encode(savedAt, forKey: .savedAt)
  }

  /// Whether it meets the habit's day: done, and for a measurable habit at least the target
  /// (a day done without an amount — before the habit had a target — meets it).
  public func meets(_ habit: Habit) -> Bool {
    guard done else { return false }
    guard let target = habit.target, let value else { return true }
    // a limit's day counts while it stays at or under it
    return habit.atMost ? value <= target : value >= target
  }
}
