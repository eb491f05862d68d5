import Foundation
import NudgeCore
import Testing

@testable import NudgeCLI

/// `nudge habit`: a habit of one's own added, marked done or skipped, listed with its streak
/// and strength, edited, removed — each undone — and every bad input refused with nothing saved.
@Suite struct HabitTests {
  /// A name with a direction override is shown escaped once in an error, not twice (it read
  /// `a\\u{202E}b`: issue 56, item 9), and never raw.
  @Test func aHostileNameIsEscapedOnceInAnError() throws {
    let nudge = Nudge()
    #expect(try nudge.run(["habit", "add", "a\u{202E}b"]).status == 0)
    let again = try nudge.run(["habit", "add", "a\u{202E}b"])
    #expect(again.status == 64)
    #expect(
      again.stderr.contains("a habit named 'a\\u{202E}b' is there already"), "\(again.stderr)")
    #expect(!again.stderr.contains("\\\\u{"), "\(again.stderr)")
    #expect(!again.stderr.unicodeScalars.contains { $0.value == 0x202E })
  }

  /// At most `Habit.maxCount` habits (each may have a timer of its own): the next is refused,
  /// nothing written (issue 56, item 4: 10,000 habits were taken).
  @Test func noMoreHabitsThanNudgeKeeps() throws {
    let nudge = InProcess()
    for n in 1...100 { try #require(try nudge.run(["habit", "add", "h\(n)"]).status == 0) }
    let refused = try nudge.run(["habit", "add", "one more"])
    #expect(refused.status == 64, "\(refused.stderr)")
    #expect(refused.stderr.contains("that makes 101 habits, more than the 100 Nudge keeps"))
    let listed = try #require(try nudge.json("habit", "list") as? [[String: Any]])
    #expect(listed.count == 100)
  }

  /// A name longer than the list's column is cut with "…", never silently (a name ending ")"
  /// lost it: issue 56, item 8).
  @Test func aLongNameIsCutWithAnEllipsisInTheList() throws {
    let nudge = InProcess()
    #expect(try nudge.run(["habit", "add", "Read a long book about things (daily)"]).status == 0)
    #expect(try nudge.run(["habit", "add", "Run"]).status == 0)
    let list = try nudge.run(["habit", "list"]).stdout
    #expect(list.contains("Read a long book about …  "), "\(list)")
    #expect(list.contains("Run                       "), "\(list)")
  }

  @Test func aHabitDoneDayByDayShowsItsStreakAndStrengthInTheList() throws {
    let nudge = InProcess()
    #expect(try nudge("habit", "add", "Stretch", "--at", "9pm").status == 0)
    for day in 16...20 {
      let done = try nudge("habit", "done", "stretch", now: "2026-11-\(day)T21:00:00+01:00")
      #expect(done.status == 0, "\(done.stderr)")
    }
    let list = try #require(
      try nudge.json("habit", "list", now: "2026-11-20T22:00:00+01:00") as? [[String: Any]])
    let stretch = try #require(list.first)
    #expect(stretch["name"] as? String == "Stretch")
    #expect(stretch["every"] as? String == "daily")
    #expect(stretch["at"] as? String == "9pm")
    #expect(stretch["target"] is NSNull)
    #expect(stretch["unit"] is NSNull)
    #expect(stretch["done_today"] as? Bool == true)
    #expect(stretch["value_today"] is NSNull)
    #expect(stretch["streak"] as? Int == 5)
    #expect(stretch["best_streak"] as? Int == 5)
    #expect(stretch["streak_unit"] as? String == "days")
    let strength = try #require(stretch["strength"] as? Int)
    #expect(strength > 0 && strength < 100)
    // the today view lists it, done
    let today = try nudge("today", now: "2026-11-20T22:00:00+01:00")
    #expect(today.stdout.contains("✓ Stretch done · streak 5 days"), "\(today.stdout)")
  }

  @Test func aMeasurableHabitTakesAValueAndAYesNoOneRefusesIt() throws {
    let nudge = InProcess()
    try #require(
      try nudge("habit", "add", "Read", "--target", "20", "--unit", "pages").status == 0)
    try #require(try nudge("habit", "add", "Floss").status == 0)
    let noValue = try nudge("habit", "done", "read")
    #expect(noValue.status == 64)
    #expect(noValue.stderr.contains("give the amount, e.g. nudge habit done Read --value 20"))
    let asked = try nudge.typing("abc\n25\n", "habit", "done", "read")
    #expect(asked.status == 0, "\(asked.stderr)")
    #expect(asked.stdout.contains("How many pages?"))
    #expect(asked.stdout.contains("A whole number from 0 to 1000000, please."))
    let valued = try nudge("habit", "done", "floss", "--value", "3")
    #expect(valued.status == 64)
    #expect(valued.stderr.contains("'Floss' is a yes/no habit: it takes no --value"))
    let list = try #require(try nudge.json("habit", "list") as? [[String: Any]])
    #expect(list.first?["value_today"] as? Int == 25)
    #expect(list.last?["done_today"] as? Bool == false)
  }

  @Test func badInputIsOneLineExit64AndNothingSaved() throws {
    let nudge = InProcess()
    try #require(try nudge("habit", "add", "Stretch").status == 0)
    let refusals: [([String], String)] = [
      (["habit", "add", ""], "a habit needs a name"),
      (["habit", "add", String(repeating: "x", count: 61)], "at most 60"),
      (["habit", "add", "list"], "one of nudge's command words"),
      (["habit", "add", "stretch"], "a habit named 'Stretch' is there already"),
      (
        ["habit", "add", "Run", "--target", "0", "--unit", "km"],
        "--target takes a whole number from 1"
      ),
      (
        ["habit", "add", "Run", "--target", "-3", "--unit", "km"],
        "--target takes a whole number from 1"
      ),
      (["habit", "add", "Run", "--target", "2.5", "--unit", "km"], "not '2.5'"),
      (["habit", "add", "Run", "--target", "5"], "--target and --unit go together"),
      (["habit", "add", "Run", "--every", "8/week"], "'8/week' can't be met"),
      (["habit", "add", "Run", "--at", "25:99"], "is not a time Nudge reads"),
      (["habit", "add", "Run", "--unit", "km"], "--target and --unit go together"),
      (["habit", "done", "Stretch", "--day", "2026-11-21"], "is in the future"),
      (["habit", "done", "Stretch", "--day", "2026-11-01"], "before 'Stretch' began"),
      (["habit", "done", "Nope"], "there is no habit named 'Nope'"),
      (["habit", "remove", "Stretch"], "--yes"),
    ]
    for (arguments, words) in refusals {
      let result = try nudge.run(arguments)
      #expect(result.status == 64, "\(arguments)")
      #expect(result.stderr.contains(words), "\(arguments): \(result.stderr)")
      #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    }
    let list = try #require(try nudge.json("habit", "list") as? [[String: Any]])
    #expect(list.map { $0["name"] as? String } == ["Stretch"])
    #expect(list.first?["done_today"] as? Bool == false)
  }

  @Test func aNameIsFoundByAnyCaseOrAUniqueStartAndShownEscaped() throws {
    let nudge = InProcess()
    try #require(try nudge("habit", "add", "Stretch").status == 0)
    try #require(try nudge("habit", "add", "Strength training").status == 0)
    // a control character in a name is refused (it would be shown escaped anyway)
    let evil = try nudge("habit", "add", "Evil\u{1B}[31m")
    #expect(evil.status == 64)
    #expect(evil.stderr.contains("one line of plain text"))
    let ambiguous = try nudge("habit", "done", "str")
    #expect(ambiguous.status == 64)
    #expect(ambiguous.stderr.contains("names several habits (Stretch, Strength training)"))
    #expect(try nudge("habit", "done", "STRETCH").status == 0)
    #expect(try nudge("habit", "done", "stre").status == 64)
    #expect(try nudge("habit", "done", "streng").status == 0)
  }

  @Test func aNewHabitsIDStartsWithTheCommandsNowNotTheMachinesClock() throws {
    let nudge = InProcess()
    try #require(
      try nudge.run(["habit", "add", "Stretch"], now: "2026-11-20T09:00:00Z").status == 0)
    let exported = try #require(
      try JSONSerialization.jsonObject(with: Data(nudge("export").stdout.utf8)) as? [String: Any])
    let habit = try #require((exported["habits"] as? [[String: Any]])?.first)
    // 2026-11-20T09:00:00Z is 1795165200000 ms: 0x01a1f82f1e80, then the row's number
    #expect((habit["uid"] as? String)?.hasPrefix("01a1f82f1e8001") == true, "\(habit)")
  }

  @Test func undoAndRedoJSONSayTheDaysMarkAndTheAchievementsAsTheTextDoes() throws {
    let nudge = InProcess()
    try #require(try nudge("habit", "add", "Stretch").status == 0)
    try #require(try nudge("habit", "done", "stretch", "--no-animation").status == 0)
    let undone = try #require(try nudge.json("undo") as? [String: Any])
    #expect(undone["undone"] as? String == "habit-done", "\(undone)")
    #expect(undone["check"] is NSNull, "\(undone)")
    #expect(undone["lost_achievements"] as? [String] == ["habit-first"], "\(undone)")
    let redone = try #require(try nudge.json("redo") as? [String: Any])
    #expect(redone["redone"] as? String == "habit-done", "\(redone)")
    #expect((redone["check"] as? [String: Any])?["done"] as? Bool == true, "\(redone)")
    #expect(redone["new_achievements"] as? [String] == ["habit-first"], "\(redone)")
  }

  @Test func undoTakesBackADoneASkipAnEditAndARemove() throws {
    let nudge = InProcess()
    try #require(try nudge("habit", "add", "Stretch", "--at", "9pm").status == 0)
    try #require(try nudge("habit", "done", "stretch").status == 0)
    try #require(
      try nudge("habit", "edit", "stretch", "--rename", "Yoga", "--at", "off").status == 0)
    try #require(try nudge("habit", "remove", "yoga", "--yes").status == 0)
    #expect((try nudge.json("habit", "list") as? [Any])?.isEmpty == true)
    #expect(try nudge("undo").stdout.contains("Undone: removing 'Yoga' (it is back"))
    var list = try #require(try nudge.json("habit", "list") as? [[String: Any]])
    #expect(list.first?["name"] as? String == "Yoga")
    #expect(try nudge("undo").stdout.contains("an edit of"))
    list = try #require(try nudge.json("habit", "list") as? [[String: Any]])
    #expect(list.first?["name"] as? String == "Stretch")
    #expect(list.first?["at"] as? String == "9pm")
    #expect(try nudge("undo").stdout.contains("Undone: 'Stretch' done"))
    list = try #require(try nudge.json("habit", "list") as? [[String: Any]])
    #expect(list.first?["done_today"] as? Bool == false)
    try #require(try nudge("habit", "skip", "stretch").status == 0)
    #expect(
      (try nudge.json("habit", "list") as? [[String: Any]])?.first?["today"] as? String == "skipped"
    )
    #expect(try nudge("undo").stdout.contains("Undone: 'Stretch' skipped"))
    #expect(
      (try nudge.json("habit", "list") as? [[String: Any]])?.first?["today"] as? String == "due")
    // redo re-applies what the undo took back, then the skip can be undone again
    #expect(try nudge("redo").stdout.contains("Redone: 'Stretch' skipped"))
    #expect(
      (try nudge.json("habit", "list") as? [[String: Any]])?.first?["today"] as? String
        == "skipped")
    // a new change ends what redo could re-apply
    #expect(try nudge("undo").status == 0)
    try #require(try nudge("habit", "done", "stretch").status == 0)
    #expect(try nudge("redo").status == 1)
  }

  @Test func aSkippedDayKeepsTheStreakAndShowsInTheTodayView() throws {
    let nudge = InProcess()
    try #require(try nudge("habit", "add", "Run", now: "2026-11-16T08:00:00+01:00").status == 0)
    for (day, verb) in [(16, "done"), (17, "done"), (18, "skip"), (19, "done")] {
      try #require(
        try nudge("habit", verb, "run", now: "2026-11-\(day)T20:00:00+01:00").status == 0)
    }
    let list = try #require(try nudge.json("habit", "list") as? [[String: Any]])
    #expect(list.first?["streak"] as? Int == 3)
    #expect(list.first?["today"] as? String == "due")
    #expect(try nudge("today").stdout.contains("→ Run: nudge habit done Run"))
    try #require(try nudge("habit", "skip", "run").status == 0)
    #expect(try nudge("today").stdout.contains("- Run skipped today"))
  }
}

