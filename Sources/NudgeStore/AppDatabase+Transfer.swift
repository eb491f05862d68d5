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

  /// How an import changed the database.
  public struct ImportSummary: Equatable, Sendable {
    public var added = 0
    public var updated = 0
    public var unchanged = 0
    public var newAchievements: [Achievement] = []
    /// Whether a slot's schedule came from the document (installed units need an update).
    public var scheduleChanged = false
  }

  /// Merges a checked document in one transaction: entries new to a day are added, a newer
  /// save of a day replaces an older one, notes are kept by id, local settings win.
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
            try db.save(entry)
            summary.updated += 1
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
      for (key, value) in document.settings {
        if try db.exists(SettingRow.self, key: key) { continue }
        try db.insert(SettingRow(key: key, value: value))
      }
      // like settings, a slot already changed here keeps its local schedule
      for schedule in document.schedule
      where try !db.exists(SlotSchedule.self, key: schedule.slot.rawValue) {
        try db.insert(schedule)
        summary.scheduleChanged = true
      }
      // a pause new here is added; one that starts the same day keeps the local end
      for pause in document.pauses where try !db.exists(Pause.self, key: pause.firstDay.description)
      {
        try db.insert(pause)
      }
      for earned in document.achievements {
        if let old = try db.fetchOne(EarnedAchievement.self, key: earned.key.rawValue) {
          if earned.earnedOn < old.earnedOn { try db.save(earned) }
        } else {
          try db.insert(earned)
          summary.newAchievements.append(earned.key)
        }
      }
      let awarded = try Self.awardAchievements(db)
      summary.newAchievements = Achievement.allCases.filter {
        summary.newAchievements.contains($0) || awarded.contains($0)
      }
      return summary
    }
  }
}
