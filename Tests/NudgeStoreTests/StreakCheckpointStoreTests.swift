import Foundation
import NudgeCore
import Testing

@testable import NudgeStore

/// The streak read from a real file through its stored checkpoint equals the streak walked
/// over every day, as the checkpoint is stored, moved up, and thrown away by writes to the
/// days before it.
@Suite struct StreakCheckpointStoreTests {
  let first = Day("2024-01-01")!

  func tempPath() -> String {
    let dir = NSTemporaryDirectory() + "nudge-checkpoint-\(UUID().uuidString)"
    try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    return dir + "/nudge.sqlite3"
  }

  /// The streak walked over every day of the file, as before checkpoints.
  func fullWalk(_ db: AppDatabase, today: Day) throws -> StreakSummary {
    let (done, paused) = try db.streakDays()
    return StreakRule.evaluate(doneDays: done, today: today, paused: paused)
  }

  func stored(_ db: AppDatabase) throws -> Day? {
    try db.read { conn in
      try conn.texts("SELECT through FROM streak_checkpoint").first.flatMap { Day($0) }
    }
  }

  @Test(arguments: 0..<6 as Range<UInt64>)
  func aRandomHistoryReadsTheSameThroughTheCheckpointAsOverEveryDay(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    let db = try AppDatabase.open(path: tempPath())
    // Given two years of days, most done, some gaps, some days off
    var day = first
    for _ in 0..<700 {
      if Int.random(in: 0..<10, using: &random) < 8 {
        try db.putEntry(PrepEntry.self, day: day, savedAt: "\(day)T21:00:00Z") { $0.water = true }
      }
      if Int.random(in: 0..<60, using: &random) == 0 {
        try db.startPause(
          Pause(firstDay: day, lastDay: day.adding(days: Int.random(in: 0...6, using: &random))),
          today: day)
      }
      day = day.adding(days: 1)
    }
    // When the streak is read on each of 60 days in a row (the checkpoint stored, then moved
    // up a week at a time), with a write now and then to a day before the checkpoint
    var today = day.adding(days: -60)
    var checkpoints = Set<Day>()
    for step in 0..<60 {
      let read = try db.streakDays(today: today)
      // Then each read equals the walk over every day
      #expect(
        read.summary(today: today) == (try fullWalk(db, today: today)), "seed \(seed) \(today)")
      #expect(try read.firstDone == db.streakDays().done.min())
      if let through = try stored(db) {
        checkpoints.insert(through)
        #expect(through <= today.adding(days: -StreakCheckpoint.lagDays))
      }
      if step % 17 == 5, let through = try stored(db) {
        // a day before the checkpoint filled in, emptied or paused: it is thrown away
        let old = through.adding(days: -Int.random(in: 0...30, using: &random))
        switch step % 3 {
        case 0:
          try db.putEntry(CheckinEntry.self, day: old, savedAt: "\(old)T22:00:00Z") {
            $0.feel = "ok"
          }
        case 1:
          for flow in [Flow.prep, .checkin] {
            if let entry = try db.entry(flow, on: old) { try db.removeFlowEntry(entry) }
          }
        default:
          try db.startPause(Pause(firstDay: old, lastDay: old.adding(days: 2)), today: today)
        }
        #expect(
          try db.streakDays(today: today).summary(today: today) == (try fullWalk(db, today: today)))
      }
      today = today.adding(days: 1)
    }
    // the checkpoint was stored and moved up, never more than once a week
    #expect(checkpoints.count >= 3)
  }

  @Test func aWriteBeforeTheCheckpointThrowsItAwayAndOneAfterItKeepsIt() throws {
    let db = try AppDatabase.open(path: tempPath())
    var day = first
    for _ in 0..<40 {
      try db.putEntry(PrepEntry.self, day: day, savedAt: "\(day)T21:00:00Z")
      day = day.adding(days: 1)
    }
    let today = day.adding(days: -1)
    _ = try db.streakDays(today: today)
    let through = try #require(try stored(db))
    #expect(through == today.adding(days: -StreakCheckpoint.lagDays))
    // a save within the days a flow can still be filled in keeps it
    try db.putEntry(ReviewEntry.self, day: today.adding(days: -3), savedAt: "x")
    try db.startPause(
      Pause(firstDay: today.adding(days: 1), lastDay: today.adding(days: 3)), today: today)
    #expect(try stored(db) == through)
    // a help note moved onto an older day, a delete of an older day, a pause over one: each
    // throws it away
    for change in 0..<3 {
      _ = try db.streakDays(today: today.adding(days: 7))
      #expect(try stored(db) != nil)
      let old = through.adding(days: -2 - change)
      switch change {
      case 0:
        let note = HelpNote(id: "n1", day: today, category: .stress, note: nil, at: "x")
        try db.insertHelpNote(note)
        var moved = note
        moved.day = old
        try db.putFlowEntry(moved.flowEntry)
      case 1: try db.removeFlowEntry(try #require(try db.entry(.prep, on: old)))
      default: try db.startPause(Pause(firstDay: old, lastDay: old), today: old)
      }
      #expect(try stored(db) == nil, "change \(change)")
    }
  }
}

extension StreakCheckpointStoreTests {
  @Test func aPauseEndingBeforeItStartsInTheFileIsNoDayOffAsBefore() throws {
    let db = try AppDatabase.open(path: tempPath())
    var day = first
    for _ in 0..<30 {
      try db.putEntry(PrepEntry.self, day: day, savedAt: "\(day)T21:00:00Z")
      day = day.adding(days: 1)
    }
    _ = try db.streakDays(today: day)
    #expect(try stored(db) != nil)
    try db.write { conn in
      try conn.execute(
        "INSERT INTO pause (first_day, last_day) VALUES (?, ?)",
        [SQLValue(day.adding(days: -2)), SQLValue(day.adding(days: -4))])
    }
    #expect(
      try db.streakDays(today: day).summary(today: day) == (try fullWalk(db, today: day)))
  }
}

/// A database Nudge creates has 1 KiB pages (each table and index takes at least one), and one
/// made before keeps its own.
@Suite struct PageSizeTests {
  @Test func aNewDatabaseHasSmallPagesAndAnOlderOneKeepsItsOwn() throws {
    let dir = NSTemporaryDirectory() + "nudge-pages-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    let created = try AppDatabase.open(path: dir + "/new.sqlite3")
    #expect(try created.read { try $0.integer("PRAGMA page_size") } == 1024)
    let old = try SQLiteConnection(path: dir + "/old.sqlite3", create: true)
    try AppDatabase.migrate(old, upTo: 9)
    let upgraded = try AppDatabase.open(path: dir + "/old.sqlite3")
    #expect(try upgraded.read { try $0.integer("PRAGMA page_size") } == 4096)
  }
}
