import NudgeCore

extension SQLiteConnection {
  func habits(includingArchived: Bool) throws -> [Habit] {
    try rows(
      """
      SELECT id, name, question, every, at, target, unit, since, archived, uid, tags, at_most,
        quit, also_at
      FROM habit
      WHERE NOT removed \(includingArchived ? "" : "AND NOT archived") ORDER BY uid, id
      """
    ) { row -> Habit in
      guard let every = try? HabitFrequency.parse(row.text(at: 3) ?? ""),
        let since = Day(row.text(at: 7) ?? "")
      else {
        throw UnreadableValue(
          column: "habit", text: row.text(at: 3), what: "a habit it cannot read")
      }
      var habit = Habit(
        id: row.integer(at: 0) ?? 0, name: row.text(at: 1) ?? "", question: row.text(at: 2),
        every: every, at: row.text(at: 4), target: row.integer(at: 5), unit: row.text(at: 6),
        since: since, archived: (row.integer(at: 8) ?? 0) != 0)
      habit.uid = row.text(at: 9)
      habit.tags = (row.text(at: 10) ?? "").split(separator: ",").map(String.init)
      habit.atMost = (row.integer(at: 11) ?? 0) != 0
      habit.quit = (row.integer(at: 12) ?? 0) != 0
      habit.alsoAt = (row.text(at: 13) ?? "").split(separator: "\n").map(String.init)
      return habit
    }
  }

  /// Refuses `name` when a habit other than `except` has it, whatever the letters' case.
  /// How many habits are kept (not removed; archived ones count) and how many days they have.
  func habitCounts() throws -> (habits: Int, days: Int) {
    (
      try integer("SELECT count(*) FROM habit WHERE NOT removed") ?? 0,
      try integer(
        "SELECT count(*) FROM habit_check WHERE habit IN (SELECT id FROM habit WHERE NOT removed)")
        ?? 0
    )
  }

  /// Refuses a write that grows the habits or their recorded days past what Nudge keeps
  /// (`Habit.maxCount`, `Habit.maxDaysInAll`), from the counts `before` it: checked inside
  /// the write, so it rolls back. A database already past them (an older Nudge took more)
  /// keeps working; it just does not grow there.
  func refuseGrowthBeyondLimits(from before: (habits: Int, days: Int)) throws {
    let now = try habitCounts()
    if now.habits > Habit.maxCount && now.habits > before.habits {
      throw StoreError.refused(
        "that makes \(now.habits) habits, more than the \(Habit.maxCount) Nudge keeps; remove some first (nudge habit remove NAME)"
      )
    }
    if now.days > Habit.maxDaysInAll && now.days > before.days {
      throw StoreError.refused(
        "that makes \(now.days) recorded habit days, more than the \(Habit.maxDaysInAll) Nudge keeps of all habits together; remove a habit you no longer keep first"
      )
    }
  }

  func refuseTakenName(_ name: String, except: Int?) throws {
    let taken = try habits(includingArchived: true).first {
      $0.id != except && $0.name.lowercased() == name.lowercased()
    }
    if let taken {
      throw StoreError.refused(
        "a habit named '\(VisibleText.escaped(taken.name))' is there already; give this one another name"
      )
    }
  }

  /// Adds a habit row, under the id it travels by (`uid`: another computer's; nil: a new one);
  /// returns its row's id here. A new id is the time it was added (`addedAt`, the command's
  /// now: milliseconds, 12 hex digits), its row's number (2) and 8 random bytes (16): ids sort
  /// in the order habits were added, on every computer, which is the order they are listed in.
  func insertHabit(_ row: HabitRow, uid: String?, addedAt: String) throws -> Int {
    try execute(
      """
      INSERT INTO habit (
        name, question, every, at, target, unit, since, archived, uid, tags, at_most, quit,
        also_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      """,
      [
        .text(row.name), .text(row.question), .text(row.every), SQLValue(row.at),
        SQLValue(row.target), SQLValue(row.unit), SQLValue(row.since), SQLValue(row.archived),
        SQLValue(uid), .text((row.tags ?? []).joined(separator: ",")),
        SQLValue(row.atMost ?? false), SQLValue(row.quit ?? false),
        .text((row.alsoAt ?? []).joined(separator: "\n")),
      ])
    let id = try integer("SELECT last_insert_rowid()") ?? 0
    if uid == nil {
      try execute(
        """
        UPDATE habit SET uid = printf('%012x%02x', ?, id % 256) || lower(hex(randomblob(8)))
        WHERE id = ?
        """,
        [SQLValue(max(0, (InstantFormat.parse(addedAt)?.microseconds ?? 0) / 1000)), SQLValue(id)])
    }
    return id
  }