/// The habits' achievements: the first done, one habit on 7, 30 and 100 days; earned with a
/// big celebration, taken back by an undo, listed only once a habit is there.
@Suite struct HabitAchievementTests {
  func earned(_ nudge: InProcess, now: String) throws -> [String: String] {
    let rows = try #require(try nudge.json("achievements", now: now) as? [[String: Any]])
    var found: [String: String] = [:]
    for row in rows {
      if let key = row["key"] as? String { found[key] = row["earned_on"] as? String ?? "" }
    }
    return found
  }

  @Test func aHabitsDaysEarnItsMilestonesAndAnUndoTakesThemBack() throws {
    let nudge = InProcess()
    // no habit: the habits' achievements are not listed
    #expect(try earned(nudge, now: "2026-11-10T20:00:00+01:00")["habit-first"] == nil)
    try #require(
      try nudge("habit", "add", "Stretch", now: "2026-11-10T08:00:00+01:00").status == 0)
    #expect(try earned(nudge, now: "2026-11-10T20:00:00+01:00")["habit-first"] == "")
    let first = try nudge("habit", "done", "stretch", now: "2026-11-10T20:00:00+01:00")
    #expect(first.stdout.contains("New achievement: First habit done"), "\(first.stdout)")
    for day in 11...16 {
      try #require(
        try nudge("habit", "done", "stretch", now: "2026-11-\(day)T20:00:00+01:00").status == 0)
    }
    var got = try earned(nudge, now: "2026-11-16T21:00:00+01:00")
    #expect(got["habit-first"] == "2026-11-10")
    #expect(got["habit-days-7"] == "2026-11-16")
    #expect(got["habit-days-30"] == "")
    let undone = try nudge("undo", now: "2026-11-16T21:00:00+01:00")
    #expect(undone.stdout.contains("Achievement removed: A habit on 7 days"), "\(undone.stdout)")
    got = try earned(nudge, now: "2026-11-16T21:00:00+01:00")
    #expect(got["habit-days-7"] == "")
    #expect(got["habit-first"] == "2026-11-10")
  }

  @Test func aMeasurableDayShortOfItsTargetEarnsNothing() throws {
    let nudge = InProcess()
    try #require(try nudge("habit", "add", "Read", "--target", "20", "--unit", "pages").status == 0)
    try #require(try nudge("habit", "done", "read", "--value", "5").status == 0)
    #expect(try earned(nudge, now: "2026-11-20T09:00:00+01:00")["habit-first"] == "")
    try #require(try nudge("habit", "done", "read", "--value", "20").status == 0)
    #expect(try earned(nudge, now: "2026-11-20T09:00:00+01:00")["habit-first"] == "2026-11-20")
  }
}

