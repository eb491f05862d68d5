import FoundationEssentials

/// What one change is about: a flow's entry (a help note by its id), a pause, a slot's
/// schedule, a setting that travels, one of the person's own habits (by the id it travels
/// under), a habit's day, or whether a plan is on. Nothing else travels: not the `terminal`
/// (it runs a command), not a path, not the reminders' state.
public enum SyncKey: Hashable, Sendable, CustomStringConvertible {
  /// A flow's entry of a day (`id`: a help note's, several a day).
  case entry(day: Day, flow: String, id: String?)
  /// The pause that starts on this day.
  case pause(firstDay: Day)
  /// A slot's schedule.
  case slot(ReminderSource)
  /// The celebration preference (the only setting that travels).
  case celebrations
  /// A habit's definition, by the id every computer knows it by (`habit.uid`).
  case habit(uid: String)
  /// What was recorded of a habit on a day (done, with its amount, or skipped).
  case habitDay(uid: String, day: Day)
  /// Whether a plan is on (`nudge plan on|off NAME`).
  case planChoice(String)
  /// A plan file of the person's own (`NAME.plan` in the plans folder), as text.
  case planFile(String)

  /// `entry/DAY/FLOW[/ID]`, `pause/DAY`, `slot/SLOT`, `setting/celebrations`, `habit/UID`,
  /// `habitday/UID/DAY`, `plan/NAME`.
  public var description: String {
    switch self {
    case .entry(let day, let flow, let id): "entry/\(day)/\(flow)" + (id.map { "/" + $0 } ?? "")
    case .pause(let day): "pause/\(day)"
    case .slot(let slot): "slot/\(slot.rawValue)"
    case .celebrations: "setting/celebrations"
    case .habit(let uid): "habit/\(uid)"
    case .habitDay(let uid, let day): "habitday/\(uid)/\(day)"
    case .planChoice(let name): "plan/\(name)"
    case .planFile(let name): "planfile/\(name)"
    }
  }

  /// Every kind of key, by the word its text starts with: one for each kind of the person's
  /// data (`DataKind.syncKind`).
  public static let kinds = DataKind.allCases.map(\.syncKind).reduce(into: [String]()) {
    if !$0.contains($1) { $0.append($1) }
  }

  /// Reads a key another device wrote; the reason when it is not one this Nudge takes.
  public static func parse(_ text: String) -> Result<SyncKey, SyncRefusal> {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    switch (parts.first, parts.count) {
    case ("entry", 3), ("entry", 4):
      guard let day = Day(parts[1]) else { return .failure(.init("an entry's day is not a date")) }
      guard let flow = Flow(rawValue: parts[2]) else {
        return .failure(.init("an entry's flow is not a flow's name"))
      }
      let id = parts.count == 4 ? parts[3] : nil
      guard flow.isKeptSeveralADay == (id != nil) else {
        return .failure(
          .init("an entry of \(flow.rawValue) \(id == nil ? "without" : "with") an id"))
      }
      if let id, !SyncKey.isNoteID(id) {
        return .failure(.init("a help note's id is not 1 to 64 visible ASCII characters"))
      }
      return .success(.entry(day: day, flow: flow.rawValue, id: id))
    case ("pause", 2):
      guard let day = Day(parts[1]) else { return .failure(.init("a pause's day is not a date")) }
      return .success(.pause(firstDay: day))
    case ("slot", 2):
      guard let slot = ReminderSource(rawValue: parts[1]) else {
        return .failure(.init("a slot's name is not one Nudge has"))
      }
      return .success(.slot(slot))
    case ("setting", 2) where parts[1] == "celebrations":
      return .success(.celebrations)
    case ("setting", 2):
      return .failure(.init("the setting '\(VisibleText.escaped(parts[1]))' does not travel"))
    case ("habit", 2):
      guard isHabitID(parts[1]) else {
        return .failure(.init("a habit's id is not 16 to 32 lowercase hex digits"))
      }
      return .success(.habit(uid: parts[1]))
    case ("habitday", 3):
      guard isHabitID(parts[1]) else {
        return .failure(.init("a habit's id is not 16 to 32 lowercase hex digits"))
      }
      guard let day = Day(parts[2]) else {
        return .failure(.init("a habit day's day is not a date"))
      }
      return .success(.habitDay(uid: parts[1], day: day))
    case ("plan", 2):
      guard ExportPlanFile.isFileName(parts[1] + ".plan") else {
        return .failure(.init("a plan's name is not one a plan file can have"))
      }
      return .success(.planChoice(parts[1]))
    case ("planfile", 2):
      guard ExportPlanFile.isFileName(parts[1] + ".plan") else {
        return .failure(.init("a plan file's name is not one a plan file can have"))
      }
      return .success(.planFile(parts[1]))
    case ("entry", _), ("pause", _), ("slot", _), ("setting", _), ("habit", _), ("habitday", _),
      ("plan", _), ("planfile", _):
      return .failure(
        .init(
          "its key has \(parts.count) parts, not the \(parts[0] == "entry" ? "3 or 4 of entry/DAY/FLOW[/ID]" : parts[0] == "habitday" ? "3 of habitday/ID/DAY" : "2 of \(parts[0])/NAME")"
        ))
    default:
      return .failure(
        .init("unknown kind '\(VisibleText.escaped(String((parts.first ?? "").prefix(40))))'"))
    }
  }

