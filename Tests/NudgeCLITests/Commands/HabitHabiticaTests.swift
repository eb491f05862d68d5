import Foundation
import NudgeCore
import Testing

@testable import NudgeCLI

/// Habitica's user data export in (`habit import-habitica FILE`), shaped as Habitica writes it
/// (website/server/models/task.js's fields; a daily's history entries as scoreTask.js pushes
/// them when checked and cron.js the next morning when missed; a habit's day of scoredUp and
/// scoredDown; `preferences.timezoneOffset` and `dayStart`), and each broken place refused in
/// one line naming it, nothing written.
@Suite struct HabitHabiticaTests {
  static let now = "2026-11-20T20:00:00+01:00"

  /// Berlin (60 minutes east of UTC: -60, as JavaScript's getTimezoneOffset says it), a day
  /// beginning at 04:00.
  static let export = """
    {
      "_id": "3a6b5f8e-0000-4000-8000-000000000001",
      "profile": {"name": "Sam"},
      "preferences": {"timezoneOffset": -60, "dayStart": 4, "dateFormat": "yyyy-MM-dd"},
      "tasks": {
        "dailys": [
          {"_id": "d1", "type": "daily", "text": "Stretch", "notes": "", "frequency": "daily",
           "everyX": 1, "repeat": {"m": true, "t": true, "w": true, "th": true, "f": true,
           "s": true, "su": true}, "streak": 2, "completed": false, "isDue": true,
           "startDate": "2026-10-01T00:00:00.000Z", "priority": 1, "value": 1.5,
           "history": [
             {"date": 1790841600000, "value": 0.5},
             {"date": 1794814200000, "value": 1, "isDue": true, "completed": true},
             {"date": 1794951000000, "value": 1.9, "isDue": true, "completed": true},
             {"date": 1795068000000, "value": 0.9, "isDue": true, "completed": false}
           ]},
          {"_id": "d2", "type": "daily", "text": "Gym", "frequency": "weekly", "everyX": 1,
           "repeat": {"m": true, "t": false, "w": true, "th": false, "f": true, "s": false,
           "su": false},
           "history": [{"date": 1794848400000, "value": 1, "isDue": true, "completed": true},
             {"date": 1795154400000, "value": 0.5, "isDue": true, "completed": false}]},
          {"_id": "d3", "type": "daily", "text": "Pay rent", "frequency": "monthly",
           "everyX": 1, "daysOfMonth": [1], "weeksOfMonth": [], "history": []},
          {"_id": "d4", "type": "daily", "text": "Read", "frequency": "daily", "everyX": 1,
           "history": [
             {"date": 1794886200000, "value": 1, "isDue": true, "completed": true},
             {"date": 1795138200000, "value": 1, "isDue": true, "completed": true}
           ]}
        ],
        "habits": [
          {"_id": "h1", "type": "habit", "text": "Drink water", "up": true, "down": false,
           "counterUp": 5, "counterDown": 0, "frequency": "daily",
           "history": [
             {"date": 1795089600000, "value": 3.1, "scoredUp": 5, "scoredDown": 0},
             {"date": 1795176000000, "value": 3.1, "scoredUp": 0, "scoredDown": 0}
           ]},
          {"_id": "h2", "type": "habit", "text": "Junk food", "up": false, "down": true,
           "history": [{"date": 1795003200000, "value": -2, "scoredUp": 0, "scoredDown": 2}]},
          {"_id": "h3", "type": "habit", "text": "Posture", "up": true, "down": true,
           "history": [{"date": 1795082400000, "value": 1, "scoredUp": 2, "scoredDown": 1}]},
          {"_id": "h4", "type": "habit", "text": "Neither", "up": false, "down": false,
           "history": []}
        ],
        "todos": [{"_id": "t1", "type": "todo", "text": "Taxes"}, {"_id": "t2", "text": "x"}],
        "rewards": [{"_id": "r1", "type": "reward", "text": "Ice cream", "value": 20}]
      }
    }
    """

