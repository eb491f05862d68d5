import Foundation
import NudgeCore
import Testing

@testable import NudgeCLI

/// Loop Habit Tracker's CSV export in (`habit import-loop ZIP|DIR`, Loop 2's names and Loop 1's
/// numbers, notes, a byte order mark, CRLF), out again (`habit export --loop-csv DIR`) and back,
/// and each broken file refused in one line naming the file, the line and why, nothing written.
@Suite struct HabitLoopCSVTests {
  static let now = "2026-11-20T20:00:00+01:00"
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// A Loop CSV export made by scripts/nudgetest/loop_csv.py (the way Loop writes one).
  static func export(_ name: String, old: Bool = false) throws -> String {
    let out = NSTemporaryDirectory() + "nudge-loopcsv-\(UUID().uuidString)-" + name
    let python = Process()
    python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    python.arguments =
      ["python3", root.appendingPathComponent("scripts/nudgetest/loop_csv.py").path, out]
      + (old ? ["--old"] : [])
    try python.run()
    python.waitUntilExit()
    try #require(python.terminationStatus == 0)
    return out
  }

  /// Each habit's days as `history --json` lists them: name → day → (state, value, note).
  static func days(_ nudge: InProcess) throws -> [String: [String: String]] {
    let history = try #require(
      try nudge.json("history", "--days", "30", now: now) as? [[String: Any]])
    var found: [String: [String: String]] = [:]
    for day in history {
      let date = day["date"] as? String ?? "?"
      for mark in day["habits"] as? [[String: Any]] ?? [] {
        let value = (mark["value"] as? Int).map { " \($0)" } ?? ""
        let note = (mark["note"] as? String).map { " (\($0))" } ?? ""
        found[mark["name"] as! String, default: [:]][date] =
          (mark["state"] as! String) + value + note
      }
    }
    return found
  }

  @Test func aLoop2ZipComesInWithItsNoesSkipsNotesAndAmounts() throws {
    let nudge = InProcess()
    let zip = try Self.export("export.zip")
    let first = try nudge("habit", "import-loop", zip, now: Self.now)
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stdout.contains("From Loop: 3 habits (3 new, 0 here already)"), "\(first.stdout)")
    #expect(first.stdout.contains("'Read' is measurable, and the file does not say its target"))
    let days = try Self.days(nudge)
    #expect(
      days["Meditate"] == [
        "2026-11-20": "done (calm, \"finally\")", "2026-11-19": "done",
        // a note of two lines is made one
        "2026-11-18": "failed (too late)", "2026-11-17": "skipped", "2026-11-15": "done",
      ], "\(days["Meditate"] ?? [:])")
    // YES_AUTO is Loop's fill-in, not a check
    #expect(days["Gym"] == ["2026-11-20": "done", "2026-11-18": "done (legs)"])
    // a measurable habit's thousandths (12500: 12.5 pages, kept as 13); its NO is 0 done
    #expect(
      days["Read"] == [
        "2026-11-20": "done 20 (on the train)", "2026-11-19": "done 0", "2026-11-18": "skipped",
        "2026-11-16": "done 13",
      ], "\(days["Read"] ?? [:])")
    let habits = try #require(try nudge.json("habit", "list", now: Self.now) as? [[String: Any]])
    #expect(habits.map { $0["every"] as? String } == ["daily", "3/week", "daily"])
    // the same file again changes nothing
    let again = try nudge("habit", "import-loop", zip, now: Self.now)
    #expect(again.stdout.contains("(0 new, 3 here already)"), "\(again.stdout)")
    #expect(again.stdout.contains("0 new,"), "\(again.stdout)")
    #expect(try Self.days(nudge) == days)
  }

  @Test func aLoop1FolderWithABOMAndCRLFComesInToo() throws {
    let nudge = InProcess()
    let folder = try Self.export("old", old: true)
    let run = try nudge("habit", "import-loop", folder, now: Self.now)
    #expect(run.status == 0, "\(run.stderr)")
    let days = try Self.days(nudge)
    // Loop 1's 0 was "not checked", not a no; its 1 a fill-in
    #expect(
      days["Meditate"] == [
        "2026-11-20": "done", "2026-11-19": "done", "2026-11-17": "skipped", "2026-11-15": "done",
      ], "\(days["Meditate"] ?? [:])")
    #expect(days["Gym"] == ["2026-11-20": "done", "2026-11-18": "done"])
    #expect(days["Read"]?["2026-11-20"] == "done 20")
    // Loop 1's question was its description
    let list = try #require(try nudge.json("habit", "list", now: Self.now) as? [[String: Any]])
    #expect(list.first?["question"] as? String == "Did you meditate today?")
  }

  @Test func onlyHabitsAndTheirCheckmarksAreRead() throws {
    let nudge = InProcess()
    let folder = try Self.export("scores")
    // Scores.csv (derived) and anything else are never read: garbage there changes nothing
    try Data([0xFF, 0xFE, 0x00]).write(
      to: URL(fileURLWithPath: folder + "/001 Meditate/Scores.csv"))
    try Data([0xFF]).write(to: URL(fileURLWithPath: folder + "/Checkmarks.csv"))
    let run = try nudge("habit", "import-loop", folder, now: Self.now)
    #expect(run.status == 0, "\(run.stderr)")
  }

  @Test func brokenFilesAreRefusedInOneLineNamingFileAndLine() throws {
    let nudge = InProcess()
    #expect(try nudge("habit", "add", "Floss", now: Self.now).status == 0)
    let before = try nudge("export", now: Self.now).stdout
    let cases: [(file: String, text: String, says: String)] = [
      (
        "001 Meditate/Checkmarks.csv", "Date,Value,Notes\n1900-01-01,YES_MANUAL,\n",
        "001 Meditate/Checkmarks.csv line 2: '1900-01-01' is not a day from 2000-01-01"
      ),
      (
        "001 Meditate/Checkmarks.csv", "Date,Value,Notes\n2026-11-20,MAYBE,\n",
        "001 Meditate/Checkmarks.csv line 2: the value 'MAYBE' is not one Loop writes"
      ),
      (
        "001 Meditate/Checkmarks.csv", "Date,Value,Notes\n2026-11-20,YES_MANUAL,\"open\n",
        "001 Meditate/Checkmarks.csv line 2 opens a quote that is never closed"
      ),
      (
        "001 Meditate/Checkmarks.csv", "Date,Value,Notes\n2026-11-20,2,\n2026-11-20,2,\n",
        "line 3: 2026-11-20 is there twice"
      ),
      ("Habits.csv", "Position,Name\nx,Meditate\n", "Habits.csv line 2: its Position is not"),
      ("Habits.csv", "Name,Color\n", "Habits.csv line 1 is not Loop's header"),
      (
        "Habits.csv",
        "Position,Name,Question,Description,NumRepetitions,Interval,Color\n001,list,,,1,1,#000\n",
        "Loop's habit 'list' can't be a Nudge habit's name"
      ),
      (
        "001 Meditate/Checkmarks.csv", "Date,Value,Notes\n2026-11-20,\"YES\"x,\n",
        "line 2 has text after a field's closing quote"
      ),
    ]
    for (file, text, says) in cases {
      let folder = try Self.export("broken")
      try text.write(toFile: folder + "/" + file, atomically: true, encoding: .utf8)
      let refused = try nudge("habit", "import-loop", folder, now: Self.now)
      #expect(refused.status == 65, "\(file): \(refused.stderr)")
      #expect(refused.stderr.contains(says), "\(refused.stderr)")
      #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
    }
    // no Habits.csv at all, a file that is not UTF-8, a zip cut short
    let empty = NSTemporaryDirectory() + "nudge-loopcsv-empty-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
    #expect(
      try nudge("habit", "import-loop", empty, now: Self.now).stderr.contains("no Habits.csv"))
    let latin = try Self.export("latin")
    try Data([0x50, 0x6F, 0x73, 0xE9, 0x0A]).write(to: URL(fileURLWithPath: latin + "/Habits.csv"))
    #expect(
      try nudge("habit", "import-loop", latin, now: Self.now).stderr.contains("is not UTF-8 text"))
    let zip = try Self.export("cut.zip")
    let bytes = try Data(contentsOf: URL(fileURLWithPath: zip))
    try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: zip))
    let cut = try nudge("habit", "import-loop", zip, now: Self.now)
    #expect(cut.status == 65, "\(cut.stderr)")
    #expect(try nudge("export", now: Self.now).stdout == before)
  }

  @Test func theExportGoesOutAsLoopsCSVAndComesBackTheSame() throws {
    let a = InProcess()
    #expect(
      try a("habit", "add", "Stretch", "--every", "3/week", now: "2026-11-16T08:00:00+01:00").status
        == 0)
    #expect(
      try a(
        "habit", "add", "Read, slowly", "--target", "20", "--unit", "pages",
        now: "2026-11-16T08:00:00+01:00"
      ).status == 0)
    let marks: [[String]] = [
      ["habit", "done", "stretch", "--day", "2026-11-16", "--note", "after \"work\", tired"],
      ["habit", "skip", "stretch", "--day", "2026-11-17"],
      ["habit", "fail", "stretch", "--day", "2026-11-18", "--note", "sick"],
      ["habit", "done", "read", "--value", "25", "--day", "2026-11-19"],
      ["habit", "done", "read", "--value", "0", "--day", "2026-11-18"],
    ]
    for args in marks { #expect(try a.run(args, now: Self.now).status == 0, "\(args)") }
    let out = NSTemporaryDirectory() + "nudge-loopcsv-out-\(UUID().uuidString)"
    let written = try a("habit", "export", "--loop-csv", out, now: Self.now)
    #expect(written.status == 0, "\(written.stderr)")
    #expect(written.stdout.contains("Wrote 2 habits and 5 days"), "\(written.stdout)")
    let list = try String(contentsOfFile: out + "/Habits.csv", encoding: .utf8)
    #expect(
      list == "Position,Name,Question,Description,NumRepetitions,Interval,Color\n"
        + "001,Stretch,Stretch today?,,3,7,#757575\n"
        + "002,\"Read, slowly\",\"Read, slowly today?\",,1,1,#757575\n")
    let stretch = try String(contentsOfFile: out + "/001 Stretch/Checkmarks.csv", encoding: .utf8)
    #expect(
      stretch == "Date,Value,Notes\n2026-11-18,NO,sick\n2026-11-17,SKIP,\n"
        + "2026-11-16,YES_MANUAL,\"after \"\"work\"\", tired\"\n")
    let read = try String(contentsOfFile: out + "/002 Read slowly/Checkmarks.csv", encoding: .utf8)
    #expect(read == "Date,Value,Notes\n2026-11-19,25000,\n2026-11-18,NO,\n")
    let bull = try String(contentsOfFile: out + "/HabitBull.csv", encoding: .utf8)
    #expect(
      bull.hasPrefix("HabitName,HabitDescription,HabitCategory,CalendarDate,Value,CommentText\n"))
    #expect(bull.contains("Stretch,Stretch today?,,2026-11-18,0,sick\n"))
    #expect(!bull.contains("2026-11-17"), "a skip has no HabitBull row")
    let mode =
      try FileManager.default.attributesOfItem(atPath: out + "/Habits.csv")[.posixPermissions]
      as? Int
    #expect(mode == 0o600)
    // back in a fresh home: the same days, marks and notes
    let b = InProcess()
    let back = try b("habit", "import-loop", out, now: Self.now)
    #expect(back.status == 0, "\(back.stderr)")
    #expect(try Self.days(b) == Self.days(a))
    let habits = try #require(try b.json("habit", "list", now: Self.now) as? [[String: Any]])
    #expect(habits.map { $0["every"] as? String } == ["3/week", "daily"])
    // a folder with something in it is left alone
    let again = try a("habit", "export", "--loop-csv", out, now: Self.now)
    #expect(again.status == 73, "\(again.stderr)")
    #expect(again.stderr.contains("is not empty"), "\(again.stderr)")
  }
}
