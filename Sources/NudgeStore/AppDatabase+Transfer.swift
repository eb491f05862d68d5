import Foundation
import GRDB
import NudgeCore

extension AppDatabase {
  // MARK: - Export and import

  public func exportDocument() throws(StoreError) -> ExportDocument {
    try read { db in
      ExportDocument(
        settings: Dictionary(
          uniqueKeysWithValues: try SettingRow.fetchAll(db).map { ($0.key, $0.value) }),
        prep: try PrepEntry.fetchAll(db), review: try ReviewEntry.fetchAll(db),
        checkin: try CheckinEntry.fetchAll(db), help: try HelpNote.fetchAll(db),
        achievements: try EarnedAchievement.fetchAll(db),
        schedule: try SlotSchedule.fetchAll(db))
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
      func merge<Entry: FetchableRecord & PersistableRecord & Equatable>(
        _ entries: [Entry], day: (Entry) -> Day, savedAt: (Entry) -> String
      ) throws {
        for entry in entries {
          guard let existing = try Entry.fetchOne(db, key: day(entry)) else {
            try entry.insert(db)
            summary.added += 1
            continue
          }
          let incoming = InstantFormat.parse(savedAt(entry)) ?? .distantPast
          let local = InstantFormat.parse(savedAt(existing)) ?? .distantPast
          if existing != entry && incoming > local {
            try entry.update(db)
            summary.updated += 1
          } else {
            summary.unchanged += 1
          }
        }
      }
      try merge(document.prep, day: \.day, savedAt: \.savedAt)
      try merge(document.review, day: \.day, savedAt: \.savedAt)
      try merge(document.checkin, day: \.day, savedAt: \.savedAt)
      for note in document.help {
        if try note.exists(db) {
          summary.unchanged += 1
        } else {
          try note.insert(db)
          summary.added += 1
        }
      }
      for (key, value) in document.settings {
        if try SettingRow.exists(db, key: key) { continue }
        try SettingRow(key: key, value: value).insert(db)
      }
      // like settings, a slot already changed here keeps its local schedule
      for schedule in document.schedule where try !SlotSchedule.exists(db, key: schedule.slot) {
        try schedule.insert(db)
        summary.scheduleChanged = true
      }
      for earned in document.achievements {
        if let old = try EarnedAchievement.fetchOne(db, key: earned.key.rawValue) {
          if earned.earnedOn < old.earnedOn { try earned.update(db) }
        } else {
          try earned.insert(db)
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
