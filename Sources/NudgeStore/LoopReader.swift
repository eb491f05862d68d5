import CSQLite
import Glibc
import NudgeCore

/// Reads one opened Loop database, checking everything it takes.
struct LoopReader {
  let db: SQLiteConnection
  let path: String
  let expects: String
  let latestDay: Day

  func fail(_ what: String) -> LoopBackupError { LoopBackupError("\(path): \(what); \(expects).") }

  /// The column names of `table`, lowercased.
  func columns(_ table: String) throws -> Set<String> {
    Set(
      try db.rows("PRAGMA table_info(\(table))") { $0.text(at: 1)?.lowercased() }.compactMap { $0 })
  }

  func read() throws -> LoopBackup {
    let tables = Set(
      try db.texts("SELECT name FROM sqlite_master WHERE type = 'table'").map { $0.lowercased() })
    for table in ["habits", "repetitions"] where !tables.contains(table) {
      let name = table == "habits" ? "Habits" : "Repetitions"
      // a database in WAL mode whose tables are still in the log beside it: read as it is
      // (immutable, nothing written), its log is not, so say where they are
      var wal = stat()
      if stat(path + "-wal", &wal) == 0, wal.st_size > 0 {
        throw fail(
          "it has no \(name) table in the file itself; its latest changes are in \(path)-wal beside it, which Nudge does not read: export the backup again from Loop (Settings → Export full backup), or fold the log in first (sqlite3 FILE 'PRAGMA wal_checkpoint')"
        )
      }
      throw fail("it has no \(name) table, so it is not a Loop Habit Tracker backup")
    }
    let version = try db.integer("PRAGMA user_version") ?? 0
    if version > LoopBackup.knownVersions.upperBound {
      throw fail(
        "it was written by a newer Loop (schema \(version); Nudge knows up to \(LoopBackup.knownVersions.upperBound)); update Nudge"
      )
    }
    if version < LoopBackup.knownVersions.lowerBound {
      throw fail(
        "its schema version is \(version), older than any Loop writes (\(LoopBackup.knownVersions.lowerBound) or later)"
      )
    }
    let habitColumns = try columns("Habits")
    let repetitionColumns = try columns("Repetitions")
    for column in ["id", "name", "freq_num", "freq_den"] where !habitColumns.contains(column) {
      throw fail("its Habits table has no \(column) column, which every Loop backup has")
    }
    for column in ["habit", "timestamp"] where !repetitionColumns.contains(column) {
      throw fail("its Repetitions table has no \(column) column, which every Loop backup has")
    }

    let habitCount = try db.integer("SELECT count(*) FROM Habits") ?? 0
    if habitCount > LoopBackup.maxHabits {
      throw fail(
        "it holds \(habitCount) habits, more than the \(LoopBackup.maxHabits) Nudge imports")
    }
    let repetitionCount = try db.integer("SELECT count(*) FROM Repetitions") ?? 0
    if repetitionCount > LoopBackup.maxRepetitions {
      throw fail(
        "it holds \(repetitionCount) repetitions, more than the \(LoopBackup.maxRepetitions) Nudge imports"
      )
    }

    // a column a version lacks reads as the default its migration gave it
    func column(_ name: String, else fallback: String) -> String {
      habitColumns.contains(name) ? name : fallback
    }
    // as bytes (SQLite's text functions end a text at a NUL: `Med\0itate` read as `Med`),
    // enough for one character more than the longest taken, whatever its UTF-8 width
    func text(_ name: String) -> String {
      habitColumns.contains(name)
        ? "substr(CAST(\(name) AS BLOB), 1, \(4 * (LoopBackup.maxTextLength + 1)))" : "''"
    }
    // before version 23 the question was kept as the description
    let hasQuestion = habitColumns.contains("question")
    let select = [
      "id", text("name"), hasQuestion ? text("question") : text("description"),
      hasQuestion ? text("description") : "''", "freq_num", "freq_den",
      column("position", else: "0"), column("reminder_hour", else: "NULL"),
      column("reminder_min", else: "NULL"), column("reminder_days", else: "127"),
      column("archived", else: "0"), column("type", else: "0"),
      column("target_type", else: "0"), column("target_value", else: "0"), text("unit"),
    ].joined(separator: ", ")
    var habits: [(id: Int, habit: LoopBackup.Habit)] = []
    for row in try db.rows(
      "SELECT \(select) FROM Habits ORDER BY \(habitColumns.contains("position") ? "position, " : "")id",
      [],
      HabitRow.init)
    {
      habits.append(try habit(row))
    }

    let value = repetitionColumns.contains("value") ? "value" : "2"
    // the day's note (Loop 2.1, schema 25), at most a note's room of it read
    let notes = repetitionColumns.contains("notes") ? "substr(notes, 1, 4000)" : "NULL"
    var values: [Int: [(day: Int, value: Int, note: String?)]] = [:]
    let known = Set(habits.map(\.id))
    // Loop's importer adds the rows in id order, a later one for the same day replacing
    // each row is folded in as it is read: memory for the marks, not for the rows
    _ = try db.rows(
      "SELECT habit, timestamp, \(value), \(notes) FROM Repetitions WHERE habit IS NOT NULL AND timestamp IS NOT NULL ORDER BY habit, timestamp / 86400000, id"
    ) { row in
      let habit = row.integer(at: 0) ?? 0
      guard known.contains(habit) else { return }  // migration 22 deletes such rows
      let timestamp = row.integer(at: 1) ?? 0
      let day = timestamp >= 0 ? timestamp / 86_400_000 : -1
      // a NULL value (before migration 22) is a check, the column's default
      let entry = (day: day, value: row.integer(at: 2) ?? 2, note: row.text(at: 3))
      if values[habit]?.last?.day == day {
        values[habit]![values[habit]!.count - 1] = entry
      } else {
        values[habit, default: []].append(entry)
      }
    }

    var result: [LoopBackup.Habit] = []
    for (id, habit) in habits {
      var habit = habit
      habit.marks = try (values[id] ?? []).compactMap { entry in
        var mark = try mark(entry.day, entry.value, habit)
        mark?.note = entry.note.flatMap { $0.isEmpty ? nil : $0 }
        return mark
      }
      result.append(habit)
    }
    return LoopBackup(habits: result)
  }

