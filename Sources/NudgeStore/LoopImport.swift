import NudgeCore

/// Loop Habit Tracker's habits as Nudge keeps them: each habit's name, question, frequency,
/// reminder, target and unit, and every check, amount and skip. What Nudge can't say exactly
/// is brought as near as it can and named in `notes`.
public struct LoopImport: Sendable {
  /// A habit to import and its checks.
  public var habits: [(habit: NudgeCore.Habit, checks: [HabitCheck])] = []
  /// What was brought near rather than exactly, one sentence each.
  public var notes: [String] = []

  /// Maps `backup`; `today` is the day a habit with no check begins; `reserved` the words a
  /// name can't be. A habit Nudge can't take at all (a name that is a command word, say) is an
  /// error naming it: the import is all or nothing.
  public static func of(_ backup: LoopBackup, today: Day, reserved: Set<String>)
    throws(InputError) -> LoopImport
  {
    var result = LoopImport()
    var seen = Set<String>()
    for loop in backup.habits.sorted(by: { $0.position < $1.position }) {
      // held to what `habit add` takes; a question or unit that isn't one line is left out
      let name: String
      do throws(InputError) {
        name = try NudgeCore.Habit.checkedName(loop.name, reserved: reserved)
      } catch {
        throw InputError(
          "\(backup.source)'s habit '\(VisibleText.escaped(loop.name))' can't be a Nudge habit's name (\(error.message)); rename it in \(backup.source) and export again"
        )
      }
      guard seen.insert(name.lowercased()).inserted else {
        throw InputError(
          "two of \(backup.source)'s habits are named '\(VisibleText.escaped(name))'; rename one in \(backup.source) and export again"
        )
      }
      let every =
        loop.quit
        ? .daily
        : loop.weekdays.map { HabitFrequency.weekdays($0) }
          ?? frequency(loop, in: backup.source, notes: &result.notes)
      let shown = VisibleText.escaped(name)
      var target: Int? = nil
      if loop.isMeasurable {
        // Loop's target is over its period; Nudge's is a day's, for each day it is done
        let perDay = (loop.target ?? 1) / Double(max(1, loop.numerator))
        // a limit rounds down (2.5 coffees a day: at most 2), a target up
        let wanted = perDay.rounded(loop.targetIsAtMost ? .down : .up)
        target =
          wanted >= Double(NudgeCore.Habit.maxAmount)
          ? NudgeCore.Habit.maxAmount : max(loop.targetIsAtMost ? 0 : 1, Int(wanted))
        if wanted > Double(NudgeCore.Habit.maxAmount) {
          result.notes.append(
            "'\(shown)''s target is more than the \(NudgeCore.Habit.maxAmount) a day Nudge keeps; it is \(NudgeCore.Habit.maxAmount)"
          )
        }
        if loop.target == nil {
          result.notes.append(
            "'\(shown)' is measurable, and the file does not say its target: it is 1 a day; set it with nudge habit edit \(Reminder.HabitOffer(NudgeCore.Habit(name: name, since: today), streak: 0).argument) --target N --unit UNIT"
          )
        }
      }
      let question: String?
      do throws(InputError) {
        question = try NudgeCore.Habit.checkedQuestion(loop.question)
      } catch {
        question = nil
        // Loop's own default (no question) needs no word
        if !loop.question.isEmpty {
          result.notes.append(
            "'\(shown)''s question was left out (\(error.message)); Nudge asks its own")
        }
      }
      if loop.isMeasurable, (try? NudgeCore.Habit.checkedUnit(loop.unit)) == nil {
        result.notes.append("'\(shown)''s unit was left out; Nudge counts it in units")
      }
      let clamped = loop.marks.filter {
        if case .done(let amount) = $0.kind, loop.isMeasurable {
          return amount < 0 || amount.rounded() > Double(NudgeCore.Habit.maxAmount)
        }
        return false
      }.count
      if clamped > 0 {
        result.notes.append(
          "\(clamped) of '\(shown)''s amounts were outside 0 to \(NudgeCore.Habit.maxAmount); each is kept as the nearest of those"
        )
      }
      var habit = NudgeCore.Habit(
        name: name, question: question,
        every: every,
        // a reminder on no weekday is none
        at: loop.reminder.flatMap { $0.weekdays.isEmpty ? nil : reminderTime($0) },
        target: target,
        unit: loop.isMeasurable
          ? ((try? NudgeCore.Habit.checkedUnit(loop.unit)) ?? "units") : nil,
        since: min(today, loop.marks.first?.day ?? today), archived: loop.archived)
      habit.atMost = loop.isMeasurable && loop.targetIsAtMost
      if loop.quit && !loop.isMeasurable {
        habit.quit = true
        if question == nil { habit.question = NudgeCore.Habit.quitQuestion(name) }
      }
      // a day after today is not one to count (a clock set wrong, or a hostile file)
      let future = loop.marks.filter { $0.day > today }.count
      if future > 0 {
        result.notes.append(
          "\(future) of '\(VisibleText.escaped(name))''s days are after today; they were left out")
      }
      var reworded = 0
      let checks = loop.marks.filter { $0.day <= today }.map { mark -> HabitCheck in
        // a stable stamp: the same file imported again writes the same rows
        let stamp = "\(mark.day)T12:00:00Z"
        let note = mark.note.flatMap { Self.note($0, reworded: &reworded) }
        switch mark.kind {
        case .skipped: return HabitCheck(day: mark.day, .skipped, note: note, savedAt: stamp)
        case .failed: return HabitCheck(day: mark.day, .failed, note: note, savedAt: stamp)
        case .done(let amount):
          return HabitCheck(
            day: mark.day, done: true,
            value: loop.isMeasurable
              ? Int(min(Double(NudgeCore.Habit.maxAmount), max(0, amount)).rounded()) : nil,
            note: note, savedAt: stamp)
        }
      }
      if reworded > 0 {
        result.notes.append(
          "\(reworded) of '\(shown)''s notes were made one line of at most \(NudgeCore.Habit.maxNoteLength) characters"
        )
      }
      result.habits.append((habit, checks))
    }
    return result
  }

