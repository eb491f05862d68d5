/// A habit of the person's own as an export carries it: its definition and every day
/// recorded of it. What comes from a file is held to the rules `nudge habit add` holds a
/// person's typing to (`checked`) before anything is written.
public struct ExportHabit: Codable, Equatable, Sendable {
  public var name: String
  public var question: String
  /// Its frequency, in the words `--every` takes (`daily`, `3/week`).
  public var every: String
  /// Its reminder time, as `--at` takes it; absent or null for none.
  public var at: String?
  /// Its further reminder times, after `at` (absent: none, as in an export from before them;
  /// a Nudge from before them keeps only the first).
  public var alsoAt: [String]?
  public var target: Int?
  public var unit: String?
  public var since: Day
  public var archived: Bool
  /// The id it travels by (absent in an export from before it): a restore keeps it, so a
  /// backup restored on one computer is the same habit as the other computer's.
  public var uid: String?
  /// Its tags (absent: none, as in an export from before them).
  public var tags: [String]?
  /// A limit: its target a ceiling (absent: no).
  public var atMost: Bool?
  /// A habit to quit (absent: no).
  public var quit: Bool?
  /// Every day recorded, oldest first.
  public var days: [HabitCheck]

  public init(_ habit: Habit, days: [HabitCheck]) {
    name = habit.name
    question = habit.question
    every = habit.every.description
    at = habit.at
    alsoAt = habit.alsoAt.isEmpty ? nil : habit.alsoAt
    target = habit.target
    unit = habit.unit
    since = habit.since
    archived = habit.archived
    uid = habit.uid
    tags = habit.tags.isEmpty ? nil : habit.tags
    atMost = habit.atMost ? true : nil
    quit = habit.quit ? true : nil
    self.days = days.sorted { $0.day < $1.day }
  }

  /// The habit and its days, each value checked as `nudge habit add` and `done` check it
  /// (`reserved`: the words a name can't be; `timeProblem`: what is wrong with a time, nil
  /// when it reads); the error says which value and why.
  public func checked(reserved: Set<String>, timeProblem: (String) -> String?)
    throws(InputError) -> (habit: Habit, days: [HabitCheck])
  {
    var habit = Habit(
      name: try Habit.checkedName(name, reserved: reserved), since: since, archived: archived)
    habit.question = try Habit.checkedQuestion(question)
    if let uid {
      guard SyncKey.isHabitID(uid) else {
        throw InputError("its uid is not 16 to 32 lowercase hex digits")
      }
      habit.uid = uid
    }
    habit.every = try HabitFrequency.parse(every)
    if let at {
      if let problem = Habit.reminderTimeProblem(at) ?? timeProblem(at) {
        throw InputError(problem)
      }
      habit.at = at
    }
    if let alsoAt {
      guard at != nil || alsoAt.isEmpty else {
        throw InputError("it has further reminder times (also_at) but no first one (at)")
      }
      for time in alsoAt {
        if let problem = Habit.reminderTimeProblem(time) ?? timeProblem(time) {
          throw InputError(problem)
        }
      }
      habit.alsoAt = alsoAt
      guard habit.reminderTimes.count <= Habit.maxReminders else {
        throw InputError(
          "it has \(habit.reminderTimes.count) reminders; a habit has at most \(Habit.maxReminders)"
        )
      }
      // the same times in other words (8:00, 08:00, 8am) are one reminder
      let expressions = habit.reminderTimes.map { PlainTime.expression($0) ?? $0 }
      guard Set(expressions).count == expressions.count else {
        throw InputError("a reminder time is given twice")
      }
    }
    habit.atMost = atMost ?? false
    habit.target = try target.map(habit.atMost ? Habit.checkedLimit : Habit.checkedTarget)
    habit.unit = try unit.map(Habit.checkedUnit)
    if let tags {
      habit.tags = try Habit.checkedTags(tags)
      guard habit.tags == tags else {
        throw InputError("its tags repeat one another or are not trimmed")
      }
    }
    habit.quit = quit ?? false
    guard !habit.quit || habit.target == nil else {
      throw InputError("a habit to quit is yes or no: it has no target")
    }
    guard !habit.atMost || habit.target != nil else {
      throw InputError("a limit (at_most) needs its target and unit")
    }
    guard (habit.unit == nil) == (habit.target == nil) else {
      throw InputError("a measurable habit has both a target and a unit, a yes/no one neither")
    }
    var seen = Set<Day>()
    for day in days {
      guard seen.insert(day.day).inserted else {
        throw InputError("\(day.day) is recorded twice")
      }
      if let value = day.value, !(0...Habit.maxAmount).contains(value) {
        throw InputError("a value is a whole number from 0 to \(Habit.maxAmount), not \(value)")
      }
      guard day.value == nil || (habit.isMeasurable && day.done) else {
        throw InputError("\(day.day) has a value, which only a measurable habit's done day has")
      }
      if let note = day.note {
        do { guard try Habit.checkedNote(note) == note else { throw InputError("") } } catch {
          throw InputError(
            "\(day.day)'s note is not one line of 1 to \(Habit.maxNoteLength) characters, trimmed")
        }
      }
      guard day.savedAt.utf8.count <= 40, day.savedAt.unicodeScalars.allSatisfy(\.isPrintableASCII)
      else { throw InputError("\(day.day)'s saved_at is not a time (ISO 8601)") }
    }
    return (habit, days.sorted { $0.day < $1.day })
  }
}

extension Unicode.Scalar {
  /// A visible ASCII character or a space.
  var isPrintableASCII: Bool { (0x20..<0x7F).contains(value) }
}

/// A plan file as an export carries it: its file name in the plans folder and its text.
public struct ExportPlanFile: Codable, Equatable, Sendable {
  /// `NAME.plan`: a plan's name (a lowercase letter, then letters, digits, `-`, `_`) and the
  /// suffix; never a path.
  public var name: String
  public var text: String

  public init(name: String, text: String) {
    self.name = name
    self.text = text
  }

  /// Whether `name` is a plan file's name and nothing else: no folder, no dot file.
  public static func isFileName(_ name: String) -> Bool {
    guard name.hasSuffix(".plan") else { return false }
    let stem = name.dropLast(5)
    guard let first = stem.first, ("a"..."z").contains(first), stem.count <= 32 else {
      return false
    }
    return stem.allSatisfy {
      ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_"
    }
  }
}
