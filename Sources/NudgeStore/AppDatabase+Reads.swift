import NudgeCore

extension AppDatabase {
  // MARK: - Reads

  public func prep(on day: Day) throws(StoreError) -> PrepEntry? { try dayEntry(on: day) }

  public func review(on day: Day) throws(StoreError) -> ReviewEntry? { try dayEntry(on: day) }

  public func checkin(on day: Day) throws(StoreError) -> CheckinEntry? { try dayEntry(on: day) }

  /// The stored entry of `day` for `Entry`'s flow, nil when there is none.
  public func dayEntry<Entry: DayRecord>(on day: Day) throws(StoreError) -> Entry? {
    try read { db in
      try db.flowEntry(Entry.flow, key: day.description).flatMap { Entry($0) }
    }
  }

  /// The most recent Morning Focus before `day`, to offer its Why and swap again.
  public func latestReview(before day: Day) throws(StoreError) -> ReviewEntry? {
    try read { db in
      try db.flowEntries(
        "flow = ?1 AND day = (SELECT max(day) FROM flow_entry WHERE flow = ?1 AND day < ?2)",
        [SQLValue(Flow.review), SQLValue(day)]
      ).first.flatMap { ReviewEntry($0) }
    }
  }

  /// Every entry whose day lies in `days`, laid out as a timeline.
  public func history(from first: Day, through last: Day) throws(StoreError) -> [HistoryDay] {
    try read { db in
      let entries = try db.flowEntries(from: first, through: last)
      return Timeline.days(
        endingOn: last, count: last.ordinal - first.ordinal + 1,
        prep: entries.compactMap { PrepEntry($0) }, review: entries.compactMap { ReviewEntry($0) },
        checkin: entries.compactMap { CheckinEntry($0) }, help: entries.compactMap(\.helpNote),
        answered: entries.compactMap(\.answeredEntry))
    }
  }

  public func helpNotes(from first: Day, through last: Day) throws(StoreError) -> [HelpNote] {
    try read { db in
      try db.flowEntries(
        "flow = ? AND day >= ? AND day <= ?",
        [SQLValue(Flow.needHelp), SQLValue(first), SQLValue(last)]
      ).compactMap(\.helpNote).sorted(by: HelpNote.savedBefore)
    }
  }

  /// Days on which any flow was completed.
  public func doneDays() throws(StoreError) -> Set<Day> {
    try read { db in
      Set(try db.texts("SELECT DISTINCT day FROM flow_entry").compactMap { Day($0) })
    }
  }

  // MARK: - Settings

  public func storedSettings() throws(StoreError) -> [String: String] {
    try read { db in try db.storedSettings() }
  }

  public func settings() throws(StoreError) -> Settings { try read { db in try db.settings() } }

  public func setSetting(_ key: SettingKey, to value: String) throws(StoreError) {
    try write { db in try db.save(SettingRow(key: key.rawValue, value: value)) }
  }

  public func removeSetting(_ key: SettingKey) throws(StoreError) {
    try write { db in try db.delete(SettingRow.self, key: key.rawValue) }
  }

  /// The flows finished on `day`, read in one transaction.
  public func doneFlows(on day: Day) throws(StoreError) -> Set<Flow> {
    try read { db in try db.doneFlows(on: day) }
  }

  /// Whether `flow` was completed on `day`.
  public func isDone(_ flow: Flow, on day: Day) throws(StoreError) -> Bool {
    try read { db in try db.isDone(flow, on: day) }
  }
}

/// Settings and done flows on a connection, for several reads in one transaction.
extension SQLiteConnection {
  /// The stored settings by key (`nudge config`), unknown keys included.
  func storedSettings() throws -> [String: String] {
    Dictionary(uniqueKeysWithValues: try fetchAll(SettingRow.self).map { ($0.key, $0.value) })
  }

  func settings() throws -> Settings { Settings(stored: try storedSettings()) }

  func doneFlows(on day: Day) throws -> Set<Flow> {
    Set(
      try texts("SELECT DISTINCT flow FROM flow_entry WHERE day = ?", [SQLValue(day)]).compactMap {
        Flow(rawValue: $0)
      })
  }

  func isDone(_ flow: Flow, on day: Day) throws -> Bool {
    try integer(
      "SELECT EXISTS (SELECT 1 FROM flow_entry WHERE flow = ? AND day = ?)",
      [SQLValue(flow), SQLValue(day)]) == 1
  }
}