  static func file(_ text: String = export) throws -> String {
    let path = NSTemporaryDirectory() + "habitica-user-data-\(UUID().uuidString).json"
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  /// Each habit's days from the export, as "DAY done|no|skip[=VALUE]".
  func days(_ nudge: InProcess) throws -> [String: [String]] {
    let text = try nudge("export", now: Self.now).stdout
    let export = try #require(
      try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    var found: [String: [String]] = [:]
    for habit in export["habits"] as? [[String: Any]] ?? [] {
      found[habit["name"] as? String ?? ""] = (habit["days"] as? [[String: Any]] ?? []).map {
        let mark =
          $0["failed"] as? Bool == true ? "no" : ($0["done"] as? Bool == true ? "done" : "skip")
        return "\($0["day"] as? String ?? "") \(mark)"
          + (($0["value"] as? Int).map { "=\($0)" } ?? "")
      }
    }
    return found
  }

  @Test func dailiesAndHabitsComeInWithTheirDays() throws {
    let nudge = InProcess()
    let path = try Self.file()
    let run = try nudge("habit", "import-habitica", path, now: Self.now)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("From Habitica: 7 habits (7 new, 0 here already)"), "\(run.stdout)")
    for said in [
      "1 history entry is from before Habitica kept what was done that day; left out",
      "'Posture' counts its plus clicks a day",
      "'Neither' has neither a plus nor a minus in Habitica; left out",
      "'Pay rent' is on set days of the month in Habitica; Nudge keeps it 1/month",
      "3 to-dos and rewards are no habits; left out",
    ] {
      #expect(run.stdout.contains(said), "\(said): \(run.stdout)")
    }
    let days = try days(nudge)
    // checked on the 16th and 17th (Berlin); the cron of the 19th said the 18th was missed
    #expect(days["Stretch"] == ["2026-11-16 done", "2026-11-17 done", "2026-11-18 no"])
    // checked at 04:30 on the 17th Berlin (03:30 UTC: the 16th's, were the offset's sign
    // read the other way), and at 02:30 on the 20th, before the day began at 04:00: the 19th's
    #expect(days["Read"] == ["2026-11-17 done", "2026-11-19 done"])
    // the cron of Friday the 20th would say Thursday was missed: Gym is not due on Thursdays
    #expect(days["Gym"] == ["2026-11-16 done"])
    #expect(run.stdout.contains("1 missed day falls on a day its daily is not due"))
    #expect(days["Drink water"] == ["2026-11-19 done=5"])
    #expect(days["Junk food"] == ["2026-11-18 no"])
    #expect(days["Posture"] == ["2026-11-19 done=2"])
    let list = try #require(try nudge.json("habit", "list", now: Self.now) as? [[String: Any]])
    let byName = Dictionary(uniqueKeysWithValues: list.map { ($0["name"] as? String ?? "", $0) })
    #expect(byName["Gym"]?["every"] as? String == "Mon,Wed,Fri")
    #expect(byName["Pay rent"]?["every"] as? String == "1/month")
    #expect(byName["Stretch"]?["every"] as? String == "daily")
    #expect(byName["Drink water"]?["target"] as? Int == 1)
    #expect(byName["Drink water"]?["unit"] as? String == "times")
    #expect(byName["Junk food"]?["quit"] as? Bool == true)
    #expect(byName["Junk food"]?["question"] as? String == "Clear of Junk food today?")
    // the same file again changes nothing
    let again = try nudge("habit", "import-habitica", path, now: Self.now)
    #expect(again.stdout.contains("(0 new, 7 here already)"), "\(again.stdout)")
    #expect(try self.days(nudge) == days)
  }

  @Test func aHugeEveryXIsKeptWithinWhatNudgeKeeps() throws {
    let nudge = InProcess()
    let text = Self.export.replacingOccurrences(
      of: "\"frequency\": \"daily\",\n       \"everyX\": 1,",
      with: "\"frequency\": \"daily\",\n       \"everyX\": 1e300,")
    #expect(text != Self.export)
    let run = try nudge("habit", "import-habitica", try Self.file(text), now: Self.now)
    #expect(run.status == 0, "\(run.stderr)")
    let list = try #require(try nudge.json("habit", "list", now: Self.now) as? [[String: Any]])
    #expect(
      list.first { $0["name"] as? String == "Stretch" }?["every"] as? String == "every 365 days")
  }

  @Test func aBrokenExportIsRefusedInOneLineAndNothingIsWritten() throws {
    let nudge = InProcess()
    try #require(try nudge("habit", "add", "Floss", now: Self.now).status == 0)
    let before = try nudge("export", now: Self.now).stdout
    let cases: [(String, String, Int32)] = [
      ("not json at all", "is not JSON", 65),
      ("{\"profile\": {}}", "has no tasks", 65),
      (
        Self.export.replacingOccurrences(of: "1794848400000", with: "\"last tuesday\""),
        "tasks.dailys[1].history[0].date: not a time", 65
      ),
      (
        Self.export.replacingOccurrences(of: "\"text\": \"Gym\"", with: "\"text\": \"  \""),
        "tasks.dailys[1] has no text", 65
      ),
      (
        Self.export.replacingOccurrences(of: "1794848400000", with: "-2208873600000"),
        "tasks.dailys[1]: a history entry is on 1900-01-02, before 2000", 65
      ),
      (
        Self.export.replacingOccurrences(of: "\"text\": \"Gym\"", with: "\"text\": \"list\""),
        "Habitica's habit 'list' can't be a Nudge habit's name", 65
      ),
      (
        Self.export.replacingOccurrences(
          of: "\"timezoneOffset\": -60", with: "\"timezoneOffset\": 99999"),
        "time zone offset or day start is out of range", 65
      ),
      (
        Self.export.replacingOccurrences(of: "\"scoredUp\": 5", with: "\"scoredUp\": \"five\""),
        "tasks.habits[0].history[0].scoredUp is not what Habitica writes there", 65
      ),
    ]
    for (text, said, code) in cases {
      let run = try nudge("habit", "import-habitica", try Self.file(text), now: Self.now)
      #expect(run.status == code, "\(said): \(run.stderr)")
      #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
      #expect(run.stderr.contains(said), "\(said): \(run.stderr)")
      // (a name refused says what to do instead: rename it in Habitica)
      #expect(
        run.stderr.contains("nothing was imported") || run.stderr.contains("export again"),
        "\(run.stderr)")
    }
    let missing = try nudge(
      "habit", "import-habitica", "/nonexistent/user-data.json", now: Self.now)
    #expect(missing.status == 66 && missing.stderr.contains("cannot read"), "\(missing.stderr)")
    #expect(try nudge("export", now: Self.now).stdout == before)
  }
}
