import FoundationEssentials
import Glibc
import NudgeCore

extension AppDatabase {
  // MARK: - Flows

  /// What finishing a flow wrote, in one transaction: the entry as stored, whether the day
  /// already had one, the achievements it newly earned (and, for an edit, those whose condition
  /// no longer holds, removed) and the celebration drawn for it (nil when it earned none, or
  /// none was asked for).
  public struct Completed<Entry: Sendable>: Sendable {
    public var entry: Entry
    public var updated: Bool
    public var newAchievements: [Achievement]
    public var lostAchievements: [Achievement] = []
    public var celebration: StoredCelebration?
  }

  /// Finishes a day's flow: merges `update` into the day's entry (a blank one if the day has
  /// none), stamps it with `savedAt`, journals the change (made on `madeOn`, the day it is
  /// now; `editing` for `nudge edit`; nothing when no answer changed), removes the flow's draft
  /// for that day when this run is the one that kept it (`removingDraft`), awards what it newly
  /// earns and draws its celebration with `reward` — one transaction, so a kill leaves all of
  /// it or none.
  @discardableResult
  public func complete<Entry: DayRecord>(
    _ type: Entry.Type = Entry.self, day: Day, savedAt: String, madeOn: Day? = nil,
    editing: Bool = false, removingDraft: Bool = false, reward: RewardDraw? = nil,
    _ update: (inout Entry) -> Void
  ) throws(StoreError) -> Completed<Entry> {
    try write { db in
      let existing = try db.fetchOne(Entry.self, key: day.description)
      // an answer changed back (a swap no longer followed) can take an achievement away
      let heldBefore = existing == nil ? nil : try Self.heldAchievements(db)
      var entry = existing ?? .blank(day: day, savedAt: savedAt)
      update(&entry)
      entry.savedAt = savedAt
      try db.save(entry)
      var unchanged = existing
      unchanged?.savedAt = savedAt
      if unchanged != entry {  // a run that changed nothing leaves nothing to undo
        try Self.journal(
          db, madeOn: madeOn ?? day, at: savedAt,
          kind: existing == nil ? .saved : editing ? .edited : .updated,
          before: existing?.flowEntry, after: entry.flowEntry)
      }
      if removingDraft { try Self.removeDraft(db, Entry.flow, on: day) }
      return try Self.finish(
        db, entry, updated: existing != nil, heldBefore: heldBefore, reward: reward)
    }
  }

  /// Finishes an I-need-help flow: adds its tagged note, awards and draws as `complete` does.
  @discardableResult
  public func complete(
    _ note: HelpNote, madeOn: Day? = nil, removingDraft: Bool = false, reward: RewardDraw? = nil
  ) throws(StoreError) -> Completed<HelpNote> {
    try write { db in
      try db.insert(note)
      try Self.journal(
        db, madeOn: madeOn ?? note.day, at: note.at, kind: .saved, before: nil,
        after: .help(note))
      if removingDraft { try Self.removeDraft(db, .needHelp, on: note.day) }
      return try Self.finish(db, note, updated: false, heldBefore: nil, reward: reward)
    }
  }

  private static func finish<Entry>(
    _ db: SQLiteConnection, _ entry: Entry, updated: Bool, heldBefore: Set<Achievement>?,
    reward: RewardDraw?
  ) throws -> Completed<Entry> {
    let new = try awardAchievements(db)
    let lost = try heldBefore.map { try removeLapsedAchievements(db, heldBefore: $0) } ?? []
    var drawn: StoredCelebration? = nil
    if let reward, let day = (entry as? any DayEntry)?.day ?? (entry as? HelpNote)?.day {
      let moment = CelebrationMoment.of(
        newAchievements: new, previousDoneDay: try previousDoneDay(db, before: day), day: day,
        firstOfDay: try doneFlowCount(db, on: day) == 1)
      drawn = try drawCelebration(db) { recent, number in
        reward.celebration(
          number: number, newAchievements: new, updated: updated,
          celebrationsOn: try db.settings().celebrationsOn,
          recentMessages: recent, moment: moment)
      }
    }
    return Completed(
      entry: entry, updated: updated, newAchievements: new, lostAchievements: lost,
      celebration: drawn)
  }

  // MARK: - Achievements and rewards

