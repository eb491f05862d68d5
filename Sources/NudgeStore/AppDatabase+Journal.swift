import FoundationEssentials
import NudgeCore

/// A change to the days off, kept so that `nudge undo` can take it back: the pauses it changed,
/// as they were before the change and after it.
public struct PauseChange: Equatable, Sendable {
  /// What the change was.
  public enum Kind: String, Sendable {
    /// `nudge pause`: days marked off (ahead, today on, or past).
    case paused
    /// `nudge resume`: the pause covering today ended.
    case resumed
    /// `nudge pause remove`: a pause taken away whole.
    case removed
  }

  public var id: Int
  public var seq: Int
  public var kind: Kind
  /// When it was made, ISO 8601 with its offset.
  public var at: String
  /// The pause the change was about: the one marked, the one resumed (as it was), the one
  /// removed.
  public var pause: Pause
  public var before: [Pause]
  public var after: [Pause]
}

extension AppDatabase {
  /// The change `undo` takes back: the latest one made on `day` not undone yet.
  public func latestUndoable(madeOn day: Day) throws(StoreError) -> JournalChange? {
    try read { db in
      try Self.journalChange(
        db, madeOn: day,
        number: db.integer(
          "SELECT max(change) FROM change_journal WHERE made_on = ? AND NOT undone",
          [SQLValue(day)]))
    }
  }

  /// The change `redo` re-applies: the one the latest undo on `day` took back (undo takes the
  /// latest first, so the earliest undone); nil when none is left.
  public func latestRedoable(madeOn day: Day) throws(StoreError) -> JournalChange? {
    try read { db in
      try Self.journalChange(
        db, madeOn: day,
        number: db.integer(
          "SELECT min(change) FROM change_journal WHERE made_on = ? AND undone", [SQLValue(day)]))
    }
  }

  /// The keys a change is journaled over: these, or every pause (asked before and after the
  /// change: a pause marked can end or split others).
  public enum Keys: Sendable {
    case these([JournalKey])
    case everyPause

    func resolved(_ db: AppDatabase) throws(StoreError) -> [JournalKey] {
      switch self {
      case .these(let keys): keys
      case .everyPause: try db.pauses().map { .data(.pause(firstDay: $0.firstDay)) }
      }
    }
  }

  /// Runs `body` and journals what it changed of the keys `keys` names (asked before `body`
  /// and after it) as one change, in one transaction; nothing is journaled when no key's value
  /// moved.
  public func journaling<T>(
    _ subject: JournalSubject, madeOn: Day, at: String, keys: Keys,
    _ body: () throws(StoreError) -> T
  ) throws(StoreError) -> T {
    try inTransaction {
      let keysBefore = try keys.resolved(self)
      let before = try read { db in try keysBefore.map { try Self.journalValue(db, $0) } }
      let result = try body()
      var all = keysBefore
      for key in try keys.resolved(self) where !all.contains(key) { all.append(key) }
      try write { db in
        let steps = try all.enumerated().map { index, key in
          JournalChange.Step(
            key: key, before: index < before.count ? before[index] : nil,
            after: try Self.journalValue(db, key))
        }
        try Self.journal(db, subject, madeOn: madeOn, at: at, steps: steps)
      }
      return result
    }
  }

  /// Puts every key `change` changed back to its value before (`undo`) or forward to its value
  /// after (a redo), and marks the change undone or not — only when each key still holds what
  /// the change left (else false, nothing written: an import or a sync changed it since).
  public func move(_ change: JournalChange, undo: Bool) throws(StoreError) -> Bool {
    try write { db in
      let steps = undo ? change.steps.reversed() : change.steps
      // the days off are judged whole, as a person sees them: a pause come since is a change
      if case .pause = change.subject {
        let known = Set(change.steps.map(\.key))
        let pauses = try db.fetchAll(Pause.self)
        if pauses.contains(where: { !known.contains(.data(.pause(firstDay: $0.firstDay))) }) {
          return false
        }
      }
      for step in steps {
        let expected = undo ? step.after : step.before
        guard Self.sameValue(try Self.journalValue(db, step.key), expected) else { return false }
        // a habit's definition is put back only as sync would take it (never hidden instead)
        if case .data(.habit) = step.key, let habit = (undo ? step.before : step.after)?.habit,
          (try? habit.checked(reserved: [], timeProblem: { _ in nil })) == nil
        {
          return false
        }
      }
      for step in steps {
        let target = undo ? step.before : step.after
        // a habit coming back under a name another habit took meanwhile is refused
        if case .data(.habit(let uid)) = step.key, let name = target?.habit?.name {
          try db.refuseTakenName(name, except: try db.habitID(uid: uid, removed: true))
        }
        try Self.applyJournalValue(db, step.key, target)
      }
      try db.execute(
        "UPDATE change_journal SET undone = ? WHERE change = ?",
        [.integer(undo ? 1 : 0), SQLValue(change.number)])
      return true
    }
  }

