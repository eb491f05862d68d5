import NudgeCore

extension AppDatabase {
  // MARK: - Export and import

  public func exportDocument() throws(StoreError) -> ExportDocument {
    let choices = try planChoices()
    return try read { db in
      let entries = try db.flowEntries("1")
      var document = ExportDocument(
        settings: Dictionary(
          uniqueKeysWithValues: try db.fetchAll(SettingRow.self).map { ($0.key, $0.value) }),
        prep: entries.compactMap { PrepEntry($0) }, review: entries.compactMap { ReviewEntry($0) },
        checkin: entries.compactMap { CheckinEntry($0) }, help: entries.compactMap(\.helpNote),
        achievements: try db.fetchAll(EarnedAchievement.self),
        schedule: try db.fetchAll(SlotSchedule.self),
        pauses: Pause.disjoint(try db.fetchAll(Pause.self)),
        flows: entries.compactMap(\.answeredEntry))
      document.plans = choices
      document.habits = try db.habits(includingArchived: true).map { habit in
        ExportHabit(habit, days: try db.habitChecks(habit.id, from: nil))
      }
      return document
    }
  }

  /// Every entry of every flow as the store keeps it, by day, then flow, then when saved.
  public func storedEntries() throws(StoreError) -> [StoredEntry] {
    try read { db in try db.flowEntries("1").map(\.stored) }
  }

  // MARK: - What an import writes (ImportDocument decides)

  /// Every entry of every flow, by day, then flow, then when saved: what an import compares
  /// its document with, in one read.
  public func allEntries() throws(StoreError) -> [FlowEntry] {
    try read { db in try db.flowEntries("1") }
  }

  /// Stores `entries` (an import's), each replacing what its day had (a help note: its id);
  /// `replacing: false` fails when one is there. One statement for all, run once each.
  public func putEntries(_ entries: [FlowEntry], replacing: Bool = true) throws(StoreError) {
    if entries.isEmpty { return }
    try write { db in try db.putFlowEntries(entries, replacing: replacing) }
  }

  /// Stores `entry` as its day's, replacing what the day had.
  public func putEntry<Entry: DayRecord>(_ entry: Entry) throws(StoreError) {
    try write { db in try db.putFlowEntry(entry.flowEntry) }
  }

  /// Whether a help note with `id` is stored.
  public func hasHelpNote(id: String) throws(StoreError) -> Bool {
    try read { db in try db.flowEntry(.needHelp, key: id) != nil }
  }

  /// Stores a help note (its id is new here).
  public func insertHelpNote(_ note: HelpNote) throws(StoreError) {
    try insertFlowEntry(note.flowEntry)
  }

  /// Stores a new entry: fails when one with its key is there.
  public func insertFlowEntry(_ entry: FlowEntry) throws(StoreError) {
    try write { db in try db.putFlowEntry(entry, replacing: false) }
  }

  /// Whether `key` was set here (`config set`), not left at its default.
  public func hasSetting(_ key: SettingKey) throws(StoreError) -> Bool {
    try read { db in try db.exists(SettingRow.self, key: key.rawValue) }
  }

  /// Whether `slot`'s schedule was changed here (stored), not left at its default.
  public func hasStoredSchedule(_ slot: ReminderSource) throws(StoreError) -> Bool {
    try read { db in try db.exists(SlotSchedule.self, key: slot.rawValue) }
  }

  /// Whether a pause starting on `day` is stored.
  public func hasPause(startingOn day: Day) throws(StoreError) -> Bool {
    try read { db in try db.exists(Pause.self, key: day.description) }
  }

  /// Stores a pause as it is (an import's; `startPause` is the command's).
  public func insertPause(_ pause: Pause) throws(StoreError) {
    try write { db in try db.insert(pause) }
  }
}
