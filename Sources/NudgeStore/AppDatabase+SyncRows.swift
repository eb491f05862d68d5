import FoundationEssentials
import NudgeCore

extension AppDatabase {
  // MARK: - Rows

  static func syncClock(_ db: SQLiteConnection) throws -> (
    device: String, last: (wall: Int, counter: Int)?
  )? {
    var found: (String, (Int, Int)?)?
    _ = try db.rows("SELECT device, clock_wall, clock_counter FROM sync_self") { row in
      let wall = row.integer(at: 1) ?? 0
      found = (row.text(at: 0) ?? "", wall > 0 ? (wall, row.integer(at: 2) ?? 0) : nil)
    }
    return found.map { (device: $0.0, last: $0.1.map { (wall: $0.0, counter: $0.1) }) }
  }

  /// The latest change of each other device taken in.
  private static func seenClocks(_ db: SQLiteConnection) throws -> [String: SyncClock] {
    var seen: [String: SyncClock] = [:]
    _ = try db.rows("SELECT device, latest FROM sync_peer WHERE latest IS NOT NULL") { row in
      if let device = row.text(at: 0), let clock = row.text(at: 1).flatMap(SyncClock.init) {
        seen[device] = clock
      }
    }
    return seen
  }

  static func seenText(_ seen: [String: SyncClock]) -> String {
    FlatJSON.object(seen.mapValues(\.description))
  }

  /// A version from columns clock, value, seen starting at `index`.
  static func version(_ row: SQLiteConnection.Statement, from index: Int32) -> SyncVersion? {
    guard let clock = row.text(at: index).flatMap(SyncClock.init) else { return nil }
    let value = row.text(at: index + 1).flatMap { SyncValue(text: $0) }
    if !row.isNull(at: index + 1) && value == nil { return nil }
    var seen: [String: SyncClock] = [:]
    for (device, text) in FlatJSON.stringObject(row.text(at: index + 2) ?? "{}") ?? [:] {
      if let clock = SyncClock(text) { seen[device] = clock }
    }
    return SyncVersion(clock: clock, value: value, seen: seen)
  }

  /// What is stored of `key`: its winner, what the versions merged had seen, the losers kept.
  static func state(_ db: SQLiteConnection, _ key: SyncKey, losers: Bool = true) throws
    -> SyncKeyState
  {
    var state = SyncKeyState()
    _ = try db.rows(
      "SELECT clock, value, seen, frontier FROM sync_key WHERE key = ?", [.text(key.description)]
    ) { row in
      state.winner = version(row, from: 0)
      for (name, text) in FlatJSON.stringObject(row.text(at: 3) ?? "{}") ?? [:] {
        guard let clock = SyncClock(text) else { continue }
        if name.hasPrefix("seen:") { state.frontier.seen[String(name.dropFirst(5))] = clock }
        if name.hasPrefix("own:") { state.frontier.own[String(name.dropFirst(4))] = clock }
      }
    }
    guard losers else { return state }
    state.losers = try db.rows(
      "SELECT clock, value, seen FROM sync_conflict WHERE key = ? ORDER BY clock",
      [.text(key.description)]
    ) { row in version(row, from: 0) }.compactMap { $0 }
    return state
  }

  /// Writes what merging changed of `key`'s state: its winner and frontier, the losers no
  /// longer kept gone, the new ones kept (stamped `at`); a loser still kept keeps its row (and
  /// whether it was dropped).
  static func save(
    _ db: SQLiteConnection, _ key: SyncKey, before: SyncKeyState, after: SyncKeyState, at: String
  ) throws {
    if let winner = after.winner {
      var frontier: [String: String] = [:]
      for (device, clock) in after.frontier.seen { frontier["seen:" + device] = clock.description }
      for (device, clock) in after.frontier.own { frontier["own:" + device] = clock.description }
      try db.execute(
        """
        INSERT INTO sync_key (key, clock, value, seen, frontier) VALUES (?, ?, ?, ?, ?)
        ON CONFLICT (key) DO UPDATE SET clock = excluded.clock, value = excluded.value,
          seen = excluded.seen, frontier = excluded.frontier
        """,
        [
          .text(key.description), .text(winner.clock.description),
          SQLValue(winner.value?.text), .text(seenText(winner.seen)),
          .text(FlatJSON.object(frontier)),
        ])
    }
    let kept = Set(after.losers.map(\.clock))
    for gone in before.losers where !kept.contains(gone.clock) {
      try db.execute(
        "DELETE FROM sync_conflict WHERE key = ? AND clock = ?",
        [.text(key.description), .text(gone.clock.description)])
    }
    let had = Set(before.losers.map(\.clock))
    for loser in after.losers where !had.contains(loser.clock) {
      try db.execute(
        """
        INSERT OR IGNORE INTO sync_conflict (key, clock, value, seen, kept_at)
        VALUES (?, ?, ?, ?, ?)
        """,
        [
          .text(key.description), .text(loser.clock.description),
          .text(loser.value?.text ?? "null"), .text(seenText(loser.seen)), .text(at),
        ])
    }
  }

