import FoundationEssentials
import NudgeCore

/// A change to a habit that `undo` can take back: a done or a skip (the day's check before and
/// after), an edit (the habit before and after), an add or a remove.
public struct HabitChange: Equatable, Sendable {
  public enum Kind: String, Sendable {
    case added, done, skipped, failed, edited, removed
    /// A day's note written, changed or removed (`habit note`).
    case noted

    /// Whether it changed a day's check (its `before` and `after` are checks).
    public var isCheck: Bool { [.done, .skipped, .failed, .noted].contains(self) }
  }
  public var id: Int
  public var kind: Kind
  public var habit: Int
  /// When it was made, ISO 8601 with its offset.
  public var at: String
  /// What it replaced and what it wrote, as JSON (a check, or a habit); nil for none.
  public var before: String?
  public var after: String?
  /// Its place in the one count of every journal (0: journaled before the count began).
  public var seq = 0

  /// The day's check before and after a done or a skip (nil: none, or another kind).
  public var checkBefore: HabitCheck? { HabitCheck.from(json: before) }
  public var checkAfter: HabitCheck? { HabitCheck.from(json: after) }
}

/// A habit as the journal keeps it, and as `habit` rows hold it.
struct HabitRow: Codable, Equatable {
  var id: Int
  var name: String
  var question: String
  var every: String
  var at: String?
  /// Its further reminder times (absent before them, and when there are none).
  var alsoAt: [String]?
  var target: Int?
  var unit: String?
  var since: Day
  var archived: Bool
  /// Its tags (absent in a journal from before them: none).
  var tags: [String]?
  /// A limit (absent before them: no).
  var atMost: Bool?
  /// A habit to quit (absent before them: no).
  var quit: Bool?

  init(_ habit: Habit) {
    id = habit.id
    name = habit.name
    question = habit.question
    every = habit.every.description
    at = habit.at
    alsoAt = habit.alsoAt.isEmpty ? nil : habit.alsoAt
    target = habit.target
    unit = habit.unit
    since = habit.since
    archived = habit.archived
    tags = habit.tags.isEmpty ? nil : habit.tags
    atMost = habit.atMost ? true : nil
    quit = habit.quit ? true : nil
  }

  var habit: Habit? {
    guard let every = try? HabitFrequency.parse(every) else { return nil }
    var habit = Habit(
      id: id, name: name, question: question, every: every, at: at, target: target, unit: unit,
      since: since, archived: archived)
    habit.alsoAt = alsoAt ?? []
    habit.tags = tags ?? []
    habit.atMost = atMost ?? false
    habit.quit = quit ?? false
    return habit
  }

  /// A row as the habit journal of schema 17 and before kept it (read when version 18 carries
  /// that journal over).
  static func from(json: String?) -> HabitRow? {
    json.flatMap { try? NudgeJSON.decode(HabitRow.self, from: Data($0.utf8)) }
  }
}

extension HabitCheck {
  var json: String { String(decoding: try! NudgeJSON.encode(self), as: UTF8.self) }

  static func from(json: String?) -> HabitCheck? {
    json.flatMap { try? NudgeJSON.decode(HabitCheck.self, from: Data($0.utf8)) }
  }
}

extension AppDatabase {
  // MARK: - Habits

  /// Every habit not removed, archived ones too when asked, in the order they were added.
  public func habits(includingArchived: Bool = true) throws(StoreError) -> [Habit] {
    try read { db in try db.habits(includingArchived: includingArchived) }
  }

  /// Adds `habit` (its id is given by the store) and journals it; a name another habit has
  /// (case-insensitively) is refused.
  public func addHabit(_ habit: Habit, madeOn: Day, at: String) throws(StoreError) -> Habit {
    try write { db in
      try db.refuseTakenName(habit.name, except: nil)
      let before = try db.habitCounts()
      var added = habit
      added.id = try db.insertHabit(HabitRow(habit), uid: nil, addedAt: at)
      try db.refuseGrowthBeyondLimits(from: before)
      let key = try db.habitKey(added.id)
      try Self.journal(
        db, .habit(.added), madeOn: madeOn, at: at,
        steps: [.init(key: key, before: nil, after: try Self.journalValue(db, key))])
      return added
    }
  }