  static func historyFacts(_ db: SQLiteConnection) throws -> HistoryFacts {
    func days(_ sql: String) throws -> Set<Day> {
      Set(try db.texts(sql).compactMap { Day($0) })
    }
    return HistoryFacts(
      prepDays: try days("SELECT day FROM prep"),
      reviewDays: try days("SELECT day FROM review"),
      checkinDays: try days("SELECT day FROM checkin"),
      helpDays: try days("SELECT DISTINCT day FROM help_note"),
      followedDays: try days("SELECT day FROM checkin WHERE followed"),
      pausedDays: Set(try db.fetchAll(Pause.self).flatMap { $0.days(through: $0.lastDay) }))
  }

  /// Recomputes achievements from history and stores each once, keeping the earliest day;
  /// returns the ones earned for the first time.
  @discardableResult
  static func awardAchievements(_ db: SQLiteConnection) throws -> [Achievement] {
    let computed = AchievementRule.evaluate(try historyFacts(db))
    let stored = Dictionary(
      uniqueKeysWithValues: try db.fetchAll(EarnedAchievement.self).map { ($0.key, $0.earnedOn) })
    var new: [Achievement] = []
    for achievement in Achievement.allCases {
      guard let day = computed[achievement] else { continue }
      if let old = stored[achievement] {
        if day < old { try db.save(EarnedAchievement(key: achievement, earnedOn: day)) }
      } else {
        try db.insert(EarnedAchievement(key: achievement, earnedOn: day))
        new.append(achievement)
      }
    }
    return new
  }

  /// The achievements whose condition holds on the history as it is now.
  static func heldAchievements(_ db: SQLiteConnection) throws -> Set<Achievement> {
    Set(AchievementRule.evaluate(try historyFacts(db)).keys)
  }

  /// After a change that can take history away (an edit, a delete, an undo): removes the
  /// stored achievements whose condition held before it (`heldBefore`) and no longer holds,
  /// and moves those still held to the day their condition now first holds; returns the
  /// removed ones.
  static func removeLapsedAchievements(_ db: SQLiteConnection, heldBefore: Set<Achievement>)
    throws -> [Achievement]
  {
    let computed = AchievementRule.evaluate(try historyFacts(db))
    let holding = Set(computed.keys)
    for stored in try db.fetchAll(EarnedAchievement.self) {
      if let day = computed[stored.key], day != stored.earnedOn, heldBefore.contains(stored.key) {
        try db.save(EarnedAchievement(key: stored.key, earnedOn: day))
      }
    }
    var lost: [Achievement] = []
    for achievement in Achievement.allCases
    where heldBefore.contains(achievement) && !holding.contains(achievement) {
      guard try db.exists(EarnedAchievement.self, key: achievement.rawValue) else { continue }
      try db.delete(EarnedAchievement.self, key: achievement.rawValue)
      lost.append(achievement)
    }
    return lost
  }

  /// Earned achievements and their days.
  public func achievements() throws(StoreError) -> [Achievement: Day] {
    try read { db in
      Dictionary(
        uniqueKeysWithValues: try db.fetchAll(EarnedAchievement.self).map { ($0.key, $0.earnedOn) })
    }
  }

  /// The latest day before `day` on which any flow was done.
  static func previousDoneDay(_ db: SQLiteConnection, before day: Day) throws -> Day? {
    try db.texts(
      """
      SELECT max(day) FROM (SELECT day FROM prep UNION SELECT day FROM review
      UNION SELECT day FROM checkin UNION SELECT day FROM help_note) WHERE day < ?
      """, [SQLValue(day)]
    ).first.flatMap { Day($0) }
  }

  /// How many flows (each help note one) are saved for `day`.
  static func doneFlowCount(_ db: SQLiteConnection, on day: Day) throws -> Int {
    try db.integer(
      """
      SELECT (SELECT count(*) FROM prep WHERE day = ?1) + (SELECT count(*) FROM review WHERE day = ?1)
      + (SELECT count(*) FROM checkin WHERE day = ?1) + (SELECT count(*) FROM help_note WHERE day = ?1)
      """, [SQLValue(day)]) ?? 0
  }

  /// Draws the next celebration from the latest messages shown (newest first) and the number
  /// of draws so far, and remembers it; nil (and nothing remembered) when `draw` gives none.
  static func drawCelebration(
    _ db: SQLiteConnection,
    _ draw: (_ recentMessages: [String], _ number: UInt64) throws -> Celebration?
  ) throws -> StoredCelebration? {
    var state = try db.rewardState()
    guard let celebration = try draw(state.recentMessages, state.draws) else { return nil }
    let stored = StoredCelebration(number: state.draws, celebration: celebration)
    state.recentMessages = Array(
      ([celebration.message] + state.recentMessages).prefix(RewardPicker.freshness))
    state.draws += 1
    state.lastCelebration = stored
    try db.save(state)
    return stored
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