  /// What `key` holds here now (nil: nothing).
  static func localValue(_ db: SQLiteConnection, _ key: SyncKey) throws -> SyncValue? {
    switch key {
    case .entry(let day, let flow, let id):
      let rows = try db.rows(
        "SELECT answers, saved_at FROM flow_entry WHERE day = ? AND flow = ? AND key = ?",
        [SQLValue(day), .text(flow), .text(id ?? "")]
      ) { row in
        SyncValue(
          answers: FlatJSON.stringObject(row.text(at: 0) ?? "")
            ?? (try? JSONDecoder().decode(
              [String: String].self, from: Data((row.text(at: 0) ?? "").utf8))) ?? [:],
          savedAt: row.text(at: 1) ?? "")
      }
      return rows.first
    case .pause(let first):
      return try db.texts("SELECT last_day FROM pause WHERE first_day = ?", [SQLValue(first)])
        .first.flatMap { Day($0) }.map { SyncValue(lastDay: $0) }
    case .slot(let slot):
      return try db.rows(
        "SELECT expression, enabled FROM slot_schedule WHERE slot = ?", [.text(slot.rawValue)]
      ) { row in SyncValue(expression: row.text(at: 0) ?? "", enabled: row.integer(at: 1) != 0) }
      .first
    case .celebrations:
      return try db.texts("SELECT value FROM setting WHERE key = 'celebrations'").first.map {
        SyncValue(value: $0)
      }
    case .habit(let uid):
      guard let id = try db.habitID(uid: uid, removed: false),
        let habit = try db.habits(includingArchived: true).first(where: { $0.id == id })
      else { return nil }
      return SyncValue(habit: ExportHabit(habit, days: []))
    case .habitDay(let uid, let day):
      guard let id = try db.resolvedHabitID(uid: uid) else { return nil }
      return try db.habitChecks(id, from: day).first { $0.day == day }.map {
        SyncValue(
          savedAt: $0.savedAt, done: $0.done, failed: $0.failed ? true : nil, amount: $0.value,
          note: $0.note)
      }
    case .planChoice(let name):
      return try db.rows("SELECT is_on FROM plan_choice WHERE plan = ?", [.text(name)]) { row in
        SyncValue(enabled: row.integer(at: 0) != 0)
      }.first
    case .planFile(let name):
      return try db.texts("SELECT text FROM plan_file WHERE name = ?", [.text(name)]).first.map {
        SyncValue(planText: $0)
      }
    }
  }