  /// One Habits row as SQLite returns it.
  struct HabitRow {
    let id: Int
    let name, question, description, unit: String
    let numerator, denominator, position: Int?
    let reminderHour, reminderMinute, reminderDays: Int?
    let archived, type, targetType: Int?
    let target: Double?

    init(_ s: SQLiteConnection.Statement) {
      id = s.integer(at: 0) ?? 0
      name = s.text(at: 1) ?? ""
      question = s.text(at: 2) ?? ""
      description = s.text(at: 3) ?? ""
      numerator = s.integer(at: 4)
      denominator = s.integer(at: 5)
      position = s.integer(at: 6)
      reminderHour = s.integer(at: 7)
      reminderMinute = s.integer(at: 8)
      reminderDays = s.integer(at: 9)
      archived = s.integer(at: 10)
      type = s.integer(at: 11)
      targetType = s.integer(at: 12)
      target = s.double(at: 13)
      unit = s.text(at: 14) ?? ""
    }
  }

  /// The habit's name for a message: quoted, control characters shown as `?`, shortened.
  static func shown(_ name: String) -> String {
    let clean = String(
      String.UnicodeScalarView(
        name.unicodeScalars.prefix(40).map {
          $0.properties.generalCategory == .control || $0.properties.generalCategory == .format
            ? "?" : $0
        }))
    return "\"\(clean)\(name.unicodeScalars.count > 40 ? "…" : "")\""
  }

