import Foundation
import GRDB
import NudgeCore

extension AppDatabase {
  // MARK: - Reads

  public func prep(on day: Day) throws(StoreError) -> PrepEntry? {
    try read { db in try PrepEntry.fetchOne(db, key: day) }
  }

  public func review(on day: Day) throws(StoreError) -> ReviewEntry? {
    try read { db in try ReviewEntry.fetchOne(db, key: day) }
  }

  public func checkin(on day: Day) throws(StoreError) -> CheckinEntry? {
    try read { db in try CheckinEntry.fetchOne(db, key: day) }
  }

  /// The most recent Morning Focus before `day`, to offer its Why and swap again.
  public func latestReview(before day: Day) throws(StoreError) -> ReviewEntry? {
    try read { db in
      try ReviewEntry.filter(Columns.day < day).order(Columns.day.desc).fetchOne(db)
    }
  }

  /// Every entry whose day lies in `days`, laid out as a timeline.
  public func history(from first: Day, through last: Day) throws(StoreError) -> [HistoryDay] {
    try read { db in
      let range = Columns.day >= first && Columns.day <= last
      return Timeline.days(
        endingOn: last, count: last.ordinal - first.ordinal + 1,
        prep: try PrepEntry.filter(range).fetchAll(db),
        review: try ReviewEntry.filter(range).fetchAll(db),
        checkin: try CheckinEntry.filter(range).fetchAll(db),
        help: try HelpNote.filter(range).fetchAll(db))
    }
  }

  public func helpNotes(from first: Day, through last: Day) throws(StoreError) -> [HelpNote] {
    try read { db in
      try HelpNote.filter(Columns.day >= first && Columns.day <= last).order(Columns.at)
        .fetchAll(db)
    }
  }

  /// Days on which any flow was completed.
  public func doneDays() throws(StoreError) -> Set<Day> {
    try read { db in
      let days = try String.fetchAll(
        db,
        sql: """
          SELECT day FROM prep UNION SELECT day FROM review
          UNION SELECT day FROM checkin UNION SELECT day FROM help_note
          """)
      return Set(days.compactMap(Day.init))
    }
  }

  // MARK: - Settings

  public func storedSettings() throws(StoreError) -> [String: String] {
    try read { db in try Self.storedSettings(db) }
  }

  static func storedSettings(_ db: Database) throws -> [String: String] {
    Dictionary(uniqueKeysWithValues: try SettingRow.fetchAll(db).map { ($0.key, $0.value) })
  }

  public func settings() throws(StoreError) -> Settings { Settings(stored: try storedSettings()) }

  public func setSetting(_ key: SettingKey, to value: String) throws(StoreError) {
    try write { db in try SettingRow(key: key.rawValue, value: value).save(db) }
  }

  public func removeSetting(_ key: SettingKey) throws(StoreError) {
    _ = try write { db in try SettingRow.deleteOne(db, key: key.rawValue) }
  }

  /// The flows finished on `day`.
  public func doneFlows(on day: Day) throws(StoreError) -> Set<Flow> {
    var done = Set<Flow>()
    for flow in Flow.allCases where try isDone(flow, on: day) { done.insert(flow) }
    return done
  }

  /// Whether `flow` was completed on `day`.
  public func isDone(_ flow: Flow, on day: Day) throws(StoreError) -> Bool {
    try read { db in
      let table =
        switch flow {
        case .prep: "prep"
        case .review: "review"
        case .checkin: "checkin"
        case .needHelp: "help_note"
        }
      return try Bool.fetchOne(
        db, sql: "SELECT EXISTS (SELECT 1 FROM \(table) WHERE day = ?)", arguments: [day]) ?? false
    }
  }
}
