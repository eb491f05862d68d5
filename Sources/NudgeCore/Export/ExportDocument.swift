import FoundationEssentials

/// The versioned JSON document of everything Nudge stores (`nudge export` / `nudge import`).
public struct ExportDocument: Codable, Equatable, Sendable {
  public static let formatName = "nudge-export"
  /// 2: `flows`, the entries of flows plan files define; 3: `habits`, the person's own (older
  /// versions still import; an older Nudge refuses a version 3 file rather than drop its
  /// habits).
  public static let currentVersion = 3

  public var format: String
  public var version: Int
  public var settings: [String: String]
  public var prep: [PrepEntry]
  public var review: [ReviewEntry]
  public var checkin: [CheckinEntry]
  public var help: [HelpNote]
  /// Earned achievements; absent in documents from before achievements existed.
  public var achievements: [EarnedAchievement]
  /// Each reminder slot's calendar expression and whether it is on; absent in older documents.
  public var schedule: [SlotSchedule]
  /// Days off (`nudge pause`); absent in documents from before pauses existed.
  public var pauses: [Pause] = []
  /// The entries of flows plan files define, by day then flow; absent before version 2.
  public var flows: [AnsweredEntry] = []
  /// The plans turned on or off (`nudge plan on|off`), by name; absent before version 2.
  public var plans: [String: Bool] = [:]
  /// The person's own habits and their days; absent before version 3.
  public var habits: [ExportHabit] = []
  /// The person's plan files, as text (what their flows' entries need to be read again): held
  /// on import to every rule a file dropped into the plans folder is held to. Absent in older
  /// documents (an older Nudge ignores it, and says a flow's plan file is missing).
  public var planFiles: [ExportPlanFile] = []

  enum CodingKeys: String, CodingKey {
    case format, version, settings, prep, review, checkin, help, achievements, schedule, pauses
    case flows, plans, habits, planFiles
  }

