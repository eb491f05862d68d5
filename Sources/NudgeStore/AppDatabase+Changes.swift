import FoundationEssentials
import NudgeCore

extension AppDatabase {
  // MARK: - Drafts

  /// The answers kept of an unfinished run of `flow` for `day`, if any.
  public func draft(_ flow: Flow, on day: Day) throws(StoreError) -> FlowDraft? {
    try read { db in
      guard
        let text = try db.texts(
          "SELECT answers FROM draft WHERE flow = ? AND day = ?", [SQLValue(flow), SQLValue(day)]
        ).first
      else { return nil }
      return FlowDraft(flow: flow, day: day, answers: Self.draftAnswers(text))
    }
  }

  /// The unfinished runs kept for the days from `first` through `last`, newest day first (a
  /// row whose flow or day this Nudge can't read is left out: it can't be resumed either).
  public func drafts(from first: Day, through last: Day) throws(StoreError) -> [FlowDraft] {
    try read { db in
      var found: [FlowDraft] = []
      _ = try db.rows(
        "SELECT flow, day, answers FROM draft WHERE day BETWEEN ? AND ? ORDER BY day DESC, saved_at DESC",
        [SQLValue(first), SQLValue(last)]
      ) { row in
        guard let flow = Flow(rawValue: row.text(at: 0) ?? ""), let day = Day(row.text(at: 1) ?? "")
        else { return }
        found.append(
          FlowDraft(flow: flow, day: day, answers: Self.draftAnswers(row.text(at: 2) ?? "")))
      }
      return found
    }
  }

  /// A draft's answers: an array of [key, answer] pairs (no key strategy of the JSON coder
  /// applies to them); what can't be read is no answer.
  static func draftAnswers(_ text: String) -> [String: String] {
    let pairs = (try? JSONDecoder().decode([[String]].self, from: Data(text.utf8))) ?? []
    var answers: [String: String] = [:]
    for pair in pairs where pair.count == 2 { answers[pair[0]] = pair[1] }
    return answers
  }

  /// Keeps `draft` (replacing the flow's earlier draft for that day), stamped `at`.
  public func saveDraft(_ draft: FlowDraft, at: String) throws(StoreError) {
    try write { db in
      let pairs = draft.answers.sorted { $0.key < $1.key }.map { [$0.key, $0.value] }
      let text = String(decoding: try JSONEncoder().encode(pairs), as: UTF8.self)
      try db.execute(
        """
        INSERT INTO draft (flow, day, answers, saved_at) VALUES (?, ?, ?, ?)
        ON CONFLICT (flow, day) DO UPDATE SET answers = excluded.answers, saved_at = excluded.saved_at
        """, [SQLValue(draft.flow), SQLValue(draft.day), .text(text), .text(at)])
    }
  }

  /// Forgets the draft of `flow` for `day` (the person started afresh).
  public func removeDraft(_ flow: Flow, on day: Day) throws(StoreError) {
    try write { db in try Self.removeDraft(db, flow, on: day) }
  }

  static func removeDraft(_ db: SQLiteConnection, _ flow: Flow, on day: Day) throws {
    try db.execute(
      "DELETE FROM draft WHERE flow = ? AND day = ?", [SQLValue(flow), SQLValue(day)])
  }

  // MARK: - The change journal (what undo takes back)

  /// Writes one change of an entry to the journal `undo` reads (nothing when it names none).
  static func journal(
    _ db: SQLiteConnection, madeOn: Day, at: String, kind: ChangeKind, before: FlowEntry?,
    after: FlowEntry?
  ) throws {
    guard let entry = after ?? before else { return }
    try journal(
      db, .entry(kind), madeOn: madeOn, at: at,
      steps: [
        .init(
          key: .of(entry), before: before.map(SyncValue.init(entry:)),
          after: after.map(SyncValue.init(entry:)))
      ])
  }

  /// The help note with this id.
  public func helpNote(id: String) throws(StoreError) -> HelpNote? {
    try read { db in try db.flowEntry(.needHelp, key: id)?.helpNote }
  }

  /// The entry of `flow` on `day` (for need-help: the day's notes are several; nil).
  public func entry(_ flow: Flow, on day: Day) throws(StoreError) -> FlowEntry? {
    try read { db in try db.flowEntry(flow, key: day.description) }
  }
}

extension AppDatabase {
  /// The help notes whose id starts with `prefix` (as `show` prints it: 8 characters).
  public func helpNotes(idStartingWith prefix: String) throws(StoreError) -> [HelpNote] {
    try read { db in
      try db.flowEntries(
        "flow = ? AND key <> '' AND substr(key, 1, ?) = ?",
        [SQLValue(Flow.needHelp), SQLValue(prefix.count), .text(prefix)]
      ).compactMap(\.helpNote).sorted(by: HelpNote.savedBefore)
    }
  }

