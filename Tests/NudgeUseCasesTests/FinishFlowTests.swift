import Foundation
import NudgeCore
import Testing

@testable import NudgeStore
@testable import NudgeUseCases

/// Finishing a flow: answers merged into the day's entry, achievements earned once, the
/// celebration drawn and remembered.
@Suite struct FinishFlowTests {
  let start = Day("2026-03-01")!

  @Test func savingAgainTheSameDayUpdatesInsteadOfDuplicating() throws {
    // Given an empty database
    let db = try AppDatabase.inMemory()
    // When prep is saved twice on one day with different items
    try FinishFlow(db: db)(PrepEntry.self, day: start, savedAt: "2026-11-19T21:30:00+01:00") {
      $0.water = true
    }
    try FinishFlow(db: db)(PrepEntry.self, day: start, savedAt: "2026-11-20T00:40:00+01:00") {
      $0.produce = true
    }
    // Then one entry holds both answers and the later timestamp
    let entry = try #require(try db.prep(on: start))
    #expect(entry.water && entry.produce && !entry.breakfast)
    #expect(entry.savedAt == "2026-11-20T00:40:00+01:00")
    #expect(try db.exportDocument().prep.count == 1)
  }

  @Test func awardsOnceAndEvaluatingTwiceAwardsNothingNew() throws {
    let db = try AppDatabase.inMemory()
    let first = try FinishFlow(db: db)(PrepEntry.self, day: start, savedAt: "2026-03-01T21:00:00Z")
    {
      $0.water = true
    }
    #expect(first.newAchievements == [.firstPrep])
    let again = try FinishFlow(db: db)(PrepEntry.self, day: start, savedAt: "2026-03-01T22:00:00Z")
    {
      $0.produce = true
    }
    #expect(again.newAchievements.isEmpty)
    #expect(try db.achievements() == [.firstPrep: start])
  }

  @Test func storedAchievementsEqualAFreshRecomputation() throws {
    let db = try AppDatabase.inMemory()
    for i in 0..<40 where i % 9 != 4 {
      let day = start.adding(days: i)
      try FinishFlow(db: db)(PrepEntry.self, day: day, savedAt: "\(day)T21:00:00Z") { _ in }
      if i % 2 == 0 {
        try FinishFlow(db: db)(CheckinEntry.self, day: day, savedAt: "\(day)T22:00:00Z") {
          $0.followed = true
        }
      }
    }
    let facts = try db.read { try AppDatabase.historyFacts($0) }
    #expect(try db.achievements() == AchievementRule.evaluate(facts))
  }

  @Test func celebrationDrawsNeverRepeatTheLastMessage() throws {
    let db = try AppDatabase.inMemory()
    var messages: [String] = []
    for i in 0..<200 {
      let note = HelpNote(
        id: "n\(i)", day: start, category: .stress, note: nil, at: "2026-03-01T12:00:00Z")
      let drawn = try #require(
        try FinishFlow(db: db)(note, reward: RewardDraw(seed: 9)).celebration)
      #expect(drawn.number == UInt64(i))
      messages.append(drawn.celebration.message)
    }
    #expect(zip(messages, messages.dropFirst()).allSatisfy { $0 != $1 })
  }

  @Test func completingAFlowSavesAwardsAndDrawsInOneWrite() throws {
    let db = try AppDatabase.inMemory()
    let reward = RewardDraw(seed: 3)
    let first = try FinishFlow(db: db)(
      PrepEntry.self, day: start, savedAt: "2026-03-01T21:00:00Z", reward: reward
    ) { $0.water = true }
    // the first prep earns an achievement: fireworks naming it, remembered for Replay
    #expect(!first.updated)
    #expect(first.celebration?.celebration.tier == .fireworks)
    #expect(first.celebration?.celebration.achievements == [.firstPrep])
    #expect(try db.lastCelebration() == first.celebration)
    // saved again the same day with nothing new earned: no celebration, nothing drawn
    let again = try FinishFlow(db: db)(
      PrepEntry.self, day: start, savedAt: "2026-03-01T22:00:00Z", reward: reward
    ) { $0.produce = true }
    #expect(again.updated)
    #expect(again.celebration == nil)
    #expect(try db.lastCelebration() == first.celebration)
    #expect(try db.prep(on: start)?.produce == true)
    // celebrations off: quiet, still drawn
    try db.setSetting(.celebrations, to: "off")
    let quiet = try FinishFlow(db: db)(
      ReviewEntry.self, day: start, savedAt: "2026-03-01T08:00:00Z", reward: reward
    ) { $0.commitTo = "walk" }
    #expect(quiet.celebration?.celebration.tier == .quiet)
    #expect(quiet.celebration?.number == 1)
  }
}