  /// A habit's travelling id: 16 to 32 lowercase hex digits (the store makes 16).
  public static func isHabitID(_ id: String) -> Bool {
    (16...32).contains(id.utf8.count)
      && id.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
  }

  /// A help note's id as imports take it: 1 to 64 visible ASCII characters, no '/'.
  static func isNoteID(_ id: String) -> Bool {
    !id.isEmpty && id.utf8.count <= 64
      && id.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7F && $0 != "/" }
  }
}

/// What a key holds after a change (a removal carries none): the fields of its kind, and no
/// others. Encoded with sorted keys, so two equal values have one text.
public struct SyncValue: Codable, Equatable, Sendable {
  /// An entry's answers by question id, and when it was saved.
  public var answers: [String: String]?
  public var savedAt: String?
  /// A pause's last day.
  public var lastDay: Day?
  /// A slot's calendar expression and whether it is on.
  public var expression: String?
  public var enabled: Bool?
  /// A setting's value.
  public var value: String?
  /// A habit's definition (its `days` empty: each day travels as a key of its own).
  public var habit: ExportHabit?
  /// A habit's day: done (false: skipped), and a measurable habit's amount that day.
  public var done: Bool?
  public var amount: Int?
  /// A plan file's text.
  public var planText: String?

  public init(
    answers: [String: String]? = nil, savedAt: String? = nil, lastDay: Day? = nil,
    expression: String? = nil, enabled: Bool? = nil, value: String? = nil,
    habit: ExportHabit? = nil, done: Bool? = nil, amount: Int? = nil, planText: String? = nil
  ) {
    self.answers = answers
    self.savedAt = savedAt
    self.lastDay = lastDay
    self.expression = expression
    self.enabled = enabled
    self.value = value
    self.habit = habit
    self.done = done
    self.amount = amount
    self.planText = planText
  }

  /// What it holds field by field, as a person compares two versions: each answer by its
  /// question's id, a pause's `last_day`, a slot's `time` and `on`, a setting's `value`. When
  /// an entry was saved is left out (two versions always differ there).
  public var fields: [String: String] {
    var found = answers ?? [:]
    if let lastDay { found["last_day"] = lastDay.description }
    if let expression { found["time"] = expression }
    if let enabled { found["on"] = enabled ? "yes" : "no" }
    if let value { found["value"] = value }
    if let habit {
      found["name"] = habit.name
      found["question"] = habit.question
      found["every"] = habit.every
      found["at"] = habit.at
      found["target"] = habit.target.map(String.init)
      found["unit"] = habit.unit
      found["since"] = habit.since.description
      found["archived"] = habit.archived ? "yes" : "no"
    }
    if let done { found["done"] = done ? "yes" : "no" }
    if let amount { found["amount"] = String(amount) }
    if let planText { found["plan_text"] = planText }
    return found
  }