/// `nudge habit import-loop`: a backup made with Loop's own schema comes whole, the same file
/// again changes nothing, and a file that is not one changes nothing.
@Suite struct HabitImportLoopTests {
  /// A Loop backup from scripts/nudgetest/loop_backup.py (Loop's migrations, its sample habits).
  func loopBackup() throws -> String {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let path = NSTemporaryDirectory() + "nudge-loop-\(UUID().uuidString).db"
    let python = Process()
    python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    python.arguments = [
      "python3", root.appendingPathComponent("scripts/nudgetest/loop_backup.py").path, path,
    ]
    try python.run()
    python.waitUntilExit()
    try #require(python.terminationStatus == 0)
    return path
  }

  @Test func aLoopBackupImportsOnceAndAgainChangesNothing() throws {
    let nudge = InProcess()
    let file = try loopBackup()
    let first = try nudge("habit", "import-loop", file)
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stdout.contains("From Loop: 5 habits (5 new, 0 here already)"), "\(first.stdout)")
    let again = try nudge("habit", "import-loop", file)
    #expect(again.stdout.contains("(0 new, 5 here already)"), "\(again.stdout)")
    // Meditate's NO (a no the person marked) comes in as a failed day
    #expect(again.stdout.contains("14 checks, 1 no and 2 skips"), "\(again.stdout)")
    #expect(again.stdout.contains("0 new, 17 the same, 0 kept"), "\(again.stdout)")
    let habits = try #require(
      try nudge.run(["habit", "list", "--all", "--json"]).stdout.data(using: .utf8).flatMap {
        try JSONSerialization.jsonObject(with: $0) as? [[String: Any]]
      })
    let byName = Dictionary(uniqueKeysWithValues: habits.map { ($0["name"] as! String, $0) })
    #expect(byName["Gym"]?["every"] as? String == "3/week")
    #expect(byName["Read"]?["unit"] as? String == "pages")
    #expect(byName["Read"]?["target"] as? Int == 20)
    #expect(byName["Floss"]?["archived"] as? Bool == true)
    #expect(byName["Meditate"]?["at"] as? String == "Mon,Wed,Fri *-*-* 07:30:00")
  }

  @Test func aDayRecordedHereKeepsWhatItHas() throws {
    let nudge = InProcess()
    try #require(
      try nudge("habit", "add", "Gym", "--every", "2/week", now: "2026-11-01T08:00:00+01:00")
        .status == 0)
    // the sample's Gym has days in November 2026 (loop_backup.py); record every day here first
    for day in 1...20 {
      try #require(
        try nudge(
          "habit", "skip", "gym", now: String(format: "2026-11-%02dT20:00:00+01:00", day)
        ).status == 0)
    }
    let imported = try nudge("habit", "import-loop", try loopBackup())
    #expect(imported.status == 0, "\(imported.stderr)")
    #expect(!imported.stdout.contains(" 0 kept"), "\(imported.stdout)")
    let gym = try #require(
      (try nudge.json("habit", "list", now: "2026-11-20T21:00:00+01:00") as? [[String: Any]])?
        .first { $0["name"] as? String == "Gym" })
    // yours win: the definition and the days recorded here
    #expect(gym["every"] as? String == "2/week")
    #expect(gym["today"] as? String == "skipped")
  }

  @Test func aFileThatIsNotALoopBackupChangesNothing() throws {
    let nudge = InProcess()
    let garbage = NSTemporaryDirectory() + "nudge-not-loop-\(UUID().uuidString).db"
    try Data("not a database".utf8).write(to: URL(fileURLWithPath: garbage))
    // not a Loop backup: bad data (65); not there: no input (66), as `import` says it
    for (file, status) in [(garbage, Int32(65)), ("/nonexistent/loop.db", 66)] {
      let result = try nudge("habit", "import-loop", file)
      #expect(result.status == status, "\(result.stderr)")
      #expect(result.stderr.contains("Export full backup"), "\(result.stderr)")
    }
    #expect((try nudge.json("habit", "list") as? [Any])?.isEmpty == true)
  }
}

