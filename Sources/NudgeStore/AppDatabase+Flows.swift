import FoundationEssentials
import NudgeCore

extension AppDatabase {
  // MARK: - Entries (the use cases FinishFlow, DeleteEntry and UndoChange decide)

  /// The entry of `flow` found by `key` (a day, or a help note's id), nil when there is none.
  public func entry(_ flow: Flow, key: String) throws(StoreError) -> FlowEntry? {
    try read { db in try db.flowEntry(flow, key: key) }
  }

  /// Stores `entry` as its day's (a help note by its id), replacing what was there.
  public func putFlowEntry(_ entry: FlowEntry) throws(StoreError) {
    try write { db in try db.putFlowEntry(entry) }
  }

  /// Removes `entry` (its day's row, or the help note with its id).
  public func removeFlowEntry(_ entry: FlowEntry) throws(StoreError) {
    try write { db in try db.removeFlowEntry(entry) }
  }

  /// Writes one change to the journal `undo` reads (nothing when it names no entry).
  public func journalChange(
    madeOn: Day, at: String, kind: ChangeKind, before: FlowEntry?, after: FlowEntry?
  ) throws(StoreError) {
    try write { db in
      try Self.journal(db, madeOn: madeOn, at: at, kind: kind, before: before, after: after)
    }
  }

  // MARK: - Achievements (stored as the use cases decide them)

  /// What achievements are decided from: the days each flow was done, followed swaps, days off.
  public func historyFacts() throws(StoreError) -> HistoryFacts {
    try read { db in try Self.historyFacts(db) }
  }

  static func historyFacts(_ db: SQLiteConnection) throws -> HistoryFacts {
    // every row: the sets keep each day once, where DISTINCT had SQLite sort the whole table
    // to do the same; gathered in lists first (a day's several help notes come one after the
    // other), the coach's four flows without hashing theirs, each set then made at its size,
    // not grown (and rehashed) a row at a time
    var coach = [[Day]](repeating: [], count: Flow.coach.count)
    var defined: [Flow: [Day]] = [:]
    try db.forEachRow("SELECT flow, day FROM flow_entry") { row in
      guard let flow = row.flow(at: 0), let day = row.day(at: 1)
      else { throw UnreadableValue(column: "flow_entry", text: row.text(at: 0)) }
      // the coach's flows by their place in `Flow.coach` (four short comparisons, no hash)
      let list: Int? =
        switch flow {
        case .prep: 0
        case .review: 1
        case .checkin: 2
        case .needHelp: 3
        default: nil
        }
      if let list {
        if coach[list].last != day { coach[list].append(day) }
      } else if defined[flow]?.last != day {
        defined[flow, default: []].append(day)
      }
    }
    var daysByFlow = defined.mapValues { Set($0) }
    for (list, flow) in Flow.coach.enumerated() where !coach[list].isEmpty {
      daysByFlow[flow] = Set(coach[list])
    }
    var facts = HistoryFacts(
      daysByFlow: daysByFlow,
      pausedDays: Set(try db.fetchAll(Pause.self).flatMap { $0.days(through: $0.lastDay) }))
    // the answers the plans' rules read (the store knows no rule: the core makes the facts)
    facts.apply(answerRows: try answerRows(db, HistoryFacts.answersRead))
    facts.habitDays = try habitDays(db)
    facts.quitHabits = try quitHabits(db)
    return facts
  }

  /// The answers `reads` ask for, by flow: each entry's day and its answers to the questions
  /// named (the reads of one flow read together). Only the answers asked for are read from
  /// each row's JSON (reading each entry whole was a third of the facts' time); a row whose
  /// answers are not JSON is passed over.
  static func answerRows(_ db: SQLiteConnection, _ reads: [AnswersRead]) throws -> [String:
    AnswerRows]
  {
    var questions: [String: [String]] = [:]
    for read in reads {
      for question in read.questions where questions[read.flow]?.contains(question) != true {
        questions[read.flow, default: []].append(question)
      }
    }
    var rows: [String: AnswerRows] = [:]
    for (flow, asked) in questions {
      let columns = asked.map { _ in "json_extract(answers, ?)" }.joined(separator: ", ")
      var found = AnswerRows(questions: asked)
      try db.forEachRow(
        "SELECT day, \(columns) FROM flow_entry WHERE flow = ? AND json_valid(answers)",
        asked.map { SQLValue.text("$.\"\($0)\"") } + [.text(flow)]
      ) { row in
        guard let day = row.day(at: 0)
        else { throw UnreadableValue(column: "flow_entry", text: row.text(at: 0)) }
        found.byDay[day] = asked.indices.map { row.text(at: Int32($0 + 1)) }
      }
      rows[flow] = found
    }
    return rows
  }