  /// Replaces a habit's definition (a rename, a new time, archived or not), journaled.
  public func updateHabit(_ habit: Habit, madeOn: Day, at: String) throws(StoreError) {
    try write { db in
      guard try db.habits(includingArchived: true).contains(where: { $0.id == habit.id })
      else { throw StoreError.refused("that habit was removed meanwhile; see 'nudge habit list'") }
      try db.refuseTakenName(habit.name, except: habit.id)
      try Self.journaled(db, .habit(.edited), madeOn: madeOn, at: at, key: db.habitKey(habit.id)) {
        try db.putHabitRow(HabitRow(habit))
      }
    }
  }

  /// Removes a habit and what was recorded of it (kept, hidden, while today's undo can bring
  /// it back).
  public func removeHabit(_ habit: Habit, madeOn: Day, at: String) throws(StoreError) {
    try write { db in
      try Self.journaled(db, .habit(.removed), madeOn: madeOn, at: at, key: db.habitKey(habit.id)) {
        try db.execute("UPDATE habit SET removed = 1 WHERE id = ?", [SQLValue(habit.id)])
      }
    }
  }

  /// The travelling ids of every habit here (removed ones too: a day of one still lands).
  public func habitUIDs() throws(StoreError) -> Set<String> {
    try read { db in
      Set(
        try db.texts(
          "SELECT uid FROM habit WHERE uid IS NOT NULL UNION SELECT uid FROM habit_alias"))
    }
  }

  /// What was recorded of habit `id`, oldest day first (from `first` on, when given).
  public func habitChecks(_ id: Int, from first: Day? = nil) throws(StoreError) -> [HabitCheck] {
    try read { db in try db.habitChecks(id, from: first) }
  }

  /// What was recorded of every habit from `first` through `last`, by habit id.
  public func habitChecks(from first: Day, through last: Day) throws(StoreError) -> [Int:
    [HabitCheck]]
  {
    try read { db in
      var found: [Int: [HabitCheck]] = [:]
      _ = try db.rows(
        """
        SELECT habit, day, done, value, saved_at, failed, note FROM habit_check
        WHERE day >= ? AND day <= ? AND habit IN (SELECT id FROM habit WHERE NOT removed)
        ORDER BY habit, day
        """, [SQLValue(first), SQLValue(last)]
      ) { row in
        if let check = try SQLiteConnection.habitCheck(row, from: 1) {
          found[row.integer(at: 0) ?? 0, default: []].append(check)
        }
      }
      return found
    }
  }

  /// Records `check` of habit `id` (replacing that day's), journaled (as `kind`; by default
  /// what the check is: done, skipped or failed); returns what it replaced.
  @discardableResult
  public func putHabitCheck(
    _ check: HabitCheck, habit id: Int, madeOn: Day, at: String, kind: HabitChange.Kind? = nil
  ) throws(StoreError) -> HabitCheck? {
    try write { db in
      let before = try db.habitChecks(id, from: check.day).first { $0.day == check.day }
      // a day new here counts toward what Nudge keeps of all habits
      let counts = before == nil ? try db.habitCounts() : nil
      try Self.journaled(
        db, .habit(kind ?? HabitChange.Kind(rawValue: check.mark.rawValue) ?? .done),
        madeOn: madeOn, at: at, key: db.habitKey(id, day: check.day)
      ) {
        try db.putHabitCheck(check, habit: id)
        if let counts { try db.refuseGrowthBeyondLimits(from: counts) }
      }
      return before
    }
  }

  /// Records many checks of habit `id` at once (an import), unjournaled.
  public func putHabitChecks(_ checks: [HabitCheck], habit id: Int) throws(StoreError) {
    try write { db in
      for check in checks { try db.putHabitCheck(check, habit: id) }
    }
  }
}