  /// The fields whose values differ between this version and `other` (one missing in either
  /// counts), sorted by name: what taking one instead of the other changes.
  public func differingFields(from other: SyncValue?) -> [String] {
    let mine = fields
    let theirs = other?.fields ?? [:]
    return Set(mine.keys).union(theirs.keys).filter { mine[$0] != theirs[$0] }.sorted()
  }

  /// Its one text (sorted keys), what two versions are compared by and the store keeps.
  public var text: String {
    String(decoding: (try? SyncLine.encoder.encode(self)) ?? Data(), as: UTF8.self)
  }

  /// Reads what `text` wrote; nil when it can't be read.
  public init?(text: String) {
    guard let value = try? SyncLine.decoder.decode(SyncValue.self, from: Data(text.utf8)) else {
      return nil
    }
    self = value
  }

  /// Checks the value is one `key` can hold, by the rules an import holds it to — the same
  /// code: the value is put in a document of its own and `ExportDocument.validate` judges it,
  /// so what sync takes, the export it ends in imports again (an entry of a flow a plan file
  /// defines is held to that definition where the plans are known: `SyncExchange`).
  public func check(for key: SyncKey) -> SyncRefusal? {
    // the fields it holds, by name: each kind holds its own and no others
    let fields = Set(
      [
        ("answers", answers != nil), ("saved_at", savedAt != nil), ("last_day", lastDay != nil),
        ("expression", expression != nil), ("enabled", enabled != nil), ("value", value != nil),
        ("habit", habit != nil), ("done", done != nil), ("amount", amount != nil),
        ("plan_text", planText != nil),
      ].filter(\.1).map(\.0))
    var document = ExportDocument(settings: [:], prep: [], review: [], checkin: [], help: [])
    switch key {
    case .entry(let day, let flow, let id):
      guard fields == ["answers", "saved_at"], let answers,
        let savedAt
      else {
        return SyncRefusal("an entry's value has other fields than its answers and saved_at")
      }
      guard answers.count <= 64,
        answers.allSatisfy({ $0.key.utf8.count <= 64 && $0.value.utf8.count <= 8192 })
      else { return SyncRefusal("an entry's answers are too many or too long") }
      guard savedAt.utf8.count <= 40, InstantFormat.parse(savedAt) != nil else {
        return SyncRefusal("an entry's saved_at is not a time")
      }
      let entry: FlowEntry
      do {
        entry = try FlowEntry(
          stored: StoredEntry(flow: flow, day: day, id: id, answers: answers, savedAt: savedAt))
      } catch {
        return SyncRefusal("the entry is not one its flow saves (\(error.message))")
      }
      switch entry {
      case .prep(let e): document.prep = [e]
      case .review(let e): document.review = [e]
      case .checkin(let e): document.checkin = [e]
      case .help(let n): document.help = [n]
      case .answered(let e): document.flows = [e]
      }
    case .pause(let firstDay):
      guard fields == ["last_day"], let lastDay
      else {
        return SyncRefusal("a pause's value is not its last day")
      }
      guard firstDay <= lastDay, lastDay.ordinal - firstDay.ordinal < Pause.maxDays else {
        return SyncRefusal("a pause ends before it starts or is longer than \(Pause.maxDays) days")
      }
      document.pauses = [Pause(firstDay: firstDay, lastDay: lastDay)]
    case .slot(let slot):
      guard fields == ["expression", "enabled"], let expression,
        let enabled
      else {
        return SyncRefusal("a slot's value is not an expression and whether it is on")
      }
      guard !expression.isEmpty, expression.count <= 256,
        !expression.unicodeScalars.contains(where: {
          $0.properties.generalCategory == .control || VisibleText.isHostile($0)
        })
      else { return SyncRefusal("a slot's expression is not a calendar expression on one line") }
      document.schedule = [SlotSchedule(slot: slot, expression: expression, enabled: enabled)]
    case .celebrations:
      guard fields == ["value"], let value,
        value == "on" || value == "off"
      else {
        return SyncRefusal("the celebrations setting is not on or off")
      }
      document.settings = [SettingKey.celebrations.rawValue: value]
    case .habit(let uid):
      guard fields == ["habit"], let habit,
        habit.days.isEmpty, habit.uid == nil || habit.uid == uid
      else { return SyncRefusal("a habit's value is not its definition alone") }
      // the rules `nudge habit add` holds typing to (the words a name can't be and the time's
      // reading are the CLI's: `SyncExchange` asks them too)
      do { _ = try habit.checked(reserved: [], timeProblem: { _ in nil }) } catch {
        return SyncRefusal("the habit is not one 'nudge habit add' takes (\(error.message))")
      }
      document.habits = [habit]
    case .habitDay(_, let day):
      guard fields.subtracting(["amount"]) == ["saved_at", "done"], let done,
        let savedAt
      else { return SyncRefusal("a habit day's value is not done or skipped and when") }
      guard savedAt.utf8.count <= 40, InstantFormat.parse(savedAt) != nil else {
        return SyncRefusal("a habit day's saved_at is not a time")
      }
      if let amount {
        guard done, (0...Habit.maxAmount).contains(amount) else {
          return SyncRefusal(
            "a habit day's amount is a whole number from 0 to \(Habit.maxAmount), on a day done")
        }
      }
      var carrier = ExportHabit(
        Habit(name: "x", since: day), days: [HabitCheck(day: day, done: done, savedAt: savedAt)])
      carrier.since = day
      document.habits = [carrier]
    case .planChoice:
      guard fields == ["enabled"] else {
        return SyncRefusal("a plan's value is not whether it is on")
      }
    case .planFile(let name):
      guard fields == ["plan_text"],
        let text = planText
      else { return SyncRefusal("a plan file's value is not its text") }
      // the rules a file dropped into the plans folder is held to are the CLI's to ask
      // (`SyncExchange`): here, its size and that it is text
      guard text.utf8.count <= PlanFile.maxBytes, !text.contains("\u{0}") else {
        return SyncRefusal(
          "a plan file's text is larger than \(PlanFile.maxBytes / 1024) KiB or not text")
      }
      document.planFiles = [ExportPlanFile(name: name + ".plan", text: text)]
    }
    do { try document.validate() } catch {
      return SyncRefusal("an import would refuse it: \(Self.withoutPlace(error.message))")
    }
    if case .slot = key, let expression {
      // the shape systemd reads (a zone it names is for the timer to find), once a minute at
      // most (a reminder's time, as `schedule set` and an import hold it)
      do {
        let spec = try CalendarSpec.parse(expression, localZone: .utc, zoneExists: { _ in true })
        if let problem = spec.reminderProblem {
          return SyncRefusal("a slot's expression is no reminder time: \(problem)")
        }
      } catch {
        return SyncRefusal("a slot's expression is not a calendar expression")
      }
    }
    return nil
  }