  /// Each habit's days done (a measurable one's: its target reached), oldest first.
  static func habitDays(_ db: SQLiteConnection) throws -> [[Day]] {
    var byHabit: [Int: [Day]] = [:]
    _ = try db.rows(
      """
      SELECT c.habit, c.day FROM habit_check c JOIN habit h ON h.id = c.habit
      WHERE c.done AND NOT h.removed
        AND (h.target IS NULL OR c.value IS NULL
          OR (h.at_most AND c.value <= h.target) OR (NOT h.at_most AND c.value >= h.target))
      ORDER BY c.habit, c.day
      """
    ) { row in
      if let day = Day(row.text(at: 1) ?? "") {
        byHabit[row.integer(at: 0) ?? 0, default: []].append(day)
      }
    }
    return byHabit.keys.sorted().map { byHabit[$0]! }
  }

  /// Each habit to quit (not removed) with a day recorded: its start, slips and last day.
  static func quitHabits(_ db: SQLiteConnection) throws -> [QuitRecord] {
    var found: [Int: QuitRecord] = [:]
    _ = try db.rows(
      """
      SELECT h.id, h.since, c.day, c.failed FROM habit h JOIN habit_check c ON c.habit = h.id
      WHERE h.quit AND NOT h.removed ORDER BY h.id, c.day
      """
    ) { row in
      guard let since = Day(row.text(at: 1) ?? ""), let day = Day(row.text(at: 2) ?? "") else {
        return
      }
      let id = row.integer(at: 0) ?? 0
      var record = found[id] ?? QuitRecord(since: min(since, day), slips: [], through: day)
      record.through = max(record.through, day)
      if (row.integer(at: 3) ?? 0) != 0 { record.slips.insert(day) }
      found[id] = record
    }
    return found.keys.sorted().map { found[$0]! }
  }

  /// Earned achievements and their days.
  public func achievements() throws(StoreError) -> [Achievement: Day] {
    try read { db in
      Dictionary(
        uniqueKeysWithValues: try db.fetchAll(EarnedAchievement.self).map { ($0.key, $0.earnedOn) })
    }
  }

  /// Stores `achievement` as earned on `day` (replacing the day it had).
  public func recordAchievement(_ achievement: Achievement, earnedOn day: Day) throws(StoreError) {
    try write { db in try db.save(EarnedAchievement(key: achievement, earnedOn: day)) }
  }

  /// Forgets `achievement` (its condition no longer holds).
  public func removeAchievement(_ achievement: Achievement) throws(StoreError) {
    try write { db in try db.delete(EarnedAchievement.self, key: achievement.rawValue) }
  }

  // MARK: - Celebrations

  /// The latest day before `day` on which any flow was done.
  public func previousDoneDay(before day: Day) throws(StoreError) -> Day? {
    try read { db in
      try db.texts("SELECT max(day) FROM flow_entry WHERE day < ?", [SQLValue(day)]).first
        .flatMap { Day($0) }
    }
  }

  /// How many flows (each help note one) are saved for `day`.
  public func doneFlowCount(on day: Day) throws(StoreError) -> Int {
    try read { db in
      try db.integer("SELECT count(*) FROM flow_entry WHERE day = ?", [SQLValue(day)]) ?? 0
    }
  }

  /// What the reward draw has drawn so far: how many celebrations (the next one's number),
  /// and the latest messages shown, newest first.
  public func celebrationsDrawn() throws(StoreError) -> (count: UInt64, recentMessages: [String]) {
    try read { db in
      let state = try db.rewardState()
      return (state.draws, state.recentMessages)
    }
  }

  /// Remembers a drawn celebration: its message first among the recent ones (`keepingRecent`
  /// of them kept), the count past its number, and it as the one a Replay button replays.
  public func rememberCelebration(_ drawn: StoredCelebration, keepingRecent: Int)
    throws(StoreError)
  {
    try write { db in
      var state = try db.rewardState()
      state.recentMessages = Array(
        ([drawn.celebration.message] + state.recentMessages).prefix(keepingRecent))
      state.draws = max(state.draws, drawn.number + 1)  // never wound back
      state.lastCelebration = drawn
      try db.save(state)
    }
  }

  /// The latest drawn celebration and its draw number (what a Replay button replays).
  public func lastCelebration() throws(StoreError) -> StoredCelebration? {
    try read { db in try db.rewardState().lastCelebration }
  }
}

extension SQLiteConnection {
  /// What the reward draw remembers; a blank state before the first draw.
  func rewardState() throws -> RewardState {
    try fetchOne(RewardState.self, key: "1") ?? RewardState()
  }
}
