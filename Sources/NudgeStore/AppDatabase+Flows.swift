import Foundation
import GRDB
import NudgeCore

extension AppDatabase {
  // MARK: - Flows

  /// What a flow's save changed: the entry as stored and the achievements it newly earned.
  public struct Saved<Entry: Sendable>: Sendable {
    public var entry: Entry
    public var newAchievements: [Achievement]
  }

  /// Saves the day's prep, merging `update` into what was saved earlier that day.
  @discardableResult
  public func savePrep(day: Day, savedAt: String, _ update: (inout PrepEntry) -> Void)
    throws(StoreError) -> Saved<PrepEntry>
  { try save(day: day, savedAt: savedAt, update) }

  /// Saves the day's Morning Focus, merging `update` into what was saved earlier that day.
  @discardableResult
  public func saveReview(day: Day, savedAt: String, _ update: (inout ReviewEntry) -> Void)
    throws(StoreError) -> Saved<ReviewEntry>
  { try save(day: day, savedAt: savedAt, update) }

  /// Saves the day's check-in, merging `update` into what was saved earlier that day.
  @discardableResult
  public func saveCheckin(day: Day, savedAt: String, _ update: (inout CheckinEntry) -> Void)
    throws(StoreError) -> Saved<CheckinEntry>
  { try save(day: day, savedAt: savedAt, update) }

  /// Merges `update` into the day's entry (a blank one if the day has none), stamps it with
  /// `savedAt` and awards what it newly earns, in one transaction.
  private func save<Entry: DayEntry>(
    day: Day, savedAt: String, _ update: (inout Entry) -> Void
  ) throws(StoreError) -> Saved<Entry> {
    try write { db in
      var entry = try Entry.fetchOne(db, key: day) ?? .blank(day: day, savedAt: savedAt)
      update(&entry)
      entry.savedAt = savedAt
      try entry.save(db)
      return Saved(entry: entry, newAchievements: try Self.awardAchievements(db))
    }
  }

  /// Adds a tagged I-need-help note.
  @discardableResult
  public func addHelpNote(_ note: HelpNote) throws(StoreError) -> Saved<HelpNote> {
    try write { db in
      try note.insert(db)
      return Saved(entry: note, newAchievements: try Self.awardAchievements(db))
    }
  }

  // MARK: - Achievements and rewards

  static func historyFacts(_ db: Database) throws -> HistoryFacts {
    func days(_ sql: String) throws -> Set<Day> {
      Set(try String.fetchAll(db, sql: sql).compactMap(Day.init))
    }
    return HistoryFacts(
      prepDays: try days("SELECT day FROM prep"),
      reviewDays: try days("SELECT day FROM review"),
      checkinDays: try days("SELECT day FROM checkin"),
      helpDays: try days("SELECT DISTINCT day FROM help_note"),
      followedDays: try days("SELECT day FROM checkin WHERE followed"))
  }

  /// Recomputes achievements from history and stores each once, keeping the earliest day;
  /// returns the ones earned for the first time.
  @discardableResult
  static func awardAchievements(_ db: Database) throws -> [Achievement] {
    let computed = AchievementRule.evaluate(try historyFacts(db))
    let stored = Dictionary(
      uniqueKeysWithValues: try EarnedAchievement.fetchAll(db).map { ($0.key, $0.earnedOn) })
    var new: [Achievement] = []
    for achievement in Achievement.allCases {
      guard let day = computed[achievement] else { continue }
      if let old = stored[achievement] {
        if day < old { try EarnedAchievement(key: achievement, earnedOn: day).update(db) }
      } else {
        try EarnedAchievement(key: achievement, earnedOn: day).insert(db)
        new.append(achievement)
      }
    }
    return new
  }

  /// Earned achievements and their days.
  public func achievements() throws(StoreError) -> [Achievement: Day] {
    try read { db in
      Dictionary(
        uniqueKeysWithValues: try EarnedAchievement.fetchAll(db).map { ($0.key, $0.earnedOn) })
    }
  }

  /// Everything achievements are decided from.
  public func historyFacts() throws(StoreError) -> HistoryFacts {
    try read { db in try Self.historyFacts(db) }
  }

  /// Draws the next celebration with the last message and the number of draws so far, and
  /// remembers what it drew, in one transaction.
  public func drawCelebration(
    _ draw: (_ previousMessage: String?, _ drawIndex: UInt64) -> Celebration
  ) throws(StoreError) -> Celebration {
    try write { db in
      let last = try StateRow.fetchOne(db, key: "reward.last-message")?.value
      let count = try StateRow.fetchOne(db, key: "reward.draws").flatMap { UInt64($0.value) } ?? 0
      let celebration = draw(last, count)
      try StateRow(key: "reward.last-message", value: celebration.message).save(db)
      try StateRow(key: "reward.draws", value: String(count + 1)).save(db)
      let stored = StoredCelebration(number: count, celebration: celebration)
      let json = String(decoding: try NudgeJSON.encode(stored), as: UTF8.self)
      try StateRow(key: "reward.last-celebration", value: json).save(db)
      return celebration
    }
  }

  /// The latest drawn celebration and its draw number (what a Replay button replays).
  public func lastCelebration() throws(StoreError) -> StoredCelebration? {
    try read { db in
      guard let row = try StateRow.fetchOne(db, key: "reward.last-celebration") else { return nil }
      return try? JSONDecoder().decode(StoredCelebration.self, from: Data(row.value.utf8))
    }
  }
}