  public init(
    settings: [String: String], prep: [PrepEntry], review: [ReviewEntry], checkin: [CheckinEntry],
    help: [HelpNote], achievements: [EarnedAchievement] = [], schedule: [SlotSchedule] = [],
    pauses: [Pause] = [], flows: [AnsweredEntry] = []
  ) {
    self.flows = flows.sorted { ($0.day, $0.flow) < ($1.day, $1.flow) }
    self.pauses = pauses.sorted { $0.firstDay < $1.firstDay }
    self.schedule = schedule.sorted { $0.slot.rawValue < $1.slot.rawValue }
    self.format = Self.formatName
    self.version = Self.currentVersion
    self.settings = settings
    self.prep = prep.sorted { $0.day < $1.day }
    self.review = review.sorted { $0.day < $1.day }
    self.checkin = checkin.sorted { $0.day < $1.day }
    self.help = help.sorted(by: HelpNote.savedBefore)
    self.achievements = achievements.sorted { $0.key.rawValue < $1.key.rawValue }
  }

  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    format = try c.decode(String.self, forKey: .format)
    version = try c.decode(Int.self, forKey: .version)
    settings = try c.decode([String: String].self, forKey: .settings)
    prep = try c.decode([PrepEntry].self, forKey: .prep)
    review = try c.decode([ReviewEntry].self, forKey: .review)
    checkin = try c.decode([CheckinEntry].self, forKey: .checkin)
    help = try c.decode([HelpNote].self, forKey: .help)
    achievements = try c.decodeIfPresent([EarnedAchievement].self, forKey: .achievements) ?? []
    schedule = try c.decodeIfPresent([SlotSchedule].self, forKey: .schedule) ?? []
    pauses = try c.decodeIfPresent([Pause].self, forKey: .pauses) ?? []
    flows = try c.decodeIfPresent([AnsweredEntry].self, forKey: .flows) ?? []
    plans = try c.decodeIfPresent([String: Bool].self, forKey: .plans) ?? [:]
    habits = try c.decodeIfPresent([ExportHabit].self, forKey: .habits) ?? []
    planFiles = try c.decodeIfPresent([ExportPlanFile].self, forKey: .planFiles) ?? []
  }

  /// Stable, human-readable JSON: sorted keys, two-space indentation, trailing newline —
  /// byte for byte what `NudgeJSON.encode` writes (a test holds it to that). The coach's
  /// entries, thousands after a few years, are written here field by field; through
  /// JSONEncoder they cost several times everything else an export does. The other lists
  /// are short and go through `NudgeJSON`.
  public func encoded() throws -> Data {
    var out = ExportWriter()
    out.raw("{\n")
    try out.member("achievements", achievements)
    out.entries("checkin", checkin) { w, e in
      w.field("blocker", e.blocker)
      w.field("day", e.day.description)
      w.field("feel", e.feel)
      w.field("followed", e.followed)
      w.field("saved_at", e.savedAt)
    }
    try out.member("flows", flows)
    try out.member("format", format)
    try out.member("habits", habits)
    out.entries("help", help) { w, n in
      w.field("at", n.at)
      w.field("category", n.category.rawValue)
      w.field("coach", n.coach)
      w.field("day", n.day.description)
      w.field("id", n.id)
      w.field("note", n.note)
    }
    try out.member("pauses", pauses)
    try out.member("plan_files", planFiles)
    try out.member("plans", plans)
    out.entries("prep", prep) { w, e in
      w.field("breakfast", e.breakfast)
      w.field("day", e.day.description)
      w.field("other", e.other)
      w.field("produce", e.produce)
      w.field("saved_at", e.savedAt)
      w.field("sticky_notes", e.stickyNotes)
      w.field("water", e.water)
    }
    out.entries("review", review) { w, e in
      w.field("challenge", e.challenge?.rawValue)
      w.field("challenge_other", e.challengeOther)
      w.field("commit_from", e.commitFrom)
      w.field("commit_to", e.commitTo)
      w.field("day", e.day.description)
      w.field("saved_at", e.savedAt)
      w.field("swap", e.swap)
      w.field("why", e.why)
    }
    try out.member("schedule", schedule)
    try out.member("settings", settings)
    try out.member("version", version, last: true)
    out.raw("}\n")
    return Data(out.bytes)
  }

  private struct Header: Decodable {
    var format: String?
    var version: Int?
  }

  /// The largest document `import` reads (a life's entries are a few megabytes).
  public static let maxBytes = 64 << 20
  /// How deep its objects and arrays may nest (Nudge's own documents go three deep).
  public static let maxDepth = 16
  /// The most items one list may hold (a hundred years of days).
  public static let maxItems = 40_000
  /// The most JSON values a document may hold (a hundred years of entries is under a
  /// million): an unknown key holding millions of values is refused before it is decoded.
  public static let maxValues = 2_000_000

  /// Decodes and checks a document; the error says what is wrong and where.
  public static func decode(_ data: Data) throws(InputError) -> ExportDocument {
    guard data.count <= maxBytes else {
      throw InputError(
        "it is larger than \(maxBytes >> 20) MiB, more than any Nudge export; pass a file written by 'nudge export'."
      )
    }
    try checkNesting(data)
    // an object or an array, as JSONSerialization wants one at the top
    let first = data.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
    guard first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else {
      throw InputError(notJSON)
    }
    // what `nudge export` writes is read byte by byte; anything else goes to the decoder
    if let document = ExportReader.read(Array(data)) {
      try document.validate()
      return document
    }
    // one parse: the decoder reads the whole text before `Checked` looks at it, so whatever
    // it throws is the text not being JSON; `Checked` itself never throws
    let checked: Checked
    do {
      checked = try NudgeJSON.decode(Checked.self, from: data)
    } catch {
      throw InputError(notJSON)
    }
    let document = try checked.result.get()
    try document.validate()
    return document
  }

  private static let notJSON = "it is not valid JSON; pass a file written by 'nudge export'."

  /// A document read in one pass: its header first (the format, then a version this Nudge
  /// reads), then the rest; what is wrong is kept as the result, never thrown.
  private struct Checked: Decodable {
    let result: Result<ExportDocument, InputError>

    init(from decoder: any Decoder) {
      result = Result { () throws(InputError) in
        guard let header = try? Header(from: decoder), header.format == formatName else {
          throw InputError(
            "it is not a Nudge export (expected \"format\": \"\(formatName)\" at the top level).")
        }
        guard let version = header.version, version >= 1 else {
          throw InputError("\"version\" is missing or not a positive whole number.")
        }
        guard version <= currentVersion else {
          throw InputError(
            "it was written by a newer Nudge (export version \(version)); this Nudge reads version \(currentVersion). Update Nudge, then import again."
          )
        }
        do {
          return try ExportDocument(from: decoder)
        } catch let error as DecodingError {
          throw InputError(describe(error))
        } catch {
          // what the decoder reads only when a value is taken (a string's escapes) is the
          // text not being JSON, as the parse would have said
          throw InputError(notJSON)
        }
      }
    }
  }

  /// Refuses objects and arrays nested deeper than `maxDepth`, and more than `maxValues`
  /// values, in one pass over the bytes, before a decoder builds or recurses into them.
  static func checkNesting(_ data: Data) throws(InputError) {
    // read through the bytes themselves: Data's own iterator costs more than the scan
    let result = data.withUnsafeBytes { bytes in
      Result { () throws(InputError) in try checkNesting(bytes) }
    }
    try result.get()
  }

  private static func checkNesting(_ data: UnsafeRawBufferPointer) throws(InputError) {
    var depth = 0
    var values = 1
    var inString = false
    var escaped = false
    for byte in data {
      if inString {
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
        }
        continue
      }
      switch byte {
      case UInt8(ascii: "\""): inString = true
      case UInt8(ascii: "["), UInt8(ascii: "{"):
        depth += 1
        if depth > maxDepth {
          throw InputError(
            "its objects and arrays nest deeper than \(maxDepth) levels, which no Nudge export does; pass a file written by 'nudge export'."
          )
        }
      case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
      case UInt8(ascii: ","), UInt8(ascii: ":"):
        values += 1
        if values > maxValues {
          throw InputError(
            "it holds more than \(maxValues) values, far more than any Nudge export; pass a file written by 'nudge export'."
          )
        }
      default: break
      }
    }
  }

  private static func path(_ codingPath: [any CodingKey]) -> String {
    var out = ""
    for key in codingPath {
      if let index = key.intValue {
        out += "[\(index)]"
      } else {
        // the key as the document spells it (the decoder read `saved_at` as `savedAt`)
        let name = snakeCase(key.stringValue)
        out += out.isEmpty ? name : ".\(name)"
      }
    }
    return out.isEmpty ? "the top level" : out
  }

  private static func snakeCase(_ name: String) -> String {
    var out = ""
    for character in name {
      if character.isUppercase {
        out += "_" + character.lowercased()
      } else {
        out.append(character)
      }
    }
    return out
  }

  private static func describe(_ error: DecodingError) -> String {
    switch error {
    case .keyNotFound(let key, let context):
      return "\(path(context.codingPath + [key])) is missing."
    case .typeMismatch(let type, let context):
      return "\(path(context.codingPath)) has the wrong type (expected \(type))."
    case .valueNotFound(let type, let context):
      return "\(path(context.codingPath)) is null (expected \(type))."
    case .dataCorrupted(let context):
      return "\(path(context.codingPath)): \(context.debugDescription)."
    @unknown default:
      return "\(error)"
    }
  }

  /// Settings that name a command, a program or a path on this machine: never taken from a
  /// file, only from `nudge config set` here.
  public static let machineSettings: Set<SettingKey> = [.terminal]

  /// Checks what JSON types alone cannot, and holds every value to what the flows themselves
  /// allow: an entry that counts, days Nudge keeps, a note's day that matches its time,
  /// timestamps, text, lengths, counts, ids, settings. The error names the first offending
  /// path.
  public func validate() throws(InputError) {
    func unique(_ days: [Day], _ name: String) throws(InputError) {
      var seen = Set<Day>()
      for (index, day) in days.enumerated() where !seen.insert(day).inserted {
        throw InputError("\(name)[\(index)].day repeats \(day); keep one entry a day.")
      }
    }
    func size(_ count: Int, _ name: String) throws(InputError) {
      guard count <= Self.maxItems else {
        throw InputError(
          "\(name) holds \(count) items, more than the \(Self.maxItems) Nudge keeps; pass a file written by 'nudge export'."
        )
      }
    }
    // where a value is, said only when it is wrong (ten years are 12,000 entries, each with
    // several places to name)
    func day(_ value: Day, _ location: @autoclosure () -> String) throws(InputError) {
      guard SupportedTime.days.contains(value) else {
        throw InputError(
          "\(location()) is \(value), outside the days Nudge keeps (\(SupportedTime.days.lowerBound) to \(SupportedTime.days.upperBound))."
        )
      }
    }
    func instant(_ text: String, _ location: @autoclosure () -> String) throws(InputError)
      -> Instant
    {
      guard text.utf8.count <= 40, let parsed = InstantFormat.parse(text) else {
        throw InputError(
          "\(location()) is '\(VisibleText.escaped(String(text.prefix(40))))', not a time like 2026-11-20T21:30:00+01:00."
        )
      }
      guard SupportedTime.holds(stored: parsed) else {
        throw InputError(
          "\(location()) is \(text), outside the days Nudge keeps (\(SupportedTime.days.lowerBound) to \(SupportedTime.days.upperBound))."
        )
      }
      return parsed
    }
    /// A save can come days after its day (a backfill, an edit) but never before it.
    func saved(_ text: String, _ entryDay: Day, _ location: @autoclosure () -> String)
      throws(InputError)
    {
      let at = try instant(text, location())
      guard let local = Self.wallClock(text, at), local.date >= entryDay else {
        throw InputError("\(location()) \(text) comes before the entry's day \(entryDay).")
      }
    }
    func text(_ value: String?, _ location: @autoclosure () -> String) throws(InputError) {
      if let value, value != (try FreeText.clean(value, field: location())) {
        throw InputError("\(location()) has surrounding spaces or is empty; remove them.")
      }
    }
    func counts(_ entry: some DayEntry, _ location: @autoclosure () -> String, _ what: String)
      throws(InputError)
    {
      guard entry.counts else {
        throw InputError(
          "\(location()) has no \(what), so the flow would not count it; add it or leave the entry out."
        )
      }
    }
    try size(prep.count, "prep")
    try size(review.count, "review")
    try size(checkin.count, "checkin")
    try size(help.count, "help")
    try size(pauses.count, "pauses")
    try unique(prep.map(\.day), "prep")
    try unique(review.map(\.day), "review")
    try unique(checkin.map(\.day), "checkin")
    for (i, e) in prep.enumerated() {
      try day(e.day, "prep[\(i)].day")
      try saved(e.savedAt, e.day, "prep[\(i)].saved_at")
      try text(e.other, "prep[\(i)].other")
      try counts(e, "prep[\(i)]", "item ready and no other line")
    }
    for (i, e) in review.enumerated() {
      try day(e.day, "review[\(i)].day")
      try saved(e.savedAt, e.day, "review[\(i)].saved_at")
      for (v, k) in [
        (e.why, "why"), (e.challengeOther, "challenge_other"), (e.swap, "swap"),
        (e.commitTo, "commit_to"), (e.commitFrom, "commit_from"),
      ] {
        try text(v, "review[\(i)].\(k)")
      }
      if e.challengeOther != nil && e.challenge != .other {
        throw InputError("review[\(i)].challenge_other is set, but the challenge is not 'other'.")
      }
      try counts(e, "review[\(i)]", "commitment (commit_to)")
    }
    for (i, e) in checkin.enumerated() {
      try day(e.day, "checkin[\(i)].day")
      try saved(e.savedAt, e.day, "checkin[\(i)].saved_at")
      try text(e.feel, "checkin[\(i)].feel")
      try text(e.blocker, "checkin[\(i)].blocker")
      try counts(e, "checkin[\(i)]", "answer (followed or feel)")
    }
    var ids = Set<String>()
    for (i, n) in help.enumerated() {
      guard !n.id.isEmpty, n.id.utf8.count <= 64,
        n.id.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F })
      else { throw InputError("help[\(i)].id must be 1 to 64 visible ASCII characters.") }
      guard ids.insert(n.id).inserted else {
        throw InputError("help[\(i)].id repeats '\(n.id)'; each note needs its own id.")
      }
      try day(n.day, "help[\(i)].day")
      let at = try instant(n.at, "help[\(i)].at")
      // the day a note counts for is its own date, or the one before when it was written
      // before the rollover hour (at most 12:00)
      guard let local = Self.wallClock(n.at, at),
        n.day == local.date
          || n.day == local.date.adding(days: -1) && local.hour < DayRule.maxRolloverHour
      else {
        throw InputError("help[\(i)].day \(n.day) does not match its time \(n.at).")
      }
      try text(n.note, "help[\(i)].note")
      try text(n.coach, "help[\(i)].coach")
    }
    var slots = Set<ReminderSource>()
    for (i, s) in schedule.enumerated() {
      guard slots.insert(s.slot).inserted else {
        throw InputError("schedule[\(i)].slot repeats '\(s.slot.rawValue)'; keep one.")
      }
      guard !s.expression.isEmpty, s.expression.count <= 256,
        !s.expression.unicodeScalars.contains(where: {
          $0.properties.generalCategory == .control || VisibleText.isHostile($0)
        })
      else {
        throw InputError("schedule[\(i)].expression must be a calendar expression on one line.")
      }
    }
    var starts = Set<Day>()
    for (i, p) in pauses.enumerated() {
      try day(p.firstDay, "pauses[\(i)].first_day")
      try day(p.lastDay, "pauses[\(i)].last_day")
      guard starts.insert(p.firstDay).inserted else {
        throw InputError("pauses[\(i)].first_day repeats \(p.firstDay); keep one.")
      }
      guard p.firstDay <= p.lastDay, p.lastDay.ordinal - p.firstDay.ordinal < Pause.maxDays else {
        throw InputError(
          "pauses[\(i)] must end on or after its first day and last at most \(Pause.maxDays) days.")
      }
    }
    for (i, p) in pauses.enumerated() {
      if let other = pauses.firstIndex(where: {
        $0 != p && $0.firstDay <= p.lastDay && p.firstDay <= $0.lastDay
      }), other < i {
        throw InputError("pauses[\(i)] overlaps pauses[\(other)]; a day is paused once.")
      }
    }
    try size(plans.count, "plans")
    for name in plans.keys.sorted() where !PlanFile.isID(name) {
      throw InputError("plans has a key that is not a plan's name.")
    }
    try size(flows.count, "flows")
    var flowDays = Set<String>()
    for (i, e) in flows.enumerated() {
      guard FlowDefinition.isWord(e.flow) else {
        throw InputError("flows[\(i)].flow is not a flow's word (lowercase letters, digits, '-').")
      }
      guard flowDays.insert("\(e.flow) \(e.day)").inserted else {
        throw InputError("flows[\(i)] repeats \(e.flow) on \(e.day); keep one entry a day.")
      }
      try day(e.day, "flows[\(i)].day")
      try saved(e.savedAt, e.day, "flows[\(i)].saved_at")
      guard !e.answers.values.isEmpty, e.answers.values.count <= PlanFile.maxQuestions else {
        throw InputError(
          "flows[\(i)].answers must hold 1 to \(PlanFile.maxQuestions) answers.")
      }
      for (id, value) in e.answers.values.sorted(by: { $0.key < $1.key }) {
        guard PlanFile.isID(id) else {
          throw InputError("flows[\(i)].answers has a key that is not a question id.")
        }
        try text(value, "flows[\(i)].answers.\(id)")
      }
    }
    // habits: as many as Nudge keeps, their days too (each in the days Nudge keeps)
    guard habits.count <= Habit.maxCount else {
      throw InputError(
        "habits holds \(habits.count) habits, more than the \(Habit.maxCount) Nudge keeps.")
    }
    var habitDays = 0
    for (i, h) in habits.enumerated() {
      try day(h.since, "habits[\(i)].since")
      habitDays += h.days.count
      guard habitDays <= Habit.maxDaysInAll else {
        throw InputError(
          "habits hold more than the \(Habit.maxDaysInAll) recorded days Nudge keeps of all habits together."
        )
      }
      for (j, d) in h.days.enumerated() { try day(d.day, "habits[\(i)].days[\(j)].day") }
    }
    // plan files: a name and no path, as many as a plans folder is read for, each no larger
    // than a plan file may be (what is in one is judged by the plan file rules on import)
    guard planFiles.count <= 100 else {
      throw InputError(
        "plan_files holds \(planFiles.count) files, more than the 100 an export carries.")
    }
    var names = Set<String>()
    for (i, file) in planFiles.enumerated() {
      guard ExportPlanFile.isFileName(file.name) else {
        throw InputError(
          "plan_files[\(i)].name '\(VisibleText.escaped(String(file.name.prefix(40))))' is not a plan file's name (NAME.plan, NAME a lowercase letter then letters, digits, - or _)."
        )
      }
      guard names.insert(file.name).inserted else {
        throw InputError("plan_files[\(i)].name repeats \(file.name); keep one file a name.")
      }
      guard file.text.utf8.count <= PlanFile.maxBytes else {
        throw InputError(
          "plan_files[\(i)].text is larger than \(PlanFile.maxBytes / 1024) KiB, the most a plan file may be."
        )
      }
    }
    try size(achievements.count, "achievements")
    for (name, value) in settings.sorted(by: { $0.key < $1.key }) {
      guard name.utf8.count <= 64, value.utf8.count <= 1024 else {
        throw InputError("settings.\(VisibleText.escaped(String(name.prefix(64)))) is too long.")
      }
      do {
        let key = try SettingKey.named(name)
        // a setting that names a command on this machine is skipped, whatever it says
        if Self.machineSettings.contains(key) { continue }
        _ = try key.validate(value)
      } catch {
        throw InputError(
          "settings.\(VisibleText.escaped(name)): \(VisibleText.escaped(error.message))")
      }
    }
  }

  /// Refuses what no flow could have saved by `today` and `now`: an entry, a note or a save
  /// for a day after tomorrow or a time more than a day ahead (a day's slack for another
  /// device's zone); the error names the first one.
  public func checkNotAfter(day today: Day, now: Instant) throws(InputError) {
    let lastDay = today.adding(days: 1)
    let lastInstant = now.adding(seconds: 86400)
    func check(_ day: Day, _ saved: String, _ location: String) throws(InputError) {
      if day > lastDay {
        throw InputError(
          "\(location).day is \(day), a day no flow can have saved yet (today is \(today)).")
      }
      if let at = InstantFormat.parse(saved), at > lastInstant {
        throw InputError("\(location) was saved at \(saved), later than now.")
      }
    }
    for (i, e) in prep.enumerated() { try check(e.day, e.savedAt, "prep[\(i)]") }
    for (i, e) in review.enumerated() { try check(e.day, e.savedAt, "review[\(i)]") }
    for (i, e) in checkin.enumerated() { try check(e.day, e.savedAt, "checkin[\(i)]") }
    for (i, n) in help.enumerated() { try check(n.day, n.at, "help[\(i)]") }
    for (i, e) in flows.enumerated() { try check(e.day, e.savedAt, "flows[\(i)]") }
    for (i, h) in habits.enumerated() {
      if h.since > lastDay {
        throw InputError(
          "habits[\(i)].since is \(h.since), a day no habit can have started yet (today is \(today))."
        )
      }
      for (j, d) in h.days.enumerated() { try check(d.day, d.savedAt, "habits[\(i)].days[\(j)]") }
    }
  }

  /// The date and hour on the clock that `text` was written with (its own offset).
  static func wallClock(_ text: String, _ instant: Instant) -> (date: Day, hour: Int)? {
    guard let offset = InstantFormat.offset(of: text) else { return nil }
    let local = instant.seconds + offset
    let days = local >= 0 ? local / 86400 : (local - 86399) / 86400
    return (Day(ordinal: days), (local - days * 86400) / 3600)
  }
}