  /// The row id here of the habit that travels as `uid` (one removed too when `removed`).
  func habitID(uid: String, removed: Bool) throws -> Int? {
    try rows(
      "SELECT id FROM habit WHERE uid = ? \(removed ? "" : "AND NOT removed")", [.text(uid)]
    ) { row in row.integer(at: 0) }.first ?? nil
  }

  /// The row id of the habit `uid` names, here or as another id of a habit here (the same
  /// habit two computers each had under its name: `habit_alias`).
  func resolvedHabitID(uid: String) throws -> Int? {
    var uid = uid
    for _ in 0..<4 {
      if let id = try habitID(uid: uid, removed: true) { return id }
      guard
        let next = try texts("SELECT habit_uid FROM habit_alias WHERE uid = ?", [.text(uid)])
          .first
      else { return nil }
      uid = next
    }
    return nil
  }

  func putHabitRow(_ row: HabitRow) throws {
    try execute(
      """
      UPDATE habit SET name = ?, question = ?, every = ?, at = ?, target = ?, unit = ?,
        since = ?, archived = ?, tags = ?, at_most = ?, quit = ?, also_at = ?, removed = 0
      WHERE id = ?
      """,
      [
        .text(row.name), .text(row.question), .text(row.every), SQLValue(row.at),
        SQLValue(row.target), SQLValue(row.unit), SQLValue(row.since), SQLValue(row.archived),
        .text((row.tags ?? []).joined(separator: ",")), SQLValue(row.atMost ?? false),
        SQLValue(row.quit ?? false), .text((row.alsoAt ?? []).joined(separator: "\n")),
        SQLValue(row.id),
      ])
  }

  func habitChecks(_ id: Int, from first: Day?) throws -> [HabitCheck] {
    try rows(
      "SELECT day, done, value, saved_at, failed, note FROM habit_check WHERE habit = ? AND day >= ? ORDER BY day",
      [SQLValue(id), .text(first?.description ?? "")]
    ) { row in try Self.habitCheck(row, from: 0) }.compactMap { $0 }
  }

  /// A check from the columns day, done, value, saved_at, failed, note starting at `column`.
  static func habitCheck(_ row: Statement, from column: Int32) throws -> HabitCheck? {
    guard let day = Day(row.text(at: column) ?? "") else {
      throw UnreadableValue(
        column: "habit_check", text: row.text(at: column), what: "a day it cannot read")
    }
    return HabitCheck(
      day: day, done: (row.integer(at: column + 1) ?? 0) != 0,
      failed: (row.integer(at: column + 4) ?? 0) != 0, value: row.integer(at: column + 2),
      note: row.text(at: column + 5), savedAt: row.text(at: column + 3) ?? "")
  }

  func putHabitCheck(_ check: HabitCheck, habit id: Int) throws {
    try execute(
      """
      INSERT INTO habit_check (habit, day, done, value, saved_at, failed, note)
      VALUES (?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (habit, day) DO UPDATE SET
        done = excluded.done, value = excluded.value, saved_at = excluded.saved_at,
        failed = excluded.failed, note = excluded.note
      """,
      [
        SQLValue(id), SQLValue(check.day), SQLValue(check.done), SQLValue(check.value),
        .text(check.savedAt), SQLValue(check.failed), SQLValue(check.note),
      ])
  }

  /// The journal's key of habit `id`'s definition, or of its day `day`.
  func habitKey(_ id: Int, day: Day? = nil) throws -> JournalKey {
    guard let uid = try texts("SELECT uid FROM habit WHERE id = ?", [SQLValue(id)]).first else {
      throw StoreError.refused("that habit was removed meanwhile; see 'nudge habit list'")
    }
    return .data(day.map { .habitDay(uid: uid, day: $0) } ?? .habit(uid: uid))
  }
}
