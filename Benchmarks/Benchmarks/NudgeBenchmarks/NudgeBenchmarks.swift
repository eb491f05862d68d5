import Benchmark
import Foundation
import NudgeCore
import NudgeStore
import NudgeUseCases

/// A history of `years` years: prep, review and check-in every day, a help note every third.
func syntheticFacts(years: Int, endingOn last: Day) -> HistoryFacts {
  let days = (0..<(years * 365)).map { last.adding(days: -$0) }
  return HistoryFacts(
    prepDays: Set(days), reviewDays: Set(days), checkinDays: Set(days),
    helpDays: Set(days.enumerated().filter { $0.offset % 3 == 0 }.map(\.element)),
    followedDays: Set(days.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)))
}

/// The export document `nudge export` would write for the same history.
func syntheticExport(years: Int, endingOn last: Day) -> Data {
  var prep: [String] = []
  var review: [String] = []
  var checkin: [String] = []
  var help: [String] = []
  for i in 0..<(years * 365) {
    let day = last.adding(days: -i).description
    let at = "\(day)T20:30:00+00:00"
    prep.append(
      #"{"day":"\#(day)","sticky_notes":true,"produce":true,"water":true,"breakfast":false,"saved_at":"\#(at)"}"#
    )
    review.append(
      #"{"day":"\#(day)","why":"energy","swap":"tea instead of soda","commit_to":"drink tea","saved_at":"\#(at)"}"#
    )
    checkin.append(#"{"day":"\#(day)","followed":\#(i % 2 == 0),"saved_at":"\#(at)"}"#)
    if i % 3 == 0 {
      help.append(
        #"{"id":"note-\#(i)","day":"\#(day)","category":"stress","note":"walked","at":"\#(at)"}"#)
    }
  }
  let text = """
    {"format":"nudge-export","version":1,"settings":{},
    "prep":[\(prep.joined(separator: ","))],"review":[\(review.joined(separator: ","))],
    "checkin":[\(checkin.joined(separator: ","))],"help":[\(help.joined(separator: ","))]}
    """
  return Data(text.utf8)
}

let today = Day(year: 2026, month: 11, day: 21)

let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .init(
    metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident],
    maxDuration: .seconds(3), maxIterations: 2_000)

  // The pure rules `nudge streak` and `nudge achievements` run, over 1, 10 and 50 years.
  for years in [1, 10, 50] {
    let facts = syntheticFacts(years: years, endingOn: today)
    let done = facts.doneDays
    Benchmark("streak+achievements \(years)y") { benchmark in
      for _ in benchmark.scaledIterations {
        blackHole(StreakRule.evaluate(doneDays: done, today: today))
        blackHole(AchievementRule.evaluate(facts))
      }
    }
  }

  // The same from a 10-year SQLite file, as `nudge streak` does it: the streak from its stored
  // checkpoint and the days after it, the achievements as stored.
  Benchmark("streak+achievements 10y from SQLite", configuration: .init(maxIterations: 200)) {
    (benchmark: Benchmark, db: AppDatabase) in
    for _ in benchmark.scaledIterations {
      blackHole(try db.streakDays(today: today).summary(today: today))
      blackHole(try db.achievements())
    }
  } setup: {
    let db = try AppDatabase.open(path: temporaryDatabasePath())
    _ = try ImportDocument(db: db)(
      ExportDocument.decode(syntheticExport(years: 10, endingOn: today)), at: "\(today)T12:00:00Z")
    return db
  }

  // `nudge import` of 10 years into an empty file: decode, check, write, award.
  let tenYears = syntheticExport(years: 10, endingOn: today)
  Benchmark(
    "import 10y",
    configuration: .init(metrics: [.wallClock, .peakMemoryResident], maxIterations: 10)
  ) { benchmark in
    for _ in benchmark.scaledIterations {
      let path = temporaryDatabasePath()
      let db = try AppDatabase.open(path: path)
      blackHole(try ImportDocument(db: db)(ExportDocument.decode(tenYears), at: "\(today)T12:00:00Z"))
      for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
    }
  }
}

func temporaryDatabasePath() -> String {
  NSTemporaryDirectory() + "nudge-bench-\(UUID().uuidString).sqlite3"
}
