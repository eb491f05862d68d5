import Foundation
import NudgeCore
import Testing

@testable import NudgeCLI

/// harsh's `habits` and `log` files in (`habit import-harsh DIR`), as harsh writes them
/// (internal/storage: the example habits file's frequencies and headings, `WriteHabitLog`'s
/// `DATE : HABIT : y|n|s : COMMENT : AMOUNT` and older three-field lines), and each broken line
/// refused naming the file and line, nothing written.
@Suite struct HabitHarshTests {
  static let now = "2026-11-20T20:00:00+01:00"

  static let habits = """
    # This is your habits file.
    # It tells harsh what to track and how frequently.
    # 1 means daily, 7 means weekly, 14 every two weeks.

    ! Health
    Gymmed: 3/7
    Bed by midnight: 1

    ! Home
    Cleaned House: 7
    Called Mom: 1w
    New Skill: 90
    Too much coffee: 0

    """

  static let log = """
    2026-11-14 : Bed by midnight : y
    2026-11-15 : Bed by midnight : n : movie ran long
    2026-11-16 : Bed by midnight : s : travelling : 0
    2026-11-16 : Gymmed : y : legs : 0
    2026-11-17 : Too much coffee : y : office : 3
    2026-11-18 : Too much coffee : n :  : 0
    2026-11-18 : Flossed : y
    # a comment line
    2026-11-19 : Bed by midnight : n
    2026-11-19 : Bed by midnight : y : changed my mind : 0

    """

  static func folder(habits: String = habits, log: String = log) throws -> String {
    let dir = NSTemporaryDirectory() + "nudge-harsh-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    try habits.write(toFile: dir + "/habits", atomically: true, encoding: .utf8)
    try log.write(toFile: dir + "/log", atomically: true, encoding: .utf8)
    return dir
  }

  @Test func harshsFilesComeInWithTheirNoesSkipsCommentsAndAmounts() throws {
    let nudge = InProcess()
    let dir = try Self.folder()
    let run = try nudge("habit", "import-harsh", dir, now: Self.now)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("From harsh: 6 habits (6 new, 0 here already)"), "\(run.stdout)")
    #expect(run.stdout.contains("1 log line is of habits the habits file no longer lists"))
    #expect(run.stdout.contains("'Too much coffee' is tracked only in harsh (0)"))
    let days = try HabitLoopCSVTests.days(nudge)
    #expect(
      days["Bed by midnight"] == [
        "2026-11-14": "done", "2026-11-15": "failed (movie ran long)",
        "2026-11-16": "skipped (travelling)",
        // a later line for the day replaces the earlier, as harsh reads it
        "2026-11-19": "done (changed my mind)",
      ], "\(days["Bed by midnight"] ?? [:])")
    #expect(days["Gymmed"] == ["2026-11-16": "done (legs)"])
    #expect(days["Too much coffee"] == ["2026-11-17": "done 3 (office)", "2026-11-18": "failed"])
    let list = try #require(try nudge.json("habit", "list", now: Self.now) as? [[String: Any]])
    #expect(
      list.map { $0["every"] as? String }
        == ["3/week", "daily", "1/week", "1/week", "every 90 days", "daily"])
    #expect(list.last?["unit"] as? String == "units")
    // the same files again change nothing
    let again = try nudge("habit", "import-harsh", dir, now: Self.now)
    #expect(again.stdout.contains("(0 new, 6 here already)"), "\(again.stdout)")
    #expect(try HabitLoopCSVTests.days(nudge) == days)
    // $HARSHPATH names the folder when none is given
    var other = InProcess()
    other.environment["HARSHPATH"] = dir
    #expect(try other("habit", "import-harsh", now: Self.now).status == 0)
  }

  @Test func aByteOrderMarkAndCRLFAreFine() throws {
    let nudge = InProcess()
    let dir = try Self.folder(
      habits: "\u{FEFF}Bed by midnight: 1\r\n", log: "2026-11-19 : Bed by midnight : y : ok : 0\r\n"
    )
    let run = try nudge("habit", "import-harsh", dir, now: Self.now)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(try HabitLoopCSVTests.days(nudge)["Bed by midnight"] == ["2026-11-19": "done (ok)"])
  }

  @Test func brokenLinesAreRefusedNamingFileAndLineAndNothingIsWritten() throws {
    let nudge = InProcess()
    #expect(try nudge("habit", "add", "Floss", now: Self.now).status == 0)
    let before = try nudge("export", now: Self.now).stdout
    let cases: [(habits: String, log: String, says: String)] = [
      (Self.habits, "1900-01-01 : Gymmed : y\n", "/log line 1: 1900-01-01 is before 2000-01-01"),
      (Self.habits, "2026-11-19 : Gymmed : maybe\n", "/log line 1: 'maybe' is not y, n or s"),
      (Self.habits, "2026-11-19 : Gymmed : y : a : 1 : b\n", "/log line 1 has 6 fields"),
      (Self.habits, "2026-13-40 : Gymmed : y\n", "/log line 1: '2026-13-40' is not a day"),
      (Self.habits, "2026-11-19 : Gymmed : y : x : lots\n", "the amount 'lots' is not a number"),
      // a number no day holds (it crashed the import before: issue 54's review)
      (
        Self.habits, "2026-11-19 : Gymmed : y : x : 1e19\n",
        "the amount '1e19' is not a number from 0 to 1000000"
      ),
      ("Gymmed: 8/7\n", "", "/habits line 1: '8/7' is not a frequency harsh reads"),
      ("Gymmed 3/7\n", "", "/habits line 1 is not 'Name: frequency'"),
      ("Gymmed: 1\nGymmed: 7\n", "", "/habits line 2: 'Gymmed' is listed twice"),
      ("list: 1\n", "", "harsh's habit 'list' can't be a Nudge habit's name"),
    ]
    for (habits, log, says) in cases {
      let dir = try Self.folder(habits: habits, log: log)
      let refused = try nudge("habit", "import-harsh", dir, now: Self.now)
      #expect(refused.status == 65, "\(says): \(refused.stderr)")
      #expect(refused.stderr.contains(says), "\(refused.stderr)")
      #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
    }
    let missing = try nudge("habit", "import-harsh", "/nonexistent/harsh", now: Self.now)
    #expect(missing.status == 66, "\(missing.stderr)")
    #expect(missing.stderr.contains("cannot read /nonexistent/harsh/habits"), "\(missing.stderr)")
    #expect(try nudge("export", now: Self.now).stdout == before)
  }
}