  /// Writes what `value` says `key` holds (nil: removes it).
  static func applyValue(_ db: SQLiteConnection, _ key: SyncKey, _ value: SyncValue?)
    throws
  {
    switch key {
    case .entry(let day, let flow, let id):
      try db.execute(
        "DELETE FROM flow_entry WHERE day = ? AND flow = ? AND key = ?",
        [SQLValue(day), .text(flow), .text(id ?? "")])
      guard let value, let answers = value.answers, let savedAt = value.savedAt else { return }
      let entry = try FlowEntry(
        stored: StoredEntry(flow: flow, day: day, id: id, answers: answers, savedAt: savedAt))
      try db.putFlowEntry(entry)
    case .pause(let first):
      try db.execute("DELETE FROM pause WHERE first_day = ?", [SQLValue(first)])
      guard let last = value?.lastDay else { return }
      try db.execute(
        "INSERT INTO pause (first_day, last_day) VALUES (?, ?)", [SQLValue(first), SQLValue(last)])
    case .slot(let slot):
      try db.execute("DELETE FROM slot_schedule WHERE slot = ?", [.text(slot.rawValue)])
      guard let value, let expression = value.expression else { return }
      try db.execute(
        "INSERT INTO slot_schedule (slot, expression, enabled) VALUES (?, ?, ?)",
        [.text(slot.rawValue), .text(expression), .integer(value.enabled == true ? 1 : 0)])
    case .celebrations:
      try db.execute("DELETE FROM setting WHERE key = 'celebrations'")
      guard let text = value?.value else { return }
      try db.execute(
        "INSERT INTO setting (key, value) VALUES ('celebrations', ?)", [.text(text)])
    case .habit(let uid):
      let id = try db.habitID(uid: uid, removed: true)
      // a removal hides it, as `habit remove` does here (its days stay while undo could
      // bring it back on the computer that removed it)
      guard let habit = value?.habit,
        let read = try? habit.checked(reserved: [], timeProblem: { _ in nil })
      else {
        if let id { try db.execute("UPDATE habit SET removed = 1 WHERE id = ?", [SQLValue(id)]) }
        return
      }
      var row = HabitRow(read.habit)
      if let id {
        row.id = id
        try db.putHabitRow(row)
      } else if try db.resolvedHabitID(uid: uid) != nil {
        // known here by another id (the same habit under one name): that one's definition
        return
      } else if let same = try db.habits(includingArchived: true).first(where: {
        $0.name.lowercased() == read.habit.name.lowercased() && $0.uid != nil
      }), let local = same.uid {
        // a habit this computer has under the same name is the same habit (as an import
        // takes it): both computers keep it under the smaller of the two ids, its days as
        // both recorded them
        if uid < local {
          try db.execute("UPDATE habit SET uid = ? WHERE id = ?", [.text(uid), SQLValue(same.id)])
          row.id = same.id
          try db.putHabitRow(row)
          try db.execute(
            "INSERT OR REPLACE INTO habit_alias (uid, habit_uid) VALUES (?, ?)",
            [.text(local), .text(uid)])
          // its days here go to the others under the id it keeps
          try db.execute(
            """
            INSERT OR IGNORE INTO sync_dirty (key)
              SELECT 'habitday/' || ? || '/' || day FROM habit_check WHERE habit = ?
            """, [.text(uid), SQLValue(same.id)])
        } else {
          try db.execute(
            "INSERT OR REPLACE INTO habit_alias (uid, habit_uid) VALUES (?, ?)",
            [.text(uid), .text(local)])
        }
      } else {
        _ = try db.insertHabit(row, uid: uid, addedAt: "")
        // a habit that comes back (a removal undone where it was made, after this computer
        // let it go) gets its days again, as sync last knew them
        let days = try db.rows(
          "SELECT key, value FROM sync_key WHERE key LIKE ? AND value IS NOT NULL",
          [.text("habitday/\(uid)/%")]
        ) { row in (row.text(at: 0) ?? "", row.text(at: 1).flatMap { SyncValue(text: $0) }) }
        for (text, value) in days {
          guard case .success(let key) = SyncKey.parse(text), let value else { continue }
          try applyValue(db, key, value)
        }
      }
    case .habitDay(let uid, let day):
      // its habit arrived first (`SyncExchange` keeps a day aside until it has)
      guard let id = try db.resolvedHabitID(uid: uid) else { return }
      try db.execute(
        "DELETE FROM habit_check WHERE habit = ? AND day = ?", [SQLValue(id), SQLValue(day)])
      guard let value, let done = value.done, let savedAt = value.savedAt else { return }
      // an amount only for a habit measured here (a yes/no one's day is done, or not)
      let measured = try db.integer("SELECT target FROM habit WHERE id = ?", [SQLValue(id)]) != nil
      try db.putHabitCheck(
        HabitCheck(
          day: day, done: done, failed: value.failed ?? false,
          value: measured ? value.amount : nil, note: value.note, savedAt: savedAt),
        habit: id)
    case .planChoice(let name):
      try db.execute("DELETE FROM plan_choice WHERE plan = ?", [.text(name)])
      guard let on = value?.enabled else { return }
      try db.execute(
        "INSERT INTO plan_choice (plan, is_on) VALUES (?, ?)", [.text(name), SQLValue(on)])
    case .planFile(let name):
      guard let text = value?.planText else {
        try db.execute("DELETE FROM plan_file WHERE name = ?", [.text(name)])
        return
      }
      // what the folder held stays known: the text is written there after (`seen` differs)
      try db.execute(
        """
        INSERT INTO plan_file (name, text) VALUES (?, ?)
        ON CONFLICT (name) DO UPDATE SET text = excluded.text
        """, [.text(name), .text(text)])
    }
  }
}
