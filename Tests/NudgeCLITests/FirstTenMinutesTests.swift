import Foundation
import NudgeCore
import Testing

@testable import NudgeCLI

/// A newcomer's first ten minutes (issue 33): the mistakes they make are understood or
/// answered with the word they meant, and what Nudge says agrees with what is true.
@Suite struct FirstTenMinutesTests {
  // Friday 20 November 2026, 08:00 in Berlin
  let morning = "2026-11-20T08:00:00+01:00"

  @Test func editTakesTheDayBeforeOrAfterTheFlow() throws {
    let nudge = InProcess()
    try #require(
      try nudge.run(["review", "--commit-to", "walk", "--day", "yesterday", "--no-input"]).status
        == 0)
    let after = try nudge.run(["edit", "review", "yesterday", "--commit-to", "swim", "--no-input"])
    #expect(after.status == 0, "\(after.stderr)")
    #expect(after.stdout.contains("Thursday 19 November I will swim"))
    let before = try nudge.run(["edit", "yesterday", "review", "--commit-to", "run", "--no-input"])
    #expect(before.status == 0, "\(before.stderr)")
    #expect(before.stdout.contains("Thursday 19 November I will run"))
    // a weekday names the latest one: Thursday is yesterday
    let weekday = try nudge.run(["show", "thursday", "--json"])
    #expect(weekday.stdout.contains("\"commit_to\" : \"run\""))
    let deleted = try nudge.run(["delete", "review", "thu", "--yes"])
    #expect(deleted.status == 0, "\(deleted.stderr)")
    let misspelt = try nudge.run(["edit", "yesterday", "reveiw"])
    #expect(misspelt.status == 64)
    #expect(misspelt.stderr.contains("Did you mean 'review'?"))
  }

  @Test func aBareHourAndAnAfternoonHourAreTimesAndABadOneIs64() throws {
    let nudge = InProcess()
    let seven = try nudge.run(["schedule", "set", "morning", "7"])
    #expect(seven.status == 0, "\(seven.stderr)")
    #expect(seven.stdout.contains("morning: every day at 07:00"))
    let evening = try nudge.run(["schedule", "set", "evening", "7pm"])
    #expect(evening.stdout.contains("evening: every day at 19:00"))
    for bad in ["25:00", "7:75", "Mon..Fry 7:00"] {
      let refused = try nudge.run(["schedule", "set", "morning", bad])
      #expect(refused.status == 64, "\(bad): \(refused.stderr)")
      #expect(refused.stderr.split(separator: "\n").count == 1)
    }
  }

  @Test func daysAreTodayTomorrowAndWeekdaysWhereverADayIsAsked() throws {
    let nudge = InProcess()
    let pause = try nudge.run(["pause", "--until", "tomorrow"])
    #expect(pause.status == 0, "\(pause.stderr)")
    #expect(pause.stdout.contains("Paused until Saturday 21 November"))
    let tuesday = try nudge.run(["pause", "--until", "tuesday"])
    #expect(tuesday.stdout.contains("Paused until Tuesday 24 November"))
    let prep = try nudge.run(["prep", "--item", "water=yes", "--day", "wednesday", "--no-input"])
    #expect(prep.status == 0, "\(prep.stderr)")
    #expect(prep.stdout.contains("Wednesday 18 November"))
    let ahead = try nudge.run(["prep", "--item", "water=yes", "--day", "tomorrow", "--no-input"])
    #expect(ahead.status == 64)
    let typo = try nudge.run(["pause", "--until", "tomorow"])
    #expect(typo.status == 64)
    #expect(typo.stderr.contains("Did you mean 'tomorrow'?"))
  }

  @Test(arguments: [
    (["stats"], "Did you mean 'streak'?"),
    (["achievments"], "Did you mean 'achievements'?"),
    (["version"], "Did you mean '--version'?"),
    (["schedule", "sett", "morning", "9pm"], "Did you mean 'set'?"),
    (["schedule", "set", "mornin", "9pm"], "Did you mean 'morning'?"),
    (["config", "set", "terminl", "xterm"], "Did you mean 'terminal'?"),
    (["need-help", "--category", "stres", "--no-input"], "Did you mean 'stress'?"),
    (["prep", "--item", "watr=yes", "--no-input"], "Did you mean 'water=yes'?"),
    (["prep", "--dya", "yesterday"], "Did you mean '--day'?"),
    (["show", "yesterdy"], "Did you mean 'yesterday'?"),
    (["delete", "yesterday", "prepp"], "Did you mean 'prep'?"),
  ])
  func everyUnknownWordGetsTheWordItProbablyMeant(arguments: [String], hint: String) throws {
    let result = try InProcess().run(arguments)
    #expect(result.status == 64)
    #expect(result.stderr.contains(hint), "\(result.stderr)")
    #expect(result.stderr.split(separator: "\n").count == 1)
  }

  @Test func theScheduleAndTheTodayViewSayWhenNothingWillFire() throws {
    var nudge = InProcess()
    let fresh = try nudge.run(["schedule"])
    #expect(fresh.stdout.hasPrefix("Reminders are not installed: nudge install\n"))
    try #require(try nudge.run(["prep", "--item", "water=yes", "--no-input"]).status == 0)
    #expect(try nudge.run([]).stdout.contains("Reminders are not installed: nudge install"))
    // written without a user manager: not enabled, not "installed", and said so
    nudge.platform = TestPlatform(refusesPrograms: true)
    let written = try nudge.run(["install"])
    #expect(written.status == 69)
    #expect(written.stdout.contains("Wrote the reminder units"))
    #expect(!written.stdout.contains("Enabled") && !written.stdout.contains("Installed"))
    #expect(written.stderr.contains("no timer was enabled or started"))
    #expect(try nudge.run(["schedule"]).stdout.contains("Reminders will not fire here"))
    // a running daemon fires them
    nudge.platform = TestPlatform(refusesPrograms: true, daemon: true)
    #expect(!(try nudge.run(["schedule"]).stdout.contains("Reminders")))
    // a user manager whose timers are active fires them
    let manager = TestPlatform(userManager: true)
    nudge.platform = manager
    let installed = try nudge.run(["install"])
    #expect(installed.status == 0, "\(installed.stderr)")
    #expect(installed.stdout.contains("Installed and started the reminder timers"))
    let running = try nudge.run(["schedule"])
    #expect(!running.stdout.contains("Reminders"), "\(running.stdout)")
    #expect(
      manager.started.contains([
        "systemctl", "--user", "is-active", "--quiet", "nudge-morning.timer", "nudge-evening.timer",
      ]))
    #expect(!(try nudge.run([]).stdout.contains("Reminders")))
    // a timer someone disabled: named, with the fix
    nudge.platform = TestPlatform(userManager: true, inactiveUnits: ["nudge-evening.timer"])
    #expect(
      try nudge.run(["schedule"]).stdout.contains(
        "Reminders are not running (evening timer off): nudge install"))
  }

  @Test func aPauseHoldsTheRemindersAndTheNextOneIsAfterIt() throws {
    let nudge = InProcess()
    try #require(try nudge.run(["pause", "--until", "sunday"]).status == 0)
    let shown = try nudge.run(["schedule"])
    #expect(shown.stdout.contains("Paused until Sun 22 Nov: no reminder fires until then"))
    #expect(shown.stdout.contains("next Mon 23 Nov 07:00"), "\(shown.stdout)")
    let rows = try #require(try nudge.json("schedule") as? [[String: Any]])
    #expect(
      rows.first { $0["slot"] as? String == "evening" }?["next"] as? String
        == "2026-11-23T21:30:00+01:00")
  }

  @Test func aTerminalThatIsNotInstalledIsRefusedAndDoctorFailsIt() throws {
    var nudge = InProcess()
    nudge.platform = TestPlatform(terminals: [["xterm", "-e"], ["konsole", "-e"]])
    let refused = try nudge.run(["config", "set", "terminal", "gnome-terminal"])
    #expect(refused.status == 64)
    #expect(refused.stderr.contains("'gnome-terminal' is not installed here"))
    #expect(refused.stderr.contains("terminals found here: 'xterm -e', 'konsole -e'"))
    #expect(try nudge.run(["config", "get", "terminal"]).stdout == "\n")
    #expect(try nudge.run(["config", "set", "terminal", "xterm -e"]).status == 0)
    // set while it was installed, gone since: doctor fails it with what is there
    nudge.platform = TestPlatform(terminals: [["konsole", "-e"]])
    nudge.notifier = ScriptedNotifier()
    let doctor = try nudge.run(["doctor", "--json"])
    #expect(doctor.status == 1)
    let checks = try #require(
      try JSONSerialization.jsonObject(with: Data(doctor.stdout.utf8)) as? [[String: Any]])
    let terminal = try #require(checks.first { $0["name"] as? String == "terminal" })
    #expect(terminal["ok"] as? Bool == false)
    #expect((terminal["detail"] as? String)?.contains("xterm, which is not installed") == true)
    #expect((terminal["fix"] as? String)?.contains("'konsole -e'") == true)
  }

  @Test func aReplayAnnouncesNoAchievementThatUndoTookBack() throws {
    let nudge = InProcess()
    try #require(
      try nudge.run(["need-help", "--category", "stress", "--no-input", "--no-animation"]).status
        == 0)
    #expect(
      try nudge.run(["celebrate", "--no-animation"]).stdout.contains(
        "New achievement: Asked for help"))
    try #require(try nudge.run(["undo"]).status == 0)
    let replay = try nudge.run(["celebrate", "--no-animation"])
    #expect(replay.status == 0)
    #expect(!replay.stdout.contains("Asked for help"), "\(replay.stdout)")
  }

  @Test func theDemoNeverOffersAFlowThatIsDoneToday() throws {
    var nudge = InProcess()
    nudge.notifier = ScriptedNotifier([], unavailable: "no notification server")
    try #require(try nudge.run(["review", "--commit-to", "walk", "--no-input"]).status == 0)
    let demo = try nudge.run(["notify", "demo"])
    #expect(demo.status == 69)
    #expect(!demo.stdout.contains("Review your prep"), "\(demo.stdout)")
    #expect(demo.stdout.contains("Run: nudge need-help"), "\(demo.stdout)")
    // everything done in the evening: the week's look back, never a done flow
    for flow in [
      ["prep", "--item", "water=yes"], ["checkin", "--followed", "yes"],
      ["need-help", "--category", "habit"],
    ] {
      try #require(
        try nudge.run(flow + ["--no-input"], now: "2026-11-20T20:00:00+01:00").status == 0)
    }
    let evening = try nudge.run(["notify", "demo"], now: "2026-11-20T20:05:00+01:00")
    #expect(evening.stdout.contains("Run: nudge week"), "\(evening.stdout)")
  }

  @Test func theWeekSaysWhatThePrepRecordsAndNamesEveryItemOfATie() throws {
    let nudge = InProcess()
    for day in 16...18 {
      try #require(
        try nudge.run(
          ["prep", "--item", "water=yes", "--item", "produce=yes", "--no-input"],
          now: "2026-11-\(day)T21:00:00+01:00"
        ).status == 0)
    }
    let week = try nudge.run(["week"], now: "2026-11-22T20:00:00+01:00")
    let words = week.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    #expect(
      words.contains("Prep: sticky notes and breakfast were not marked ready on 3 of 3 evenings."),
      "\(week.stdout)")
    #expect(!words.contains("most often"))
  }

  @Test func thePrepSaysBackItsOtherLine() throws {
    let nudge = InProcess()
    let prep = try nudge.run(
      ["prep", "--item", "water=yes", "--other", "oats soaking", "--no-input"],
      now: "2026-11-19T21:00:00+01:00")
    #expect(prep.stdout.contains("Also: oats soaking"), "\(prep.stdout)")
    #expect(try nudge.run([]).stdout.contains("also: oats soaking"))
  }

  @Test func theLogIsInTimeOrder() throws {
    var nudge = InProcess()
    nudge.notifier = ScriptedNotifier([], unavailable: "no notification server")
    // the later one logged first (a clock set back, a catch-up)
    _ = try nudge.run(["notify", "evening"], now: "2026-11-20T21:30:00+01:00")
    _ = try nudge.run(["notify", "morning"], now: "2026-11-20T07:00:00+01:00")
    let lines = try nudge.run(["log"]).stdout.split(separator: "\n")
    #expect(lines.count == 2)
    #expect(lines.first?.contains("07:00") == true && lines.last?.contains("21:30") == true)
    let json = try #require(try nudge.json("log") as? [[String: Any]])
    #expect(json.map { $0["slot"] as? String } == ["morning", "evening"])
  }

  @Test func theBracketsAreExplainedOnlyWhereThereAreSome() throws {
    let nudge = InProcess()
    let first = try nudge.typing("y\nn\ny\ny\n\n", "prep", now: "2026-11-19T21:00:00+01:00")
    #expect(first.status == 0, "\(first.stderr)")
    #expect(!first.stdout.contains("Enter keeps the answer in brackets"), "\(first.stdout)")
    let again = try nudge.typing("\n\n\n\n\n", "prep", now: "2026-11-19T21:05:00+01:00")
    #expect(again.stdout.contains("Enter keeps the answer in brackets"), "\(again.stdout)")
  }

  @Test func onATerminalAFailureIsWrappedToItsWidth() {
    let long = CLIError(
      "Left the flow; your 3 answers are kept as a draft: 'nudge review' picks up where you left off.",
      code: .failure)
    let wrapped = NudgeMain.report(long, arguments: [], width: 40).stderr
    let lines = wrapped.split(separator: "\n")
    #expect(lines.count > 1)
    #expect(lines.allSatisfy { $0.count <= 40 }, "\(wrapped)")
    #expect(NudgeMain.report(long, arguments: []).stderr.split(separator: "\n").count == 1)
  }
}