  /// Runs `body` on `db` and journals what it changed of `key` as one change.
  static func journaled<T>(
    _ db: SQLiteConnection, _ subject: JournalSubject, madeOn: Day, at: String, key: JournalKey,
    _ body: () throws -> T
  ) throws -> T {
    let before = try journalValue(db, key)
    let result = try body()
    try journal(
      db, subject, madeOn: madeOn, at: at,
      steps: [.init(key: key, before: before, after: try journalValue(db, key))])
    return result
  }

  /// Writes a change whose steps the caller knows (a habit just added: none before it).
  static func journal(
    _ db: SQLiteConnection, _ subject: JournalSubject, madeOn: Day, at: String,
    steps: [JournalChange.Step]
  ) throws {
    let moved = steps.filter { !sameValue($0.before, $0.after) }
    guard !moved.isEmpty else { return }
    // undo and redo reach only the changes made today: those of the days before go, and a new
    // change ends what `redo` could re-apply (as in an editor)
    try db.execute(
      "DELETE FROM change_journal WHERE made_on < ? OR (made_on = ? AND undone)",
      [SQLValue(madeOn), SQLValue(madeOn)])
    let number = (try db.integer("SELECT max(change) FROM change_journal") ?? 0) + 1
    for step in moved {
      try db.execute(
        """
        INSERT INTO change_journal (change, made_on, at, kind, about, key, before, after)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        """,
        [
          SQLValue(number), SQLValue(madeOn), .text(at), .text(subject.kindText),
          SQLValue(subject.aboutText), .text(step.key.description), SQLValue(step.before?.text),
          SQLValue(step.after?.text),
        ])
    }
    // a habit removed on a day whose changes went is gone for good, with its days (one the
    // journal still names, or a day of it, stays while undo can bring it back)
    let forgotten = """
      SELECT id FROM habit WHERE removed AND NOT EXISTS (
        SELECT 1 FROM change_journal
        WHERE key = 'habit/' || habit.uid OR key GLOB 'habitday/' || habit.uid || '/*')
      """
    try db.execute("DELETE FROM habit_check WHERE habit IN (\(forgotten))")
    try db.execute("DELETE FROM habit WHERE id IN (\(forgotten))")
  }

  /// The steps of change `number` made on `day` (nil: no such change).
  private static func journalChange(_ db: SQLiteConnection, madeOn day: Day, number: Int?) throws
    -> JournalChange?
  {
    guard let number else { return nil }
    var change: JournalChange? = nil
    _ = try db.rows(
      "SELECT at, kind, about, key, before, after FROM change_journal WHERE change = ? ORDER BY id",
      [SQLValue(number)]
    ) { row in
      guard let subject = JournalSubject(kind: row.text(at: 1) ?? "", about: row.text(at: 2)),
        let key = JournalKey(text: row.text(at: 3) ?? "")
      else { throw UnreadableValue(column: "change_journal", text: row.text(at: 1)) }
      let step = JournalChange.Step(
        key: key, before: row.text(at: 4).flatMap { SyncValue(text: $0) },
        after: row.text(at: 5).flatMap { SyncValue(text: $0) })
      if change == nil {
        change = JournalChange(
          number: number, madeOn: day, at: row.text(at: 0) ?? "", subject: subject, steps: [])
      }
      change?.steps.append(step)
    }
    if var found = change, case .habit = found.subject {
      for step in found.steps {
        switch step.key {
        case .data(.habit(let uid)), .data(.habitDay(let uid, _)):
          found.habit = try db.resolvedHabitID(uid: uid)
        default: continue
        }
      }
      change = found
    }
    return change
  }

  /// Whether two values are the same whenever each was saved (a run that changed nothing
  /// stamps a new time: no change to journal, undo or redo over).
  static func sameValue(_ a: SyncValue?, _ b: SyncValue?) -> Bool {
    func unstamped(_ value: SyncValue?) -> SyncValue? {
      guard var value else { return nil }
      value.savedAt = value.savedAt == nil ? nil : ""
      return value
    }
    return unstamped(a) == unstamped(b)
  }

  /// What `key` holds here now (nil: nothing).
  static func journalValue(_ db: SQLiteConnection, _ key: JournalKey) throws -> SyncValue? {
    switch key {
    case .data(let key): try localValue(db, key)
    case .setting(let key):
      try db.texts("SELECT value FROM setting WHERE key = ?", [.text(key.rawValue)]).first.map {
        SyncValue(value: $0)
      }
    }
  }

  /// Writes what `value` says `key` holds (nil: removes it).
  static func applyJournalValue(_ db: SQLiteConnection, _ key: JournalKey, _ value: SyncValue?)
    throws
  {
    switch key {
    case .data(let key): try applyValue(db, key, value)
    case .setting(let key):
      try db.execute("DELETE FROM setting WHERE key = ?", [.text(key.rawValue)])
      guard let text = value?.value else { return }
      try db.execute(
        "INSERT INTO setting (key, value) VALUES (?, ?)", [.text(key.rawValue), .text(text)])
    }
  }
}