/// `nudge streak --habit NAME`: one habit's streak, best, strength and weeks.
@Suite struct HabitStreakViewTests {
  @Test func theStreakViewShowsOneHabit() throws {
    let nudge = InProcess()
    try #require(try nudge("habit", "add", "Stretch", now: "2026-11-16T08:00:00+01:00").status == 0)
    for day in 16...19 {
      try #require(
        try nudge("habit", "done", "stretch", now: "2026-11-\(day)T20:00:00+01:00").status == 0)
    }
    let shown = try nudge("streak", "--habit", "stretch", now: "2026-11-20T09:00:00+01:00")
    #expect(shown.status == 0, "\(shown.stderr)")
    #expect(shown.stdout.contains("Stretch: streak 4 days"), "\(shown.stdout)")
    // Mon 16 to Thu 19 done, Fri 20 (today) still to do
    let rows = shown.stdout.split(separator: "\n").map(String.init)
    #expect(rows.first { $0.contains("Thu") }?.hasSuffix("█") == true, "\(shown.stdout)")
    #expect(rows.first { $0.contains("Fri") }?.hasSuffix("○") == true, "\(shown.stdout)")
    let json = try #require(
      try nudge.json("streak", "--habit", "stre", now: "2026-11-20T09:00:00+01:00")
        as? [String: Any])
    #expect(json["streak"] as? Int == 4)
    #expect(json["streak_unit"] as? String == "days")
    #expect(try nudge("streak", "--habit", "nope").status == 64)
  }
}