  /// An import's error without the place in its document ("review[0].why contains …" →
  /// "why contains …"): the document was made for the one value.
  static func withoutPlace(_ message: String) -> String {
    for list in [
      "prep", "review", "checkin", "help", "flows", "pauses", "schedule", "settings", "habits",
    ] {
      for prefix in ["\(list)[0].", "\(list)[0] ", "\(list)[0]: ", "\(list)."]
      where message.hasPrefix(prefix) {
        return String(message.dropFirst(prefix.count))
      }
    }
    return message
  }
}

/// One change as it travels: its clock, its key, what the key holds after it (nil: removed, a
/// tombstone), and the latest change of each other device its writer had taken in (so a
/// device can tell a later edit from one made while apart).
public struct SyncChange: Equatable, Sendable {
  public var clock: SyncClock
  public var key: SyncKey
  public var value: SyncValue?
  public var seen: [String: SyncClock]

  public init(clock: SyncClock, key: SyncKey, value: SyncValue?, seen: [String: SyncClock] = [:]) {
    self.clock = clock
    self.key = key
    self.value = value
    self.seen = seen
  }
}

/// Why a line, a file or a value from the folder was not taken.
public struct SyncRefusal: Error, Equatable, Sendable {
  public let reason: String
  /// Whether the line is kept aside and tried again at each take-in (`ahead`, `undefinedFlow`,
  /// `notTakenByPlan`), not passed over for good.
  public let waits: Bool

