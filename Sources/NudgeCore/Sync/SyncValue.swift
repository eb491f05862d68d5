import FoundationEssentials

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
  /// A habit's day: done (false: skipped, or failed when `failed`), a measurable habit's
  /// amount that day, and the person's note on it.
  public var done: Bool?
  public var failed: Bool?
  public var amount: Int?
  public var note: String?
  /// A plan file's text.
  public var planText: String?

  public init(
    answers: [String: String]? = nil, savedAt: String? = nil, lastDay: Day? = nil,
    expression: String? = nil, enabled: Bool? = nil, value: String? = nil,
    habit: ExportHabit? = nil, done: Bool? = nil, failed: Bool? = nil, amount: Int? = nil,
    note: String? = nil, planText: String? = nil
  ) {
    self.answers = answers
    self.savedAt = savedAt
    self.lastDay = lastDay
    self.expression = expression
    self.enabled = enabled
    self.value = value
    self.habit = habit
    self.done = done
    self.failed = failed
    self.amount = amount
    self.note = note
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
      for field in HabitField.allCases { found[field.rawValue] = field.text(in: habit) }
    }
    if let done { found["done"] = done ? "yes" : "no" }
    if let failed { found["failed"] = failed ? "yes" : "no" }
    if let amount { found["amount"] = String(amount) }
    if let note { found["note"] = note }
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
        ("habit", habit != nil), ("done", done != nil), ("failed", failed != nil),
        ("amount", amount != nil), ("note", note != nil),
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
      document.add(entry)
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
      guard fields.subtracting(["amount", "failed", "note"]) == ["saved_at", "done"], let done,
        let savedAt
      else { return SyncRefusal("a habit day's value is not done, skipped or failed and when") }
      guard failed != true || !done else {
        return SyncRefusal("a habit day is done or failed, not both")
      }
      guard savedAt.utf8.count <= 40, InstantFormat.parse(savedAt) != nil else {
        return SyncRefusal("a habit day's saved_at is not a time")
      }
      if let amount {
        guard done, (0...Habit.maxAmount).contains(amount) else {
          return SyncRefusal(
            "a habit day's amount is a whole number from 0 to \(Habit.maxAmount), on a day done")
        }
      }
      if let note, (try? Habit.checkedNote(note)) != note {
        return SyncRefusal(
          "a habit day's note is not one line of 1 to \(Habit.maxNoteLength) characters, trimmed")
      }
      var carrier = ExportHabit(
        Habit(name: "x", since: day),
        days: [
          HabitCheck(
            day: day, done: done, failed: failed ?? false, note: note, savedAt: savedAt)
        ])
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