  /// A note of Loop's as a Nudge day's note: its lines joined, control characters dropped, cut
  /// to `Habit.maxNoteLength` (`reworded` counts those changed); nil when nothing is left.
  static func note(_ text: String, reworded: inout Int) -> String? {
    let line = String(
      String.UnicodeScalarView(
        text.unicodeScalars.map {
          $0.properties.generalCategory == .control || $0.value == 0x2028 || $0.value == 0x2029
            ? " " : $0
        })
    ).split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    guard !line.isEmpty else { return nil }
    // cut to a note's room in characters and in bytes (combining marks make long characters)
    var kept = line
    let bytes = NudgeCore.Habit.maxNoteLength * 4
    if kept.count > NudgeCore.Habit.maxNoteLength || kept.utf8.count > bytes {
      var cut = ""
      for character in line {
        guard cut.count < NudgeCore.Habit.maxNoteLength - 1,
          cut.utf8.count + character.utf8.count <= bytes - 3
        else { break }
        cut.append(character)
      }
      kept = cut.trimmingSpaces + "…"
    }
    guard let checked = try? NudgeCore.Habit.checkedNote(kept) else { return nil }
    if checked != text { reworded += 1 }
    return checked
  }

  /// Loop's "n times in d days" as Nudge's nearest frequency.
  static func frequency(_ loop: LoopBackup.Habit, in source: String, notes: inout [String])
    -> HabitFrequency
  {
    let (n, d) = (max(1, loop.numerator), max(1, loop.denominator))
    let shown = VisibleText.escaped(loop.name)
    if n >= d {
      if n > d {
        notes.append(
          "'\(shown)' is \(n) times in \(d) day\(d == 1 ? "" : "s") in \(source); Nudge keeps it as daily (once a day)"
        )
      }
      return .daily
    }
    if d == 7 { return .timesPerWeek(n) }
    if d == 30 || d == 31 {
      if n > 28 {
        notes.append(
          "'\(shown)' is \(n) times in \(d) days in \(source); Nudge keeps it as 28/month")
      }
      return .timesPerMonth(min(n, 28))
    }
    if n == 1 {
      if d > 365 {
        notes.append(
          "'\(shown)' is once in \(d) days in \(source); Nudge keeps it as every 365 days, the longest it keeps"
        )
      }
      return d <= 365 ? .everyDays(d) : .everyDays(365)
    }
    let perWeek = min(7, max(1, Int((Double(n) * 7 / Double(d)).rounded())))
    notes.append(
      "'\(VisibleText.escaped(loop.name))' is \(n) times in \(d) days in \(source); Nudge keeps it as \(perWeek)/week"
    )
    return .timesPerWeek(perWeek)
  }