  func habit(_ row: HabitRow) throws -> (id: Int, habit: LoopBackup.Habit) {
    let named = "habit \(Self.shown(row.name))"
    for (what, text) in [
      ("name", row.name), ("question", row.question), ("description", row.description),
      ("unit", row.unit),
    ] where text.count > LoopBackup.maxTextLength {
      throw fail("the \(what) of \(named) is longer than \(LoopBackup.maxTextLength) characters")
    }
    let frequencyRange = 1...10_000
    guard let num = row.numerator, let den = row.denominator, frequencyRange.contains(num),
      frequencyRange.contains(den)
    else {
      throw fail(
        "\(named) has the frequency \(row.numerator.map(String.init) ?? "NULL")/\(row.denominator.map(String.init) ?? "NULL"); Loop writes 1 to 10000 times in 1 to 10000 days"
      )
    }
    let type = row.type ?? 0
    guard type == 0 || type == 1 else {
      throw fail("\(named) has the type \(type); Loop writes 0 (yes/no) or 1 (measurable)")
    }
    let targetType = row.targetType ?? 0
    guard targetType == 0 || targetType == 1 else {
      throw fail(
        "\(named) has the target type \(targetType); Loop writes 0 (at least) or 1 (at most)")
    }
    var target: Double?
    if type == 1 {
      let value = row.target ?? 0
      guard value.isFinite, value >= 0, value <= 1_000_000_000 else {
        throw fail("\(named) has the target \(value); Loop writes 0 to 1000000000")
      }
      target = value
    }
    var reminder: LoopBackup.Reminder?
    if let hour = row.reminderHour, let minute = row.reminderMinute {
      let bits = row.reminderDays ?? 127
      guard (0...23).contains(hour), (0...59).contains(minute), (0...127).contains(bits) else {
        throw fail(
          "\(named) has a reminder at \(hour):\(minute) on days \(bits); Loop writes hours 0-23, minutes 0-59 and days 0-127"
        )
      }
      // Loop's bit i is weekday i from Saturday; Nudge counts from Sunday
      let weekdays = Set((0..<7).filter { bits & (1 << $0) != 0 }.map { ($0 + 6) % 7 })
      reminder = LoopBackup.Reminder(hour: hour, minute: minute, weekdays: weekdays)
    }
    // Loop's Frequency: n times in n days is daily
    let (numerator, denominator) = num == den ? (1, 1) : (num, den)
    let habit = LoopBackup.Habit(
      name: row.name, question: row.question, description: row.description,
      numerator: numerator, denominator: denominator, isMeasurable: type == 1, target: target,
      unit: row.unit, targetIsAtMost: targetType == 1, archived: (row.archived ?? 0) != 0,
      position: row.position ?? 0, reminder: reminder)
    return (row.id, habit)
  }

  /// The mark for one stored day, nil for what is not one (no, unknown, Loop's own fill-ins).
  func mark(_ ordinal: Int, _ value: Int, _ habit: LoopBackup.Habit) throws -> LoopBackup.Mark? {
    let named = "habit \(Self.shown(habit.name))"
    guard ordinal >= LoopBackup.earliestDay.ordinal, ordinal <= latestDay.ordinal else {
      let when = ordinal < 0 ? "a negative timestamp" : "a day \(Day(ordinal: ordinal))"
      throw fail(
        "\(named) has a repetition on \(when); Nudge imports days from \(LoopBackup.earliestDay) to \(latestDay)"
      )
    }
    let day = Day(ordinal: ordinal)
    let kind: LoopBackup.Mark.Kind?
    switch (habit.isMeasurable, value) {
    case (_, -1): kind = nil  // UNKNOWN
    case (_, 3): kind = .skipped  // SKIP, for both types
    case (false, 2): kind = .done(1)  // YES_MANUAL
    case (false, 0): kind = .failed  // NO, marked by the person
    case (false, 1): kind = nil  // YES_AUTO is derived, not a check
    case (true, 0...Int(Int32.max)): kind = .done(Double(value) / 1000)
    default:
      throw fail(
        "\(named) has the value \(value) on \(day); Loop writes -1, 0, 1, 2 or 3 for a yes/no habit and -1 or 0 to 2147483647 (thousandths) for a measurable one"
      )
    }
    return kind.map { LoopBackup.Mark(day: day, kind: $0) }
  }
}
