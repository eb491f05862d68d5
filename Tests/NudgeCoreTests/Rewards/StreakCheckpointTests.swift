import Foundation
import Testing

@testable import NudgeCore

/// The streak walked on from a checkpoint equals the streak walked over every day, whatever
/// the history: gaps the freezes cover and gaps they don't, days off, today done or pending.
@Suite struct StreakCheckpointTests {
  /// The store's JSON read byte by byte is what `JSONDecoder` reads, in any key order; any
  /// other spelling is nil (the store then asks `JSONDecoder`).
  @Test func theStoredJSONReadsAsTheDecoderReadsIt() throws {
    var generator = SystemRandomNumberGenerator()
    let start = Day(year: 2016, month: 1, day: 1)
    for _ in 0..<200 {
      let frozen = (0..<Int.random(in: 0...4, using: &generator)).map {
        start.adding(days: $0 * 30 + Int.random(in: 0...29, using: &generator))
      }
      let checkpoint = StreakCheckpoint(
        through: start.adding(days: Int.random(in: 0...4000, using: &generator)),
        firstDone: start, run: Int.random(in: 0...4000, using: &generator),
        longest: Int.random(in: 0...4000, using: &generator),
        freezes: Int.random(in: 0...3, using: &generator),
        sinceFreeze: Int.random(in: 0...6, using: &generator), frozen: frozen)
      let text = String(decoding: try JSONEncoder().encode(checkpoint), as: UTF8.self)
      #expect(StreakCheckpoint(storedJSON: text) == checkpoint, "\(text)")
    }
    let stored =
      #"{"longest":3642,"through":"2026-11-12","run":3642,"frozen":["2020-02-02"],"sinceFreeze":2,"rules":1,"firstDone":"2016-11-23","freezes":2}"#
    let decoded = try JSONDecoder().decode(StreakCheckpoint.self, from: Data(stored.utf8))
    #expect(StreakCheckpoint(storedJSON: stored) == decoded)
    for other in [
      stored.replacing("\"run\":3642", with: "\"run\":-1"),
      stored.replacing("\"run\":3642", with: "\"run\":3642,\"run\":1"),
      stored.replacing("\"rules\":1,", with: ""), stored.replacing("2020-02-02", with: "2020-2-2x"),
      stored.replacing("\"freezes\":2}", with: "\"freezes\":2,\"more\":1}"), stored + "x", "",
    ] {
      #expect(StreakCheckpoint(storedJSON: other) == nil, "\(other)")
    }
  }

  let today = Day("2026-11-21")!

  /// A random history of `span` days before `today`: runs done, gaps of 1 to 5 missed days,
  /// now and then a pause (some of its days done too).
  func history(_ random: inout SplitMix64, span: Int) -> (done: Set<Day>, paused: Set<Day>) {
    var done = Set<Day>()
    var paused = Set<Day>()
    var offset = -span
    while offset <= 0 {
      let run = Int.random(in: 1...20, using: &random)
      for d in stride(from: offset, to: min(offset + run, 1), by: 1) {
        done.insert(today.adding(days: d))
      }
      offset += run
      let gap = Int.random(in: 1...5, using: &random)
      if Int.random(in: 0..<6, using: &random) == 0 {
        for d in stride(from: offset, to: min(offset + gap + 3, 1), by: 1) {
          paused.insert(today.adding(days: d))
          if Int.random(in: 0..<4, using: &random) == 0 { done.insert(today.adding(days: d)) }
        }
        offset += gap + 3
      } else {
        offset += gap
      }
    }
    if Bool.random(using: &random) { done.remove(today) }
    return (done, paused)
  }

  /// Only the days after `checkpoint` and the last week: what the store reads.
  func recent(_ days: Set<Day>, after checkpoint: StreakCheckpoint?) -> Set<Day> {
    let from = min(
      checkpoint?.through ?? today.adding(days: -100_000), today.adding(days: -6))
    return days.filter { $0 >= from }
  }

  @Test(arguments: 0..<40 as Range<UInt64>)
  func theWalkFromACheckpointEqualsTheWalkOverEveryDay(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    let (done, paused) = history(&random, span: Int.random(in: 10...400, using: &random))
    let full = StreakRule.evaluate(doneDays: done, today: today, paused: paused)
    for lag in [1, 2, 7, 8, 30, 120, 500] {
      let bound = today.adding(days: -lag)
      let checkpoint = StreakRule.checkpoint(doneDays: done, paused: paused, through: bound)
      if let checkpoint {
        #expect(checkpoint.through <= bound && done.contains(checkpoint.through))
        #expect(checkpoint.firstDone == done.min())
      }
      let read = StreakDays(
        done: recent(done, after: checkpoint), paused: recent(paused, after: checkpoint),
        checkpoint: checkpoint)
      #expect(read.summary(today: today) == full, "seed \(seed), lag \(lag)")
      #expect(read.firstDone == done.min())
      // moved up from an older one, with only the days after that older one
      let older = StreakRule.checkpoint(
        doneDays: done, paused: paused,
        through: bound.adding(days: -Int.random(in: 1...40, using: &random)))
      let moved = StreakRule.checkpoint(
        doneDays: recent(done, after: older), paused: recent(paused, after: older), through: bound,
        after: older)
      #expect(moved == checkpoint, "seed \(seed), lag \(lag)")
      // and the rescue offered reads the same
      let frozen = Set(full.frozen)
      #expect(
        StreakRescue.days(read, frozen: frozen, today: today)
          == StreakRescue.days(doneDays: done, frozen: frozen, today: today, paused: paused))
    }
  }

  @Test func aCheckpointOnOrAfterTodayIsNotWalkedFrom() {
    let done = Set((-20...0).map { today.adding(days: $0) })
    let checkpoint = StreakRule.checkpoint(doneDays: done, through: today)
    #expect(checkpoint?.through == today)
    // a look back at an earlier day walks every day instead
    let earlier = today.adding(days: -5)
    #expect(
      StreakRule.evaluate(doneDays: done, today: earlier, after: checkpoint)
        == StreakRule.evaluate(doneDays: done, today: earlier))
  }

  @Test func noDoneDayNoCheckpoint() {
    #expect(StreakRule.checkpoint(doneDays: [], through: today) == nil)
    #expect(StreakRule.checkpoint(doneDays: [today], through: today.adding(days: -1)) == nil)
  }
}
