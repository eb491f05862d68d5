import Foundation
import GRDB
import NudgeCore

extension AppDatabase {
  // MARK: - Flows

  /// What finishing a flow wrote, in one transaction: the entry as stored, whether the day
  /// already had one, the achievements it newly earned and the celebration drawn for it (nil
  /// when it earned none, or none was asked for).
  public struct Completed<Entry: Sendable>: Sendable {
    public var entry: Entry
    public var updated: Bool
    public var newAchievements: [Achievement]
    public var celebration: StoredCelebration?
  }

  /// Finishes a day's flow: merges `update` into the day's entry (a blank one if the day has
  /// none), stamps it with `savedAt`, awards what it newly earns and draws its celebration
  /// with `reward` — one transaction, so a kill leaves all of it or none.
  @discardableResult
  public func complete<Entry: DayRecord>(
    _ type: Entry.Type = Entry.self, day: Day, savedAt: String, reward: RewardDraw? = nil,
    _ update: (inout Entry) -> Void
  ) throws(StoreError) -> Completed<Entry> {
    try write { db in
      let existing = try Entry.fetchOne(db, key: day)
      var entry = existing ?? .blank(day: day, savedAt: savedAt)
      update(&entry)
      entry.savedAt = savedAt
      try entry.save(db)
      return try Self.finish(db, entry, updated: existing != nil, reward: reward)
    }
  }

  /// Finishes an I-need-help flow: adds its tagged note, awards and draws as `complete` does.
  @discardableResult
  public func complete(_ note: HelpNote, reward: RewardDraw? = nil) throws(StoreError)
    -> Completed<HelpNote>
  {
    try write { db in
      try note.insert(db)
      return try Self.finish(db, note, updated: false, reward: reward)
    }
  }

  private static func finish<Entry>(
    _ db: Database, _ entry: Entry, updated: Bool, reward: RewardDraw?
  ) throws -> Completed<Entry> {
    let new = try awardAchievements(db)
    var drawn: StoredCelebration? = nil
    if let reward {
      drawn = try drawCelebration(db) { previous, number in
        reward.celebration(
          number: number, newAchievements: new, updated: updated,
          celebrationsOn: Settings(stored: try storedSettings(db)).celebrationsOn,
          previousMessage: previous)
      }
    }
    return Completed(entry: entry, updated: updated, newAchievements: new, celebration: drawn)
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

  /// Draws the next celebration from the last message and the number of draws so far, and
  /// remembers it; nil (and nothing remembered) when `draw` gives none.
  static func drawCelebration(
    _ db: Database, _ draw: (_ previousMessage: String?, _ number: UInt64) throws -> Celebration?
  ) throws -> StoredCelebration? {
    let last = try StateRow.fetchOne(db, key: "reward.last-message")?.value
    let count = try StateRow.fetchOne(db, key: "reward.draws").flatMap { UInt64($0.value) } ?? 0
    guard let celebration = try draw(last, count) else { return nil }
    try StateRow(key: "reward.last-message", value: celebration.message).save(db)
    try StateRow(key: "reward.draws", value: String(count + 1)).save(db)
    let stored = StoredCelebration(number: count, celebration: celebration)
    let json = String(decoding: try NudgeJSON.encode(stored), as: UTF8.self)
    try StateRow(key: "reward.last-celebration", value: json).save(db)
    return stored
  }

  /// The latest drawn celebration and its draw number (what a Replay button replays).
  public func lastCelebration() throws(StoreError) -> StoredCelebration? {
    try read { db in
      guard let row = try StateRow.fetchOne(db, key: "reward.last-celebration") else { return nil }
      return try? NudgeJSON.decode(StoredCelebration.self, from: Data(row.value.utf8))
    }
  }
}