  /// Replaces a help note's category and words (`nudge edit help ID`), journaled.
  public func edit(_ note: HelpNote, madeOn: Day, at: String) throws(StoreError) {
    try write { db in
      let before = try db.flowEntry(.needHelp, key: note.id)
      try db.putFlowEntry(note.flowEntry)
      try Self.journal(
        db, madeOn: madeOn, at: at, kind: .edited, before: before, after: note.flowEntry)
    }
  }
}

extension AppDatabase {
  // MARK: - Pauses

  /// The days off (`nudge pause`) up to `today`: those a streak and a habit wait over.
  public func pausedDays(through today: Day) throws(StoreError) -> Set<Day> {
    Set(try pauses().flatMap { $0.days(through: today) })
  }

  /// Every pause, oldest first.
  public func pauses() throws(StoreError) -> [Pause] {
    try read { db in try db.fetchAll(Pause.self, "ORDER BY first_day") }
  }

  /// What streaks are decided from: the days a flow was done and the days off, every one.
  public func streakDays() throws(StoreError) -> (done: Set<Day>, paused: Set<Day>) {
    try read { db in try db.streakDays() }
  }

  /// What the streak of `today` is decided from, read as far back as it takes: the stored
  /// checkpoint (`StreakCheckpoint`) and the done and paused days after it — and those from
  /// `shown` (the last 7 days at least) — or every day when no checkpoint before `today` is
  /// stored. Moves the checkpoint up once it lags a week behind `StreakCheckpoint.lagDays`
  /// (a write of its own, skipped on a read-only file), so what is read stays a few weeks
  /// whatever the years behind it.
  public func streakDays(today: Day, showing shown: Day? = nil) throws(StoreError) -> StreakDays {
    let first = min(shown ?? today, today.adding(days: -6))
    let bound = today.adding(days: -StreakCheckpoint.lagDays)
    func due(_ days: StreakDays, stored: StreakCheckpoint?) -> StreakCheckpoint? {
      guard
        let next = StreakRule.checkpoint(
          doneDays: days.done, paused: days.paused, through: bound, after: days.checkpoint),
        next != stored
      else { return nil }
      // one on or after `today` (a week looked back at) is left for the days after it
      guard let stored else { return next }
      return stored.through < today
        && next.through.ordinal - stored.through.ordinal >= StreakCheckpoint.moveDays
        ? next : nil
    }
    let (days, moving) = try read { db in
      let stored = try db.streakCheckpoint()
      let days = try db.streakDays(after: stored, today: today, showing: first)
      return (days, due(days, stored: stored) != nil)
    }
    guard moving, !isReadOnly else { return days }
    // again in one write, so what is stored is walked from the days as they are now
    return try write { db in
      let stored = try db.streakCheckpoint()
      let days = try db.streakDays(after: stored, today: today, showing: first)
      if let next = due(days, stored: stored) { try db.saveStreakCheckpoint(next) }
      return days
    }
  }

  /// The stored checkpoint of the streak's walk, nil when none is stored (or it was walked by
  /// other rules, or cannot be read).
  public func streakCheckpoint() throws(StoreError) -> StreakCheckpoint? {
    try read { db in try db.streakCheckpoint() }
  }

  /// Marks `pause`'s days as days off. What other pauses said about those days is replaced:
  /// their days before it stay; their days after it stay too when it starts on another day than
  /// `today` (days marked after the fact, or planned ahead, never shorten a pause), and go when
  /// it starts today (a pause started now decides how long you are off from here on, so
  /// pausing again shortens or lengthens the current one).
  public func startPause(_ pause: Pause, today: Day) throws(StoreError) {
    try write { db in
      for old in try db.fetchAll(Pause.self)
      where old.firstDay <= pause.lastDay && old.lastDay >= pause.firstDay {
        try db.delete(Pause.self, key: old.firstDay.description)
        if old.firstDay < pause.firstDay {
          try db.save(Pause(firstDay: old.firstDay, lastDay: pause.firstDay.adding(days: -1)))
        }
        if old.lastDay > pause.lastDay && pause.firstDay != today {
          try db.save(Pause(firstDay: pause.lastDay.adding(days: 1), lastDay: old.lastDay))
        }
      }
      try db.save(pause)
      // days off in a row are one pause (the today view, `paused_until` and `resume` read the
      // one covering today)
      var merged: Pause? = nil
      for next in try db.fetchAll(Pause.self, "ORDER BY first_day") {
        guard let run = merged, next.firstDay <= run.lastDay.adding(days: 1) else {
          merged = next
          continue
        }
        try db.delete(Pause.self, key: next.firstDay.description)
        merged = Pause(firstDay: run.firstDay, lastDay: max(run.lastDay, next.lastDay))
        try db.save(merged!)
      }
    }
  }

