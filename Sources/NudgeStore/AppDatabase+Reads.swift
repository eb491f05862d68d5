import NudgeCore

extension AppDatabase {
  // MARK: - Reads

  public func prep(on day: Day) throws(StoreError) -> PrepEntry? {
    try read { db in try db.fetchOne(PrepEntry.self, key: day.description) }
  }

  public func review(on day: Day) throws(StoreError) -> ReviewEntry? {
    try read { db in try db.fetchOne(ReviewEntry.self, key: day.description) }
  }

  public func checkin(on day: Day) throws(StoreError) -> CheckinEntry? {
    try read { db in try db.fetchOne(CheckinEntry.self, key: day.description) }
  }

  /// The most recent Morning Focus before `day`, to offer its Why and swap again.
  public func latestReview(before day: Day) throws(StoreError) -> ReviewEntry? {
    try read { db in
      try db.fetchAll(
        ReviewEntry.self, "WHERE day < ? ORDER BY day DESC LIMIT 1", [SQLValue(day)]
      ).first
    }
  }

  /// Every entry whose day lies in `days`, laid out as a timeline.
  public func history(from first: Day, through last: Day) throws(StoreError) -> [HistoryDay] {
    try read { db in
      let range = "WHERE day >= ? AND day <= ?"
      let days = [SQLValue(first), SQLValue(last)]
      return Timeline.days(
        endingOn: last, count: last.ordinal - first.ordinal + 1,
        prep: try db.fetchAll(PrepEntry.self, range, days),
        review: try db.fetchAll(ReviewEntry.self, range, days),
        checkin: try db.fetchAll(CheckinEntry.self, range, days),
        help: try db.fetchAll(HelpNote.self, range, days),
        answered: try db.answeredEntries(from: first, through: last))
    }
  }

  public func helpNotes(from first: Day, through last: Day) throws(StoreError) -> [HelpNote] {
    try read { db in
      try db.fetchAll(
        HelpNote.self, "WHERE day >= ? AND day <= ? ORDER BY at", [SQLValue(first), SQLValue(last)])
    }
  }

  /// Days on which any flow was completed.
  public func doneDays() throws(StoreError) -> Set<Day> {
    try read { db in
      let days = try db.texts(
        """
        SELECT day FROM prep UNION SELECT day FROM review
        UNION SELECT day FROM checkin UNION SELECT day FROM help_note
        UNION SELECT day FROM flow_entry
        """)
      return Set(days.compactMap { Day($0) })
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
    Set(try Flow.allCases.filter { try isDone($0, on: day) })
      .union(
        try texts("SELECT flow FROM flow_entry WHERE day = ?", [SQLValue(day)]).compactMap {
          Flow(rawValue: $0)
        })
  }

  func isDone(_ flow: Flow, on day: Day) throws -> Bool {
    let table: String
    switch flow {
    case .prep: table = PrepEntry.tableName
    case .review: table = ReviewEntry.tableName
    case .checkin: table = CheckinEntry.tableName
    case .needHelp: table = HelpNote.tableName
    case .defined(let word):
      return try integer(
        "SELECT EXISTS (SELECT 1 FROM flow_entry WHERE flow = ? AND day = ?)",
        [.text(word), SQLValue(day)]) == 1
    }
    return try integer(
      "SELECT EXISTS (SELECT 1 FROM \(table) WHERE day = ?)", [SQLValue(day)]) == 1
  }
}