/// The top-level object of `ExportDocument.encoded()`, as JSONEncoder lays it out with
/// `.prettyPrinted` (two spaces a level, `"key" : value`, an empty list as `[`, an empty line,
/// `]`).
private struct ExportWriter {
  var bytes: [UInt8] = []
  /// Whether the object being written has no field yet.
  private var firstField = true

  init() { bytes.reserveCapacity(1 << 20) }

  mutating func raw(_ text: String) {
    var text = text
    text.withUTF8 { bytes.append(contentsOf: $0) }
  }

  /// `"key" : value` one level in, the value as `NudgeJSON` writes it.
  mutating func member<T: Encodable>(_ key: String, _ value: T, last: Bool = false) throws {
    raw("  \"\(key)\" : ")
    // a nested value's lines one level further in, its empty line (an empty list's) left
    // empty (a JSON string holds no line break)
    var lineStart = false
    for byte in try NudgeJSON.encode(value) {
      if lineStart && byte != 0x0A { raw("  ") }
      bytes.append(byte)
      lineStart = byte == 0x0A
    }
    raw(last ? "\n" : ",\n")
  }

  /// `"key" : [ … ]`, each item an object whose fields `fields` writes in key order.
  mutating func entries<T>(_ key: String, _ items: [T], _ fields: (inout Self, T) -> Void) {
    raw("  \"\(key)\" : [\n")
    if items.isEmpty { raw("\n") }
    for (index, item) in items.enumerated() {
      raw(index == 0 ? "    {\n" : ",\n    {\n")
      firstField = true
      fields(&self, item)
      raw("\n    }")
      if index == items.count - 1 { raw("\n") }
    }
    raw("  ],\n")
  }

  private mutating func name(_ key: StaticString) {
    if !firstField { raw(",\n") }
    firstField = false
    raw("      \"")
    bytes.append(
      contentsOf: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
    raw("\" : ")
  }

  /// A text field; none when nil (as `encodeIfPresent` leaves it out).
  mutating func field(_ key: StaticString, _ value: String?) {
    guard let value else { return }
    name(key)
    FlatJSON.appendString(value, to: &bytes, escapingSlashes: false)
  }

  mutating func field(_ key: StaticString, _ value: Bool?) {
    guard let value else { return }
    name(key)
    raw(value ? "true" : "false")
  }
}
