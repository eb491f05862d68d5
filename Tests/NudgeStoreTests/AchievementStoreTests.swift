import Foundation
import NudgeCore
import Testing

@testable import NudgeStore

@Suite struct AchievementStoreTests {
  let start = Day("2026-03-01")!

  @Test func awardsOnceAndEvaluatingTwiceAwardsNothingNew() throws {
    let db = try AppDatabase.inMemory()
    let first = try db.savePrep(day: start, savedAt: "2026-03-01T21:00:00Z") { $0.water = true }
    #expect(first.newAchievements == [.firstPrep])
    let again = try db.savePrep(day: start, savedAt: "2026-03-01T22:00:00Z") { $0.produce = true }
    #expect(again.newAchievements.isEmpty)
    #expect(try db.achievements() == [.firstPrep: start])
  }

  @Test func importAwardsPastAchievementsOnTheirHistoricalDates() throws {
    let source = try AppDatabase.inMemory()
    for i in 0..<8 {
      let day = start.adding(days: i)
      try source.saveReview(day: day, savedAt: "\(day)T08:00:00Z") { $0.swap = "water" }
    }
    var document = try source.exportDocument()
    document.achievements = []  // an export from before achievements: history only

    let target = try AppDatabase.inMemory()
    let summary = try target.importDocument(document)
    #expect(Set(summary.newAchievements) == [.firstReview, .streak3, .streak7, .morningWeek])
    let earned = try target.achievements()
    #expect(earned[.firstReview] == start)
    #expect(earned[.streak3] == start.adding(days: 2))
    #expect(earned[.morningWeek] == start.adding(days: 6))
    #expect(try target.importDocument(document).newAchievements.isEmpty)
  }

  @Test func olderHistoryMovesAnAchievementToItsEarlierDay() throws {
    let db = try AppDatabase.inMemory()
    try db.savePrep(day: start.adding(days: 10), savedAt: "2026-03-11T21:00:00Z") { _ in }
    var document = ExportDocument(settings: [:], prep: [], review: [], checkin: [], help: [])
    document.prep = [PrepEntry(day: start, savedAt: "2026-03-01T21:00:00Z")]
    _ = try db.importDocument(document)
    #expect(try db.achievements()[.firstPrep] == start)
  }

  @Test func storedAchievementsEqualAFreshRecomputation() throws {
    let db = try AppDatabase.inMemory()
    for i in 0..<40 where i % 9 != 4 {
      let day = start.adding(days: i)
      try db.savePrep(day: day, savedAt: "\(day)T21:00:00Z") { _ in }
      if i % 2 == 0 {
        try db.saveCheckin(day: day, savedAt: "\(day)T22:00:00Z") { $0.followed = true }
      }
    }
    #expect(try db.achievements() == AchievementRule.evaluate(try db.historyFacts()))
  }

  @Test func celebrationDrawsNeverRepeatTheLastMessage() throws {
    let db = try AppDatabase.inMemory()
    var messages: [String] = []
    for _ in 0..<200 {
      let c = try db.drawCelebration { previous, index in
        var rng = SplitMix64(seed: 9 &+ index)
        return RewardPicker.draw(using: &rng, previousMessage: previous)
      }
      messages.append(c.message)
    }
    #expect(zip(messages, messages.dropFirst()).allSatisfy { $0 != $1 })
  }
}
