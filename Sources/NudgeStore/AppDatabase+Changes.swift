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
      // an array of [key, answer] pairs: no key strategy of the JSON coder applies to them
      let pairs = (try? JSONDecoder().decode([[String]].self, from: Data(text.utf8))) ?? []
      var answers: [String: String] = [:]
      for pair in pairs where pair.count == 2 { answers[pair[0]] = pair[1] }
      return FlowDraft(flow: flow, day: day, answers: answers)
    }
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

  /// Writes one change to the journal `undo` reads.
  static func journal(
    _ db: SQLiteConnection, madeOn: Day, at: String, kind: ChangeKind, before: FlowEntry?,
    after: FlowEntry?
  ) throws {
    guard let flow = (after ?? before)?.flow else { return }
    try db.execute(
      "INSERT INTO entry_change (made_on, at, kind, flow, before, after) VALUES (?, ?, ?, ?, ?, ?)",
      [
        SQLValue(madeOn), .text(at), SQLValue(kind), SQLValue(flow),
        SQLValue(try before?.json()), SQLValue(try after?.json()),
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
      try db.putFlowEntry(.help(note))
      try Self.journal(
        db, madeOn: madeOn, at: at, kind: .edited, before: before, after: .help(note))
    }
  }
}

extension AppDatabase {
  // MARK: - Pauses

  /// Every pause, oldest first.
  public func pauses() throws(StoreError) -> [Pause] {
    try read { db in try db.fetchAll(Pause.self, "ORDER BY first_day") }
  }

  /// What streaks are decided from: the days a flow was done and the days off.
  public func streakDays() throws(StoreError) -> (done: Set<Day>, paused: Set<Day>) {
    try read { db in try db.streakDays() }
  }

  /// Starts a pause today (replacing one that already covers today, or starts today).
  public func startPause(_ pause: Pause) throws(StoreError) {
    try write { db in
      for old in try db.fetchAll(Pause.self) where old.contains(pause.firstDay) {
        if old.firstDay == pause.firstDay {
          try db.delete(Pause.self, key: old.firstDay.description)
        } else {
          try db.save(Pause(firstDay: old.firstDay, lastDay: pause.firstDay.adding(days: -1)))
        }
      }
      try db.save(pause)
    }
  }

  /// Ends the pause covering `today`: it lasted until yesterday (or never was, if it started
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
  /// What streaks are decided from: the days a flow was done and the days off.
  func streakDays() throws -> (done: Set<Day>, paused: Set<Day>) {
    let done = try texts("SELECT DISTINCT day FROM flow_entry").compactMap { Day($0) }
    let paused = try fetchAll(Pause.self).flatMap { $0.days(through: $0.lastDay) }
    return (Set(done), Set(paused))
  }
}