/// Habits where a day is shown: `history`, `show` and `week`, in words and in JSON.
@Suite struct HabitDaysShownTests {
  @Test func historyShowAndWeekListTheDaysHabits() throws {
    let nudge = InProcess()
    try #require(try nudge("habit", "add", "Stretch", now: "2026-11-16T08:00:00+01:00").status == 0)
    try #require(
      try nudge(
        "habit", "add", "Read", "--target", "20", "--unit", "pages",
        now: "2026-11-16T08:00:00+01:00"
      ).status == 0)
    let evening = "2026-11-18T20:00:00+01:00"
    try #require(try nudge("habit", "done", "stretch", now: evening).status == 0)
    try #require(try nudge("habit", "done", "read", "--value", "25", now: evening).status == 0)
    try #require(
      try nudge("habit", "skip", "stretch", "--day", "yesterday", now: evening).status == 0)
    let history = try nudge("history", "--days", "3", now: evening)
    #expect(history.stdout.contains("habits: Stretch ✓, Read 25"), "\(history.stdout)")
    #expect(history.stdout.contains("habits: Stretch skipped"), "\(history.stdout)")
    let days = try #require(
      try nudge.json("history", "--days", "2", now: evening) as? [[String: Any]])
    let today = try #require(days.last?["habits"] as? [[String: Any]])
    #expect(today.map { $0["name"] as? String } == ["Stretch", "Read"])
    #expect(today.map { $0["state"] as? String } == ["done", "done"])
    #expect(today.last?["value"] as? Int == 25)
    #expect(try nudge("show", "yesterday", now: evening).stdout.contains("Habits: Stretch skipped"))
    let week = try nudge("week", now: evening)
    #expect(
      week.stdout.contains("Stretch: done 1 of 3 days, 1 skipped · streak 1 day"), "\(week.stdout)")
    let report = try #require(try nudge.json("week", now: evening) as? [String: Any])
    let habits = try #require(report["habits"] as? [[String: Any]])
    #expect(habits.first?["done_days"] as? Int == 1)
    #expect(habits.first?["skipped_days"] as? Int == 1)
  }
}