  public init(_ reason: String, waits: Bool = false) {
    self.reason = reason
    self.waits = waits
  }

  /// A change dated more than an hour ahead of this clock: kept aside and taken once this
  /// clock gets there (the other computer's clock may be fast).
  public static let ahead =
    "it is dated in the future (more than an hour ahead of this clock); it is taken once this clock gets there"

  /// `ahead` as a refusal: it waits.
  public static let aheadRefusal = SyncRefusal(ahead, waits: true)

  public var isAhead: Bool { reason == Self.ahead }

  /// An entry of a flow no plan here defines: kept aside too, and taken once a plan file here
  /// defines its flow (the other computer may have the file first).
  public static func undefinedFlow(_ word: String) -> SyncRefusal {
    SyncRefusal(
      "its entry is of '\(VisibleText.escaped(word))', a flow no plan here defines; it is taken once a plan here does",
      waits: true)
  }

  /// An entry of a flow a plan here defines otherwise (the plan file differs between the
  /// computers: a question added or gone): kept aside too, taken once the plan here takes it.
  public static func notTakenByPlan(_ why: String) -> SyncRefusal {
    SyncRefusal(
      "its flow's plan here refuses it (\(why)); it is taken once the plan here takes it",
      waits: true)
  }
}

/// The first line of a device's file: whose it is, its name, and which generation of its log
/// it goes with (a snapshot covers every change of the logs before its generation).
public struct SyncHeader: Codable, Equatable, Sendable {
  /// The format's version: 1.
  public var nudgeSync: Int
  public var device: String
  public var name: String
  public var generation: Int

  public init(device: String, name: String, generation: Int) {
    self.nudgeSync = 1
    self.device = device
    self.name = name
    self.generation = generation
  }
}

