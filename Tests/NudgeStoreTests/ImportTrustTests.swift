import Foundation
import NudgeCore
import Testing

@testable import NudgeStore

/// What an import may change: entries, with achievements recomputed from them; never a setting
/// that names a program, never a claim, never an emptier entry over a fuller one.
@Suite struct ImportTrustTests {
  let day = Day("2026-11-20")!

  @Test func forgedAchievementsAreIgnoredAndOldForgeriesTakenBack() throws {
    // Given a database that holds an achievement no entry supports (an older import's)
    let db = try AppDatabase.inMemory()
    try db.write { try $0.insert(EarnedAchievement(key: .streak100, earnedOn: day)) }
    // When a document claiming more is imported with one prep
    var document = ExportDocument(
      settings: [:], prep: [PrepEntry(day: day, water: true, savedAt: "2026-11-20T21:00:00+01:00")],
      review: [], checkin: [], help: [])
    document.achievements = [
      EarnedAchievement(key: .streak30, earnedOn: day),
      EarnedAchievement(key: .perfectWeek, earnedOn: day),
    ]
    let summary = try db.importDocument(document)
    // Then only what the entries earn is held
    #expect(try db.achievements() == [.firstPrep: day])
    #expect(summary.newAchievements == [.firstPrep])
    #expect(summary.lostAchievements == [.streak100])
  }

  @Test func aSettingThatNamesAProgramIsSkippedAndSaid() throws {
    let db = try AppDatabase.inMemory()
    let document = ExportDocument(
      settings: ["terminal": "sh -c 'touch /tmp/pwned'", "snooze": "5m"], prep: [], review: [],
      checkin: [], help: [])
    let summary = try db.importDocument(document)
    #expect(summary.settingsSkipped == ["terminal"])
    #expect(summary.settingsAdded == ["snooze=5m"])
    #expect(try db.settings().value(.terminal) == "")
    #expect(try db.settings().snoozeSeconds == 300)
  }

  @Test func aNewerButEmptierEntryNeverReplacesAFullerOne() throws {
    let db = try AppDatabase.inMemory()
    try db.complete(ReviewEntry.self, day: day, savedAt: "2026-11-20T08:00:00+01:00") {
      $0.why = "health"
      $0.swap = "water"
      $0.commitTo = "drink water"
      $0.commitFrom = "soda"
    }
    let emptier = ReviewEntry(day: day, commitTo: "x", savedAt: "2026-11-20T09:00:00+01:00")
    let summary = try db.importDocument(
      ExportDocument(settings: [:], prep: [], review: [emptier], checkin: [], help: []))
    #expect(summary.keptFuller == ["review 2026-11-20"])
    #expect(summary.updated == 0)
    #expect(try db.review(on: day)?.why == "health")
    let fuller = ReviewEntry(
      day: day, why: "sleep", swap: "tea", commitTo: "drink tea", commitFrom: "coffee",
      savedAt: "2026-11-20T10:00:00+01:00")
    #expect(
      try db.importDocument(
        ExportDocument(settings: [:], prep: [], review: [fuller], checkin: [], help: [])
      ).updated == 1)
    #expect(try db.review(on: day)?.why == "sleep")
  }

  @Test func theSummaryNamesPausesAndSchedulesTaken() throws {
    let db = try AppDatabase.inMemory()
    let document = ExportDocument(
      settings: [:], prep: [], review: [], checkin: [], help: [],
      schedule: [SlotSchedule(slot: .midday, expression: "*-*-* 12:15:00", enabled: true)],
      pauses: [Pause(firstDay: day, lastDay: day.adding(days: 2))])
    let summary = try db.importDocument(document)
    #expect(summary.schedulesAdded == [.midday])
    #expect(summary.pausesAdded == ["2026-11-20..2026-11-22"])
  }
}
