import NudgeCore

extension AppDatabase {
  // MARK: - Export and import

  public func exportDocument() throws(StoreError) -> ExportDocument {
    try read { db in
      ExportDocument(
        settings: Dictionary(
          uniqueKeysWithValues: try db.fetchAll(SettingRow.self).map { ($0.key, $0.value) }),
        prep: try db.fetchAll(PrepEntry.self), review: try db.fetchAll(ReviewEntry.self),
        checkin: try db.fetchAll(CheckinEntry.self), help: try db.fetchAll(HelpNote.self),
        achievements: try db.fetchAll(EarnedAchievement.self),
        schedule: try db.fetchAll(SlotSchedule.self), pauses: try db.fetchAll(Pause.self))
    }
  }

  /// How an import changed the database: every change it made, named.
  public struct ImportSummary: Equatable, Sendable {
    public var added = 0
    public var updated = 0
    public var unchanged = 0
    /// Days whose entry here answers more than the document's newer save: kept as they are.
    public var keptFuller: [String] = []
    /// Achievements earned for the first time, from the entries (a document's own list of
    /// achievements is never taken).
    public var newAchievements: [Achievement] = []
    /// Achievements whose condition no longer holds after the merge.
    public var lostAchievements: [Achievement] = []
    /// Settings taken from the document (ones not set here), as `key=value`.
    public var settingsAdded: [String] = []
    /// Settings the document carried that name a command or a path on this machine: skipped.
    public var settingsSkipped: [String] = []
    /// Slots whose schedule came from the document (installed units need an update).
    public var schedulesAdded: [Slot] = []
    /// Pauses added, as `FIRST..LAST`.
    public var pausesAdded: [String] = []
    public var scheduleChanged: Bool { !schedulesAdded.isEmpty }
  }

  /// Merges a checked document in one transaction: entries new to a day are added, a newer
  /// save of a day replaces an older one unless it answers less, notes are kept by id, local
  /// settings win and settings that name a command are never taken; achievements are then
  /// recomputed from the entries.
  public func importDocument(_ document: ExportDocument) throws(StoreError) -> ImportSummary {
    try write { db in
      var summary = ImportSummary()
      func merge<Entry: DayRecord>(_ entries: [Entry]) throws {
        for entry in entries {
          guard let existing = try db.fetchOne(Entry.self, key: entry.day.description) else {
            try db.insert(entry)
            summary.added += 1
            continue
          }
          let incoming = InstantFormat.parse(entry.savedAt) ?? .distantPast
          let local = InstantFormat.parse(existing.savedAt) ?? .distantPast
          if existing != entry && incoming > local {
            if entry.answered < existing.answered {
              summary.keptFuller.append("\(Entry.flow.rawValue) \(entry.day)")
              summary.unchanged += 1
            } else {
              try db.save(entry)
              summary.updated += 1
            }
          } else {
            summary.unchanged += 1
          }
        }
      }
      try merge(document.prep)
      try merge(document.review)
      try merge(document.checkin)
      for note in document.help {
        if try db.exists(HelpNote.self, key: note.id) {
          summary.unchanged += 1
        } else {
          try db.insert(note)
          summary.added += 1
        }
      }
      for (key, value) in document.settings.sorted(by: { $0.key < $1.key }) {
        guard let setting = SettingKey(rawValue: key) else { continue }
        if ExportDocument.machineSettings.contains(setting) {
          summary.settingsSkipped.append(key)
          continue
        }
        if try db.exists(SettingRow.self, key: key) { continue }
        let valid = try setting.validate(value)
        try db.insert(SettingRow(key: key, value: valid))
        summary.settingsAdded.append("\(key)=\(valid)")
      }
      // like settings, a slot already changed here keeps its local schedule
      for schedule in document.schedule
      where try !db.exists(SlotSchedule.self, key: schedule.slot.rawValue) {
        try db.insert(schedule)
        summary.schedulesAdded.append(schedule.slot)
      }
      // a pause new here is added; one that starts the same day keeps the local end
      for pause in document.pauses where try !db.exists(Pause.self, key: pause.firstDay.description)
      {
        try db.insert(pause)
        summary.pausesAdded.append("\(pause.firstDay)..\(pause.lastDay)")
      }
      // what was earned comes from the entries alone, never from the document's claims: every
      // stored achievement is held to them (one a file brought before this rule is taken back)
      let stored = Set(try db.fetchAll(EarnedAchievement.self).map(\.key))
      summary.newAchievements = try Self.awardAchievements(db)
      summary.lostAchievements = try Self.removeLapsedAchievements(db, heldBefore: stored)
      return summary
    }
  }
}