/// A device file's lines: `CRC32 JSON` — eight hexadecimal digits of the JSON's CRC-32, a
/// space, the JSON on one line, a newline. A line without its newline is not finished (being
/// written or copied) and is left for later; one whose checksum fails is skipped.
public enum SyncLine {
  static let encoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    encoder.keyEncodingStrategy = .convertToSnakeCase
    return encoder
  }()

  static let decoder: JSONDecoder = {
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    return decoder
  }()

  /// The longest line taken (longer ones are skipped, read past without being kept whole).
  public static let maxBytes = 256 * 1024

  private struct Wire: Codable {
    var c: String
    var k: String
    var v: SyncValue?
    var s: [String: String]?
  }

  /// A change's line, its newline included.
  public static func line(_ change: SyncChange) -> String {
    let wire = Wire(
      c: change.clock.description, k: change.key.description, v: change.value,
      s: change.seen.isEmpty ? nil : change.seen.mapValues(\.description))
    return framed((try? encoder.encode(wire)) ?? Data())
  }

  /// A header's line, its newline included.
  public static func line(_ header: SyncHeader) -> String {
    framed((try? encoder.encode(header)) ?? Data())
  }

  private static func framed(_ json: Data) -> String {
    let sum = String(CRC32.checksum(json), radix: 16)
    return String(repeating: "0", count: 8 - sum.count) + sum + " "
      + String(decoding: json, as: UTF8.self) + "\n"
  }

  /// The JSON of a line (without its newline) whose checksum holds.
  static func body(_ line: some Collection<UInt8>) -> Result<ArraySlice<UInt8>, SyncRefusal> {
    let bytes = ArraySlice(line)
    guard bytes.count > 9, bytes[bytes.startIndex + 8] == UInt8(ascii: " "),
      let sum = UInt32(String(decoding: bytes.prefix(8), as: UTF8.self), radix: 16)
    else { return .failure(SyncRefusal("it is not a checksum and a change")) }
    let json = bytes.dropFirst(9)
    guard CRC32.checksum(json) == sum else { return .failure(SyncRefusal("its checksum fails")) }
    return .success(json)
  }

  /// Reads a header line.
  public static func header(_ line: some Collection<UInt8>) -> Result<SyncHeader, SyncRefusal> {
    switch body(line) {
    case .failure(let refusal): return .failure(refusal)
    case .success(let json):
      guard let header = try? decoder.decode(SyncHeader.self, from: Data(json)),
        header.nudgeSync == 1, SyncDevice.isID(header.device), header.generation >= 0
      else { return .failure(SyncRefusal("its first line is not a Nudge sync header")) }
      guard SyncDevice.isName(header.name) else {
        return .failure(
          SyncRefusal(
            "its computer's name '\(VisibleText.escaped(String(header.name.prefix(64))))' is not one Nudge shows (one line of at most 64 visible characters, no control or direction marks)"
          ))
      }
      return .success(header)
    }
  }

  /// Reads a change line of `device`'s file (a snapshot holds every device's changes:
  /// `anyDevice`), refusing what is not a change this Nudge takes: a clock from the future
  /// (more than an hour past `now`, milliseconds) or before 2000, a key of an unknown kind, a
  /// value its key can't hold.
  public static func change(
    _ line: some Collection<UInt8>, device: String, anyDevice: Bool = false, now: Int
  ) -> Result<SyncChange, SyncRefusal> {
    let json: ArraySlice<UInt8>
    switch body(line) {
    case .failure(let refusal): return .failure(refusal)
    case .success(let found): json = found
    }
    guard let wire = try? decoder.decode(Wire.self, from: Data(json)) else {
      return .failure(SyncRefusal("it is not a change Nudge reads"))
    }
    guard let clock = SyncClock(wire.c) else {
      return .failure(
        SyncRefusal(
          "its clock '\(VisibleText.escaped(String(wire.c.prefix(48))))' is not a Nudge clock (13 digits of milliseconds, 5 of a counter, the device's id, joined by '-')"
        ))
    }
    guard anyDevice || clock.device == device else {
      return .failure(SyncRefusal("it claims to be another device's change"))
    }
    guard clock.wall >= SyncClock.earliestWall else {
      return .failure(SyncRefusal("it is dated before 2000"))
    }
    guard clock.wall <= now + SyncClock.allowedAheadMilliseconds else {
      return .failure(.aheadRefusal)
    }
    var seen: [String: SyncClock] = [:]
    for (id, text) in wire.s ?? [:] {
      guard SyncDevice.isID(id), let seenClock = SyncClock(text), seenClock.device == id,
        seenClock.wall >= SyncClock.earliestWall,
        seenClock.wall <= now + SyncClock.allowedAheadMilliseconds
      else {
        return .failure(SyncRefusal("what it saw is not a list of clocks of its time"))
      }
      seen[id] = seenClock
    }
    let key: SyncKey
    switch SyncKey.parse(wire.k) {
    case .failure(let refusal): return .failure(refusal)
    case .success(let found): key = found
    }
    // an entry is kept on a day no later than the one it was made on (a zone ahead of UTC: one
    // more), as an import holds it to today
    if case .entry(let day, _, _) = key,
      day.ordinal > floorDiv(clock.wall, 86_400_000) + 1 || !SupportedTime.days.contains(day)
    {
      return .failure(
        SyncRefusal("its entry is for \(day), a day no flow could have saved when it was made"))
    }
    if let value = wire.v, let refusal = value.check(for: key) { return .failure(refusal) }
    return .success(SyncChange(clock: clock, key: key, value: wire.v, seen: seen))
  }
}

/// CRC-32 (IEEE 802.3, as zlib computes it).
public enum CRC32 {
  private static let table: [UInt32] = (0..<256).map { n in
    var c = UInt32(n)
    for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    return c
  }

  public static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
    var c: UInt32 = 0xFFFF_FFFF
    for byte in bytes { c = table[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
    return c ^ 0xFFFF_FFFF
  }
}