/// Habits in `export` and `import`: they travel with their days, the same file again changes
/// nothing, and a habit a file brings is held to what `habit add` and `done` take.
@Suite struct HabitExportTests {
  @Test func habitsTravelWithTheirDaysAndAgainChangeNothing() throws {
    let from = InProcess()
    try #require(
      try from(
        "habit", "add", "Read", "--target", "20", "--unit", "pages", "--at", "9pm",
        now: "2026-11-18T08:00:00+01:00"
      ).status == 0)
    try #require(
      try from("habit", "done", "read", "--value", "30", now: "2026-11-18T21:00:00+01:00").status
        == 0)
    try #require(try from("habit", "skip", "read", now: "2026-11-19T21:00:00+01:00").status == 0)
    let exported = try from("export", now: "2026-11-20T09:00:00+01:00").stdout
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(exported.utf8)) as? [String: Any])
    #expect(document["version"] as? Int == 3)
    let to = InProcess()
    let first = try to("import", "-", stdin: exported)
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stdout.contains("Habits: 1 new, 2 days added."), "\(first.stdout)")
    let again = try to("import", "-", stdin: exported)
    #expect(!again.stdout.contains("Habits:"), "\(again.stdout)")
    let habit = try #require(
      (try to.json("habit", "list", now: "2026-11-20T09:00:00+01:00") as? [[String: Any]])?.first)
    #expect(habit["name"] as? String == "Read")
    #expect(habit["at"] as? String == "9pm")
    #expect(habit["target"] as? Int == 20)
    let days = try #require(
      try to.json("history", "--days", "3", now: "2026-11-20T09:00:00+01:00") as? [[String: Any]])
    #expect(
      days.map { ($0["habits"] as? [[String: Any]])?.first?["state"] as? String }
        == ["done", "skipped", nil])
  }

  @Test func aHostileHabitInAFileImportsNothing() throws {
    let nudge = InProcess()
    func file(_ habit: String) -> String {
      """
      {"format": "nudge-export", "version": 3, "settings": {}, "prep": [], "review": [],
       "checkin": [], "help": [], "habits": [\(habit)]}
      """
    }
    let base = #""question": "q?", "since": "2026-11-01", "archived": false"#
    for (habit, words) in [
      (#"{"name": "list", "every": "daily", \#(base), "days": []}"#, "command words"),
      (#"{"name": "a\u001b[31m", "every": "daily", \#(base), "days": []}"#, "plain text"),
      (#"{"name": "Run", "every": "8/week", \#(base), "days": []}"#, "can't be met"),
      (#"{"name": "Run", "every": "daily", "at": "25:99", \#(base), "days": []}"#, "not a time"),
      (
        #"{"name": "Run", "every": "daily", \#(base), "days": [{"day": "2026-11-02", "done": true, "value": 5, "saved_at": "x"}]}"#,
        "only a measurable"
      ),
    ] {
      let result = try nudge("import", "-", stdin: file(habit))
      #expect(result.status == 65, "\(habit)")
      #expect(result.stderr.contains("habits[0]"), "\(result.stderr)")
      #expect(result.stderr.contains(words), "\(result.stderr)")
      #expect(result.stderr.contains("Nothing was imported."))
    }
    #expect((try nudge.json("habit", "list") as? [Any])?.isEmpty == true)
  }
}

/// What a review of the habits found, held: a habit removed on a later day comes back with its
/// days, a measurable day short of its target is still due, a rename renews a default question,
/// a name too long for its link is refused, and `plan` can't take the name `habit`.
@Suite struct HabitMendsTests {
  @Test func aHabitRemovedOnALaterDayComesBackWithItsDays() throws {
    let nudge = InProcess()
    try #require(try nudge("habit", "add", "Stretch", now: "2026-11-18T08:00:00+01:00").status == 0)
    try #require(
      try nudge("habit", "done", "stretch", now: "2026-11-18T20:00:00+01:00").status == 0)
    let removed = try nudge("habit", "remove", "stretch", "--yes", now: "2026-11-19T20:00:00+01:00")
    #expect(removed.stdout.contains("its 1 recorded day"), "\(removed.stdout)")
    #expect(try nudge("undo", now: "2026-11-19T20:01:00+01:00").stdout.contains("it is back"))
    let list = try #require(
      try nudge.json("habit", "list", now: "2026-11-19T20:02:00+01:00") as? [[String: Any]])
    #expect(list.first?["name"] as? String == "Stretch")
    #expect(list.first?["best_streak"] as? Int == 1)
  }

  @Test func aMeasurableDayShortOfItsTargetIsStillDue() throws {
    let nudge = InProcess()
    try #require(try nudge("habit", "add", "Read", "--target", "20", "--unit", "pages").status == 0)
    try #require(try nudge("habit", "done", "read", "--value", "5").status == 0)
    let habit = try #require((try nudge.json("habit", "list") as? [[String: Any]])?.first)
    #expect(habit["done_today"] as? Bool == false)
    #expect(habit["today"] as? String == "due")
    #expect(habit["value_today"] as? Int == 5)
  }

  @Test func aMeasurableDayShowsItsAmountAgainstItsTargetEverywhere() throws {
    let nudge = InProcess()
    try #require(
      try nudge(
        "habit", "add", "Read", "--target", "20", "--unit", "pages",
        now: "2026-11-16T08:00:00+01:00"
      ).status == 0)
    try #require(
      try nudge("habit", "done", "read", "--value", "16", now: "2026-11-16T20:00:00+01:00").status
        == 0)
    try #require(
      try nudge("habit", "done", "read", "--value", "25", now: "2026-11-17T20:00:00+01:00").status
        == 0)
    let evening = "2026-11-18T20:00:00+01:00"
    try #require(try nudge("habit", "done", "read", "--value", "5", now: evening).status == 0)
    // a second amount adds to the first (issue 57, item 9: it replaced it while the today
    // view said "so far"); short of the target, nothing says "done"
    let again = try nudge("habit", "done", "read", "--value", "7", now: evening)
    #expect(
      again.stdout.contains(
        "'Read' today: 12 of 20 pages so far (5 + 7); the day counts once it reaches 20."),
      "\(again.stdout)")
    #expect(!again.stdout.contains("✓"))
    #expect(
      try nudge("history", "--days", "3", now: evening).stdout.contains("habits: Read 16/20"))
    #expect(
      try nudge("today", now: evening).stdout.contains(
        "→ Read (12 of 20 so far): nudge habit done Read --value N"))
    // --set makes it the day's amount, and says what it replaced; undo says what is back
    let set = try nudge("habit", "done", "read", "--value", "3", "--set", now: evening)
    #expect(set.stdout.contains("It replaces what was recorded for that day: 12 pages."))
    #expect(
      try nudge("undo", now: evening).stdout.contains(
        "Undone: 'Read' done (Wed 18 Nov is back to 12 pages)."))
    // reaching the target: done, the sum said
    let reached = try nudge("habit", "done", "read", "--value", "8", now: evening)
    #expect(reached.stdout.contains("✓ 'Read' done today: 20 pages (12 + 8)."), "\(reached.stdout)")
    try #require(try nudge("undo", now: evening).status == 0)
    // an amount past the largest a day holds: one line, nothing recorded
    let huge = try nudge("habit", "done", "read", "--value", "\(Habit.maxAmount)", now: evening)
    #expect(huge.status == 64, "\(huge)")
    #expect(huge.stderr.split(separator: "\n").count == 1)
    #expect(try nudge("week", now: evening).stdout.contains("Read: done 1 of 3 days"))
    // Ctrl-D at the amount's prompt: nothing recorded, exit 1, on a line of its own
    let ended = try nudge.typing("", "habit", "done", "read", now: evening)
    #expect(ended.status == 1)
    #expect(
      ended.stdout.contains("(your target: 20; so far: 12, this adds to it) \n"), "\(ended.stdout)")
    #expect(ended.stderr.contains("nothing recorded"))
    // Ctrl-C there: nothing recorded either, exit 130; the 12 pages stay
    let stopped = try nudge.typing("^C\n", "habit", "done", "read", now: evening)
    #expect(stopped.status == 130, "\(stopped)")
    #expect(
      (try nudge.json("habit", "list", now: evening) as? [[String: Any]])?.first?["value_today"]
        as? Int == 12)
  }

  @Test func aRenameRenewsADefaultQuestionAndKeepsAnOwnOne() throws {
    let nudge = InProcess()
    try #require(try nudge("habit", "add", "Stretch").status == 0)
    try #require(try nudge("habit", "add", "Walk", "--question", "Did you walk?").status == 0)
    try #require(try nudge("habit", "edit", "stretch", "--rename", "Yoga").status == 0)
    try #require(try nudge("habit", "edit", "walk", "--rename", "Stroll").status == 0)
    let list = try #require(try nudge.json("habit", "list") as? [[String: Any]])
    #expect(list.map { $0["question"] as? String } == ["Yoga today?", "Did you walk?"])
  }

  @Test func aNameTooLongForItsLinkAndThePlanNameHabitAreRefused() throws {
    let nudge = InProcess()
    let long = try nudge("habit", "add", String(repeating: "読", count: 40))
    #expect(long.status == 64)
    #expect(long.stderr.contains("too long for its reminder's link"), "\(long.stderr)")
    // 60 ASCII letters fit
    #expect(try nudge("habit", "add", String(repeating: "a", count: 60)).status == 0)
    let plan = nudge.home + "/habit.plan"
    try """
    format = 1
    [plan]
    name = "habit"
    title = "Mine"
    [[flow]]
    id = "mine"
    title = "Mine"
    first = "First"
    [[flow.question]]
    id = "q"
    ask = "Q?"
    kind = "yes-no"
    required = true
    """.write(toFile: plan, atomically: true, encoding: .utf8)
    let checked = try Nudge()("plan", "check", plan)
    #expect(checked.status == 65, "\(checked.stderr)")
    #expect(checked.stderr.contains("the plan name 'habit' is Nudge's own"), "\(checked.stderr)")
  }

  @Test func aHabitsFallbackLineIsItsOwn() {
    let offer = Reminder.HabitOffer(
      id: 1, name: "Tom & Jerry", question: "Played <today>?", isMeasurable: false, streak: 3,
      streakUnit: "days")
    #expect(
      fallbackText(.habit(1), streak: 9, offering: .habit(offer))
        == "Nudge · Tom & Jerry: Played <today>? (streak: 3 days) Run: nudge habit done 'Tom & Jerry'"
    )
    // in a notification's body, markup is text
    let left = DesktopNotification.habitReminder(offer, snoozeSeconds: 900)
      .withoutButtons(command: "nudge " + Reminder.Offer.habit(offer).command)
    #expect(left.body.contains("Run: nudge habit done 'Tom &amp; Jerry'"), "\(left.body)")
    #expect(left.body.hasPrefix("Played &lt;today&gt;?"))
  }
}
