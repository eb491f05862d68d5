import Foundation
import NudgeCore
import Testing

/// The schedule, the firing rules and the units, through the real binary.
@Suite struct ScheduleCommandTests {
  func log(_ nudge: Nudge) throws -> [[String: Any]] {
    try #require(try nudge.json("log", "--limit", "500") as? [[String: Any]])
  }

  @Test func twentyRacingFiringsGiveOneReminderAndNineteenDuplicates() throws {
    let nudge = Nudge()
    try nudge("schedule")  // create the database first, as an installed system has one
    var processes: [Process] = []
    for _ in 0..<20 {
      let p = Process()
      p.executableURL = URL(fileURLWithPath: Nudge.binary)
      p.arguments = ["notify", "morning", "--scheduled"]
      var env = nudge.environment
      env["NUDGE_NOW"] = "2026-11-24T07:00:10+01:00"
      p.environment = env
      p.standardOutput = FileHandle.nullDevice
      p.standardError = FileHandle.nullDevice
      processes.append(p)
    }
    for p in processes { try p.run() }
    for p in processes { p.waitUntilExit() }
    let outcomes = try log(nudge).map { $0["outcome"] as? String ?? "" }
    #expect(outcomes.filter { $0 == "undelivered" || $0 == "shown" }.count == 1)
    #expect(outcomes.filter { $0 == "duplicate" }.count == 19)
    #expect(
      Set(try log(nudge).compactMap { $0["elapse"] as? String }) == ["2026-11-24T07:00:00+01:00"])
  }

  @Test func lateWakeInsideTheWindowFiresOnceOutsideIsStaleDoneIsSkipped() throws {
    let nudge = Nudge()
    // a laptop waking at 10:30 still gets the 07:00 reminder, once
    let late = try nudge(
      "notify", "morning", "--scheduled", "--json", now: "2026-11-24T10:30:00+01:00")
    #expect(late.stdout.contains("\"outcome\" : \"undelivered\""))
    let again = try nudge(
      "notify", "morning", "--scheduled", "--json", now: "2026-11-24T10:31:00+01:00")
    #expect(again.stdout.contains("\"outcome\" : \"duplicate\""))
    // waking at 13:00 the next day: 07:00 + 4h has passed
    let stale = try nudge(
      "notify", "morning", "--scheduled", "--json", now: "2026-11-25T13:00:00+01:00")
    #expect(stale.stdout.contains("\"outcome\" : \"skipped-stale\""))
    #expect(stale.status == 0)
    // the morning flow already done: the reminder is not needed
    try nudge(
      "review", "--swap", "tea", "--commit-to", "tea", "--no-input",
      now: "2026-11-26T06:30:00+01:00")
    let done = try nudge(
      "notify", "morning", "--scheduled", "--json", now: "2026-11-26T07:00:05+01:00")
    #expect(done.stdout.contains("\"outcome\" : \"skipped-done\""))
    // a shorter staleness window from config
    try nudge("config", "set", "staleness.evening", "30m")
    let short = try nudge(
      "notify", "evening", "--scheduled", "--json", now: "2026-11-26T22:01:00+01:00")
    #expect(short.stdout.contains("\"outcome\" : \"skipped-stale\""))
    let outcomes = try log(nudge).map { $0["outcome"] as? String ?? "" }
    #expect(
      outcomes == ["undelivered", "duplicate", "skipped-stale", "skipped-done", "skipped-stale"])
  }

  @Test func scheduleSetValidatesBeforeWriting() throws {
    let nudge = Nudge()
    #expect(try nudge("schedule", "set", "midday", "12:15").status == 0)
    let bad = try nudge("schedule", "set", "morning", "Mon..Fry 07:00")
    // a time given to set is a value on the command line: a bad one is a usage error
    #expect(bad.status == 64)
    #expect(bad.stderr.contains("'Fry 07:00' is not a weekday"))
    #expect(try nudge("schedule", "set", "morning", "25:00").status == 64)
    #expect(try nudge("schedule", "set", "noon", "12:00").status == 64)
    try nudge("schedule", "on", "midday")
    let schedule = try #require(
      try nudge.json("schedule", now: "2026-11-21T05:00:00+01:00") as? [[String: Any]])
    let rows = Dictionary(uniqueKeysWithValues: schedule.map { ($0["slot"] as! String, $0) })
    #expect(rows["morning"]?["expression"] as? String == "*-*-* 07:00:00")
    #expect(rows["midday"]?["expression"] as? String == "*-*-* 12:15:00")
    #expect(rows["midday"]?["enabled"] as? Bool == true)
    #expect(rows["midday"]?["next"] as? String == "2026-11-21T12:15:00+01:00")
    #expect(rows["evening"]?["next"] as? String == "2026-11-21T21:30:00+01:00")
  }

  /// `notify SLOT --scheduled --json` at `now`: its outcome and elapse.
  func fire(_ nudge: Nudge, _ slot: String, at now: String) throws -> String {
    let result = try nudge("notify", slot, "--scheduled", "--json", now: now)
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    return "\(report["outcome"] as? String ?? "?") \(report["elapse"] as? String ?? "-")"
  }

  @Test(arguments: [
    // New York falls back at 02:00 EDT on 2026-11-01: 01:30 comes twice and fires once (a run
    // in the second 01:30, which systemd would not even start, finds that elapse claimed)
    (
      "America/New_York", "01:30",
      [
        "2026-11-01T01:30:00-04:00", "2026-11-01T01:30:05-05:00", "2026-11-01T02:10:00-05:00",
        "2026-11-02T01:30:05-05:00",
      ],
      [
        "undelivered 2026-11-01T01:30:00-04:00", "duplicate 2026-11-01T01:30:00-04:00",
        "nothing-due -", "undelivered 2026-11-02T01:30:00-05:00",
      ]
    ),
    // Berlin falls back at 03:00 CEST on 2026-10-25: 02:30 comes twice and fires once
    (
      "Europe/Berlin", "02:30",
      ["2026-10-25T02:30:00+02:00", "2026-10-25T03:00:30+01:00", "2026-10-26T02:30:01+01:00"],
      [
        "undelivered 2026-10-25T02:30:00+02:00", "nothing-due -",
        "undelivered 2026-10-26T02:30:00+01:00",
      ]
    ),
  ])
  func aSlotInTheRepeatedHourOfAFallBackNightFiresOnce(
    zone: String, time: String, firings: [String], expected: [String]
  ) throws {
    var nudge = Nudge()
    nudge.environment["TZ"] = zone
    try nudge("schedule", "set", "morning", time, "--yes")
    #expect(try firings.map { try fire(nudge, "morning", at: $0) } == expected)
  }

  @Test func aPosixTZStringServesDaysFiringAndTheLogAlike() throws {
    var nudge = Nudge()
    nudge.environment["TZ"] = "CET-1CEST,M3.5.0,M10.5.0/3"
    try nudge(
      "review", "--swap", "tea", "--commit-to", "tea", "--no-input",
      now: "2026-06-10T05:30:00+02:00")
    let history = try #require(
      try nudge.json("history", "--days", "1", now: "2026-06-10T08:00:00+02:00")
        as? [[String: Any]])
    #expect(history.first?["date"] as? String == "2026-06-10")
    #expect(history.first?["review"] is [String: Any])
    #expect(
      try fire(nudge, "morning", at: "2026-06-10T07:00:05+02:00")
        == "skipped-done 2026-06-10T07:00:00+02:00")
    let log = try #require(try nudge.json("log") as? [[String: Any]])
    #expect(log.last?["at"] as? String == "2026-06-10T07:00:05+02:00")
  }

  @Test func theTableShowsLongExpressionsWholeAndSaysWhenNothingComes() throws {
    let nudge = Nudge()
    let long = "Mon..Fri *-*-* 07,12,18:00:00 Europe/Berlin"
    try nudge("schedule", "set", "midday", long, "--yes")
    try nudge("schedule", "set", "evening", "2025-01-01 12:00")
    let table = try nudge("schedule")
    #expect(table.stdout.contains(long))
    #expect(table.stdout.contains("never again"))
    let none = try nudge("schedule", "preview", "2025-01-01")
    #expect(none.status == 0 && none.stdout.isEmpty)
    #expect(none.stderr.contains("has no elapse after"))
  }

  @Test func plainWordsInAPreviewAreRefusedNamingTheExpressionTheyStandFor() throws {
    // the preview reads systemd's expressions, as systemd-analyze does; `set` reads words
    let nudge = Nudge()
    let words = try nudge("schedule", "preview", "fri-mon 9pm")
    #expect(words.status == 65 && words.stdout.isEmpty)
    #expect(words.stderr.contains("nudge schedule preview 'Fri..Sun,Mon *-*-* 21:00:00'"))
    let shown = try nudge("schedule", "preview", "Fri..Sun,Mon *-*-* 21:00:00", "--count", "1")
    #expect(shown.status == 0 && shown.stdout.contains("T21:00:00"))
    // what is neither keeps systemd's own reason
    #expect(try nudge("schedule", "preview", "bogus").stderr.contains("systemd accepts"))
  }

  @Test func theEveningReminderOffersTheCheckInOnceThePrepIsDone() throws {
    let nudge = Nudge()
    try nudge("prep", "--item", "water=yes", "--no-input", now: "2026-11-24T20:00:00+01:00")
    #expect(
      try fire(nudge, "evening", at: "2026-11-24T21:30:05+01:00")
        == "undelivered 2026-11-24T21:30:00+01:00")
    let printed = try nudge("notify", "evening", now: "2026-11-24T21:31:00+01:00")
    #expect(printed.stdout.contains("Run: nudge checkin"), "\(printed.stdout)")
    try nudge("checkin", "--feel", "fine", "--no-input", now: "2026-11-25T20:00:00+01:00")
    try nudge("prep", "--item", "water=yes", "--no-input", now: "2026-11-25T20:00:00+01:00")
    #expect(
      try fire(nudge, "evening", at: "2026-11-25T21:30:05+01:00")
        == "skipped-done 2026-11-25T21:30:00+01:00")
  }

  /// Plain words, the systemd form they are saved as, and systemd's own reading of that form.
  @Test(arguments: [
    ("9pm", "*-*-* 21:00:00"), ("7:30 am", "*-*-* 07:30:00"),
    ("weekdays 9:30pm", "Mon..Fri *-*-* 21:30:00"), ("weekends 9pm", "Sat,Sun *-*-* 21:00:00"),
    ("Mon,Wed,Fri 18:00", "Mon,Wed,Fri *-*-* 18:00:00"), ("noon", "*-*-* 12:00:00"),
    ("mondays and thursdays 6:15 pm", "Mon,Thu *-*-* 18:15:00"),
    ("mon-fri 22:00", "Mon..Fri *-*-* 22:00:00"), ("sat 20:00", "Sat *-*-* 20:00:00"),
  ])
  func plainTimesAreTheSystemdFormSystemdReads(text: String, expression: String) throws {
    let nudge = Nudge()
    let set = try nudge("schedule", "set", "evening", text, "--yes")
    #expect(set.status == 0, "\(set.stderr)")
    let rows = try #require(try nudge.json("schedule") as? [[String: Any]])
    #expect(
      rows.first { $0["slot"] as? String == "evening" }?["expression"] as? String == expression)
    // systemd reads the saved form as itself, and its elapses are Nudge's
    let base = 1_795_000_000
    let analyze = Process()
    analyze.executableURL = URL(fileURLWithPath: "/usr/bin/systemd-analyze")
    analyze.arguments = ["calendar", "--base-time=@\(base)", "--iterations=3", expression]
    analyze.environment = ["TZ": "Europe/Berlin", "LC_ALL": "C", "PATH": "/usr/bin:/bin"]
    let out = Pipe()
    analyze.standardOutput = out
    try analyze.run()
    analyze.waitUntilExit()
    let said = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(said.contains("Normalized form: \(expression)\n"), "\(said)")
    // "    Next elapse: Wed 2026-11-18 21:30:00 CET", "       Iter. #2: Thu …": local times
    let systemd = said.split(separator: "\n")
      .filter { $0.contains("Next elapse:") || $0.contains("Iter. #") }
      .map { $0.split(separator: " ").dropFirst(3).prefix(2).joined(separator: " ") }
    let preview = try nudge(
      "schedule", "preview", "--from", "@\(base)", "--count", "3", "--tz", "Europe/Berlin",
      expression)
    let mine = preview.stdout.split(separator: "\n").map {
      String($0.prefix(10)) + " " + String($0.dropFirst(11).prefix(8))
    }
    #expect(systemd.count == 3 && systemd == mine, "\(systemd) \(mine)")
  }

  @Test func theWeeklyLookBackIsOffUntilTurnedOnAndKeepsItsDay() throws {
    let nudge = Nudge()
    // 2026-11-22 is a Sunday: off by default, its timer firing is logged skipped-off
    #expect(
      try fire(nudge, "weekly", at: "2026-11-22T18:00:05+01:00")
        == "skipped-off 2026-11-22T18:00:00+01:00")
    // a bare time keeps Sunday; a day word moves it
    let moved = try nudge("schedule", "set", "weekly", "7pm", now: "2026-11-23T09:00:00+01:00")
    #expect(moved.stdout.contains("weekly: Sun at 19:00 — Sun *-*-* 19:00:00"), "\(moved.stdout)")
    try nudge("schedule", "on", "weekly")
    // every flow done that day: the look back is still worth reading
    for flow in [["prep", "--item", "water=yes"], ["checkin", "--feel", "fine"]] {
      let saved = try nudge.run(flow + ["--no-input"], now: "2026-11-29T18:00:00+01:00")
      try #require(saved.status == 0, "\(saved.stderr)")
    }
    #expect(
      try fire(nudge, "weekly", at: "2026-11-29T19:00:05+01:00")
        == "undelivered 2026-11-29T19:00:00+01:00")
    let printed = try nudge("notify", "weekly", now: "2026-11-29T19:01:00+01:00")
    #expect(printed.stdout.contains("Nudge · Your week:"), "\(printed.stdout)")
    #expect(printed.stdout.contains("Run: nudge week"), "\(printed.stdout)")
    // "daily 7pm" is every day, as written
    let daily = try nudge(
      "schedule", "set", "weekly", "daily 7pm", now: "2026-11-30T09:00:00+01:00")
    #expect(daily.stdout.contains("weekly: every day at 19:00"), "\(daily.stdout)")
    let other = try nudge(
      "schedule", "set", "weekly", "Sat 10:00", now: "2026-11-30T09:00:00+01:00")
    #expect(other.stdout.contains("next Sat 5 Dec 10:00"), "\(other.stdout)")
  }

  @Test func aSlotMovedEarlierAfterFiringWaitsForTomorrow() throws {
    let nudge = Nudge()
    #expect(
      try fire(nudge, "morning", at: "2026-11-24T07:00:00+01:00")
        == "undelivered 2026-11-24T07:00:00+01:00")
    try nudge("schedule", "set", "morning", "06:00", now: "2026-11-24T07:05:00+01:00")
    #expect(try fire(nudge, "morning", at: "2026-11-24T07:10:00+01:00") == "nothing-due -")
    #expect(
      try fire(nudge, "morning", at: "2026-11-25T06:00:01+01:00")
        == "undelivered 2026-11-25T06:00:00+01:00")
  }

  @Test func anInstallFromBeforeTheWeeklySlotGetsItsTimerWhenItIsTurnedOn() throws {
    var nudge = Nudge()
    let config = nudge.home + "/config"
    nudge.environment["XDG_CONFIG_HOME"] = config
    #expect(try nudge("install").status == 69)  // written; no systemd user instance here
    let timer = config + "/systemd/user/" + UnitFiles.timerName(.weekly)
    try FileManager.default.removeItem(atPath: timer)
    let on = try nudge("schedule", "on", "weekly")
    #expect(on.status == 0, "\(on.stderr)")
    let text = try String(contentsOfFile: timer, encoding: .utf8)
    #expect(text.contains("OnCalendar=Sun *-*-* 18:00:00"), "\(text)")
  }

  @Test func installedUnitsPassSystemdAnalyzeVerify() throws {
    var nudge = Nudge()
    let config = nudge.home + "/config"
    nudge.environment["XDG_CONFIG_HOME"] = config
    try nudge("schedule", "set", "morning", "Mon..Fri 07:00")
    let dry = try nudge("install", "--dry-run")
    #expect(dry.status == 0)
    for needle in [
      "nudge-notify@.service", "nudge-morning.timer", "OnCalendar=Mon..Fri *-*-* 07:00:00",
      "# run systemctl --user daemon-reload",
      "# run systemctl --user enable --now nudge-morning.timer nudge-evening.timer",
      "# run systemctl --user disable --now nudge-midday.timer nudge-weekly.timer",
    ] {
      #expect(dry.stdout.contains(needle), "\(needle)")
    }
    #expect(!FileManager.default.fileExists(atPath: config + "/systemd"))
    let installed = try nudge("install")
    #expect(installed.status == 69)  // no systemd user instance on this machine
    #expect(installed.stderr.contains("nudge daemon"))
    let dir = config + "/systemd/user"
    let files = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
    #expect(files.contains("nudge-notify@.service") && files.contains("nudge-evening.timer"))
    let (status, complaints) = try systemdVerify(
      (["nudge-notify@.service"] + ReminderSource.allCases.map(UnitFiles.timerName)).map {
        dir + "/" + $0
      }
        // each slot's instance, with its window drop-in, found through the unit search path
        + ReminderSource.allCases.map { "nudge-notify@\($0.rawValue).service" },
      home: nudge.home, config: config)
    #expect(status == 0, "\(complaints)")
    #expect(complaints.isEmpty, "\(complaints)")
    let window = try String(
      contentsOfFile: dir + "/nudge-notify@morning.service.d/window.conf", encoding: .utf8)
    #expect(window.contains("RuntimeMaxSec=\(4 * 3600 + 180)s"))
    try nudge("config", "set", "staleness.morning", "2h")
    let shorter = try String(
      contentsOfFile: dir + "/nudge-notify@morning.service.d/window.conf", encoding: .utf8)
    #expect(shorter.contains("RuntimeMaxSec=\(2 * 3600 + 180)s"))
    let dropIn = try String(
      contentsOfFile: dir + "/nudge-morning.timer.d/schedule.conf", encoding: .utf8)
    #expect(dropIn.contains("OnCalendar=\nOnCalendar=Mon..Fri *-*-* 07:00:00"))
    // back to the default time: the drop-in goes
    try nudge("schedule", "set", "morning", "07:00")
    #expect(!FileManager.default.fileExists(atPath: dir + "/nudge-morning.timer.d/schedule.conf"))
    #expect(try nudge("uninstall").status == 0)
    #expect(!FileManager.default.fileExists(atPath: dir + "/nudge-notify@.service"))
    #expect(!FileManager.default.fileExists(atPath: dir + "/nudge-notify@morning.service.d"))
  }

  /// The daemon (real clock: the firings it starts never take NUDGE_NOW) reminds once for
  /// the next minute's elapse of a slot set to it — a reminder fires at most once a minute,
  /// so this waits for the next minute to start (at least 5 seconds ahead).
  @Test func daemonRemindsOnceForTheNextMinutesElapse() throws {
    let nudge = Nudge()
    var env = nudge.environment
    env["TZ"] = "UTC"
    let started = Int(Date().timeIntervalSince1970)
    var elapse = (started / 60 + 1) * 60
    if elapse - started < 5 { elapse += 60 }
    let clock = String(format: "%02d:%02d", elapse / 3600 % 24, elapse / 60 % 60)
    for args in [
      ["schedule", "set", "midday", "*-*-* \(clock):00", "--yes"], ["schedule", "on", "midday"],
      ["schedule", "off", "morning"], ["schedule", "off", "evening"],
    ] {
      #expect(try nudge.run(args, env: ["NUDGE_NOW": "", "TZ": "UTC"]).status == 0)
    }
    let daemon = Process()
    daemon.executableURL = URL(fileURLWithPath: Nudge.binary)
    // 30 s past the elapse for the firing to be logged on a busy machine
    daemon.arguments = ["daemon", "--exit-after", String(elapse - started + 30)]
    env["NUDGE_NOW"] = ""
    daemon.environment = env
    daemon.standardOutput = FileHandle.nullDevice
    daemon.standardError = FileHandle.nullDevice
    try daemon.run()
    daemon.waitUntilExit()
    #expect(daemon.terminationStatus == 0)
    let fired = try nudge.run(["log", "--json"], env: ["NUDGE_NOW": "", "TZ": "UTC"])
    let entries = try #require(
      try JSONSerialization.jsonObject(with: Data(fired.stdout.utf8)) as? [[String: Any]])
    let shown = entries.filter {
      $0["slot"] as? String == "midday" && $0["outcome"] as? String == "undelivered"
    }
    // the elapse reminds once, never before it is due (how soon after is a figure for
    // scripts/bench, not a timed assertion that a busy machine would fail)
    #expect(shown.count == 1, "\(entries)")
    for entry in shown {
      let at = try #require(InstantParse.seconds(entry["at"] as? String))
      #expect(InstantParse.seconds(entry["elapse"] as? String) == elapse, "\(entry)")
      #expect(at >= elapse, "\(entry)")
    }
  }
}

enum InstantParse {
  static func seconds(_ text: String?) -> Int? {
    guard let text else { return nil }
    let f = ISO8601DateFormatter()
    return f.date(from: text).map { Int($0.timeIntervalSince1970) }
  }
}