  /// A Loop reminder as the words a habit's `--at` takes: "07:30", "weekdays 07:30", or a
  /// calendar expression of its weekdays.
  static func reminderTime(_ reminder: LoopBackup.Reminder) -> String {
    let time = zeroPadded(reminder.hour, 2) + ":" + zeroPadded(reminder.minute, 2)
    if reminder.weekdays.count == 7 { return time }
    let names = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    let days = [1, 2, 3, 4, 5, 6, 0].filter(reminder.weekdays.contains).map { names[$0] }
    return days.joined(separator: ",") + " *-*-* " + time + ":00"
  }
}

extension AppDatabase {
  /// What an import of habits wrote.
  public struct HabitImportCount: Equatable, Sendable {
    public var newHabits = 0
    public var sameHabits = 0
    public var newChecks = 0
    /// Days recorded here that the import recorded otherwise: kept as they are here.
    public var keptChecks = 0
    public var sameChecks = 0
  }

  /// Writes `habits` in one transaction, unjournaled: a habit already here by name (any case)
  /// is the same one and keeps its definition; a day recorded here keeps what it has (yours
  /// win, as settings and schedules do), a day new here is added. The same import again changes
  /// nothing.
  public func importHabits(
    _ habits: [(habit: NudgeCore.Habit, checks: [HabitCheck])], at: String
  ) throws(StoreError) -> HabitImportCount {
    try write { db in
      var count = HabitImportCount()
      let before = try db.habitCounts()
      let existing = try db.habits(includingArchived: true)
      for (habit, checks) in habits {
        let id: Int
        if let found = existing.first(where: { $0.name.lowercased() == habit.name.lowercased() }) {
          id = found.id
          count.sameHabits += 1
          // its days reach back as far as the file's do
          if let earliest = checks.map(\.day).min(), earliest < found.since {
            try db.execute(
              "UPDATE habit SET since = ? WHERE id = ?", [SQLValue(earliest), SQLValue(id)])
          }
        } else {
          // the id it travels by, when the file has one no habit here has
          let uid = try habit.uid.flatMap {
            try db.habitID(uid: $0, removed: true) == nil ? $0 : nil
          }
          id = try db.insertHabit(HabitRow(habit), uid: uid, addedAt: at)
          count.newHabits += 1
        }
        var before: [Day: HabitCheck] = [:]
        for check in try db.habitChecks(id, from: nil) { before[check.day] = check }
        for check in checks {
          if let old = before[check.day] {
            if old.mark == check.mark && old.value == check.value {
              count.sameChecks += 1
            } else {
              count.keptChecks += 1
            }
            continue
          } else {
            count.newChecks += 1
          }
          try db.putHabitCheck(check, habit: id)
        }
      }
      try db.refuseGrowthBeyondLimits(from: before)
      return count
    }
  }
}