  /// Ends the pause covering `today`: it lasted until yesterday (or never was, if it started
  /// Takes away the pause that starts on `firstDay` whole; false when none starts then.
  public func removePause(startingOn firstDay: Day) throws(StoreError) -> Bool {
    try write { db in
      guard try db.exists(Pause.self, key: firstDay.description) else { return false }
      try db.delete(Pause.self, key: firstDay.description)
      return true
    }
  }

  /// today). Returns the pause as it was; nil when none covers today.
  @discardableResult
  public func endPause(today: Day) throws(StoreError) -> Pause? {
    try write { db in
      // every pause covering today (an import can bring one that overlaps)
      let covering = try db.fetchAll(Pause.self, "ORDER BY first_day").filter { $0.contains(today) }
      for pause in covering {
        if pause.firstDay == today {
          try db.delete(Pause.self, key: pause.firstDay.description)
        } else {
          try db.save(Pause(firstDay: pause.firstDay, lastDay: today.adding(days: -1)))
        }
      }
      return covering.first
    }
  }
}

extension AppDatabase {
  /// True the first time `note` is asked about, false ever after: a note said once.
  public func firstTime(_ note: String) throws(StoreError) -> Bool {
    try write { db in
      if try db.exists(SaidNote.self, key: note) { return false }
      try db.insert(SaidNote(note: note))
      return true
    }
  }
}

extension AppDatabase {
  /// Whether `day` is a day off (`nudge pause`).
  public func isPaused(_ day: Day) throws(StoreError) -> Bool {
    try read { db in try db.isPaused(day) }
  }
}

extension SQLiteConnection {
  /// The stored checkpoint of the streak's walk (nil: none, another rules version, unreadable).
  func streakCheckpoint() throws -> StreakCheckpoint? {
    guard let text = try texts("SELECT state FROM streak_checkpoint WHERE id = 1").first,
      let checkpoint = StreakCheckpoint(storedJSON: text)
        ?? (try? JSONDecoder().decode(StreakCheckpoint.self, from: Data(text.utf8))),
      checkpoint.rules == StreakCheckpoint.currentRules
    else { return nil }
    return checkpoint
  }

  func saveStreakCheckpoint(_ checkpoint: StreakCheckpoint) throws {
    let state = String(decoding: try JSONEncoder().encode(checkpoint), as: UTF8.self)
    try execute(
      """
      INSERT INTO streak_checkpoint (id, through, state) VALUES (1, ?, ?)
      ON CONFLICT (id) DO UPDATE SET through = excluded.through, state = excluded.state
      """, [SQLValue(checkpoint.through), .text(state)])
  }

  /// The done and paused days after `stored` and from `first` on, with it; every day, and no
  /// checkpoint, when there is none before `today`.
  func streakDays(after stored: StreakCheckpoint?, today: Day, showing first: Day) throws
    -> StreakDays
  {
    guard let checkpoint = stored, checkpoint.through < today else {
      let (done, paused) = try streakDays()
      return StreakDays(done: done, paused: paused)
    }
    let from = min(first, checkpoint.through)
    // the days are kept as YYYY-MM-DD, so text order is day order from year 0 to 9999 (a day
    // after that would be in the future: nothing a streak counts)
    let done = try texts("SELECT DISTINCT day FROM flow_entry WHERE day >= ?", [SQLValue(from)])
      .compactMap { Day($0) }.filter { $0 >= from }
    var paused: [Day] = []
    for pause in try fetchAll(Pause.self) where max(pause.firstDay, from) <= pause.lastDay {
      paused += (max(pause.firstDay, from).ordinal...pause.lastDay.ordinal).map(
        Day.init(ordinal:))
    }
    return StreakDays(done: Set(done), paused: Set(paused), checkpoint: checkpoint)
  }

  /// What streaks are decided from: the days a flow was done and the days off.
  func streakDays() throws -> (done: Set<Day>, paused: Set<Day>) {
    let done = try texts("SELECT DISTINCT day FROM flow_entry").compactMap { Day($0) }
    let paused = try fetchAll(Pause.self).flatMap { $0.days(through: $0.lastDay) }
    return (Set(done), Set(paused))
  }
}
