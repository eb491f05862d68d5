import Foundation
import NudgeCore
import Synchronization
import Testing

/// The test of a flow as one definition: a plan file with a fifth flow (three questions, a
/// slot of its own) dropped into the config folder, and with nothing else changed its flow
/// runs from the command line, from its link and on a terminal (a draft kept on Ctrl-C), is
/// edited, deleted and undone, counts for the streak, shows in `show`, `history` and the
/// today view, and is exported and imported.
@Suite struct DefinedFlowTests {
  static let walking = """
    format = 1
    [plan]
    name = "walking"
    title = "Walking"
    on = true

    [[slot]]
    id = "noon"
    at = "12:30"
    title = "A walk at lunch?"

    [[flow]]
    id = "walk"
    title = "Lunch walk"
    slot = "noon"
    counts = ["minutes"]
    first = "First walk"
    saved = "Walk noted."

    [[flow.question]]
    id = "minutes"
    ask = "How many minutes did you walk?"
    kind = "number"
    unit = "minutes"
    min = 1
    max = 600

    [[flow.question]]
    id = "where"
    ask = "Where?"
    kind = "one-of"
    options = ["park", "streets", "indoors"]
    labels = ["In the park", "Round the streets", "Indoors"]

    [[flow.question]]
    id = "felt"
    ask = "How did it feel?"
    kind = "text"

    """

  /// A person's Nudge with the walking plan in their config folder.
  static func withWalkingPlan() throws -> InProcess {
    let nudge = InProcess()
    let folder = nudge.environment["XDG_CONFIG_HOME"]! + "/nudge/plans"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try walking.write(toFile: folder + "/walking.plan", atomically: true, encoding: .utf8)
    return nudge
  }

  static func walk(_ nudge: InProcess, day: String = "2026-11-20") throws -> [String: Any]? {
    let days = try #require(try nudge.json("history", "--days", "1") as? [[String: Any]])
    #expect(days.first?["date"] as? String == day)
    return (days.first?["flows"] as? [String: Any])?["walk"] as? [String: Any]
  }

  @Test func itRunsFromTheCommandLineCountsForTheStreakAndShowsInTheViews() throws {
    let nudge = try Self.withWalkingPlan()
    let saved = try nudge(
      "walk", "--answer", "minutes=20", "--answer", "where=park", "--no-input",
      "--no-animation")
    #expect(saved.status == 0, "\(saved.stderr)")
    #expect(saved.stdout.hasPrefix("✓ Walk noted.\n"), "\(saved.stdout)")
    let entry = try #require(try Self.walk(nudge))
    #expect(entry["answers"] as? [String: String] == ["minutes": "20", "where": "park"])
    let streak = try #require(try nudge.json("streak") as? [String: Any])
    #expect(streak["current"] as? Int == 1)
    let shown = try nudge("show")
    #expect(
      shown.stdout.contains(
        "Lunch walk\n  How many minutes did you walk?: 20 minutes\n  Where?: In the park\n"),
      "\(shown.stdout)")
    let history = try nudge("history", "--days", "1")
    #expect(history.stdout.contains("✓ lunch walk: minutes 20 minutes, where In the park"))
    let week = try #require(try nudge.json("week") as? [String: Any])
    let flows = try #require(week["flows"] as? [[String: Any]])
    #expect(flows.first?["flow"] as? String == "walk" && flows.first?["days"] as? Int == 1)
    #expect((flows.first?["averages"] as? [String: Double])?["minutes"] == 20)
    #expect(
      try nudge("week").stdout.contains("Lunch walk: 1 of 7 days · 20 minutes on average"))
    let achievements = try #require(try nudge.json("achievements") as? [[String: Any]])
    let first = achievements.first { $0["key"] as? String == "first-walk" }
    #expect(first?["title"] as? String == "First walk")
    #expect(first?["earned_on"] as? String == "2026-11-20")
    let today = try nudge("today", now: "2026-11-20T13:00:00+01:00")
    #expect(today.stdout.contains("✓ Lunch walk done"), "\(today.stdout)")
    // the next day it is still to do, with its command
    let tomorrow = try nudge("today", now: "2026-11-21T13:00:00+01:00")
    #expect(tomorrow.stdout.contains("→ Lunch walk: nudge walk"), "\(tomorrow.stdout)")
  }

  @Test func answersItDoesNotTakeAndAnEntryThatDoesNotCountAreRefused() throws {
    let nudge = try Self.withWalkingPlan()
    let unknown = try nudge("walk", "--answer", "steps=2000", "--no-input")
    #expect(unknown.status == 64)
    #expect(
      unknown.stderr
        == "nudge: 'steps' is not a question of walk (minutes, where, felt).\n")
    let outOfRange = try nudge("walk", "--answer", "minutes=0", "--no-input")
    #expect(outOfRange.status == 64)
    #expect(outOfRange.stderr.contains("minutes takes a whole number from 1 to 600 (minutes)"))
    let notCounting = try nudge("walk", "--answer", "felt=fine", "--no-input")
    #expect(notCounting.status == 64)
    #expect(notCounting.stderr.contains("nothing to save: an entry needs one of minutes"))
    #expect(try Self.walk(nudge) == nil)
  }

  @Test func onATerminalItAsksKeepsADraftOnCtrlCAndResumesIt() throws {
    let nudge = try Self.withWalkingPlan()
    let stopped = try nudge.typing("25\n^C\n", "walk", "--no-animation")
    #expect(stopped.status == 130)
    #expect(
      stopped.stderr.contains(
        "your answer is kept as a draft: 'nudge walk' picks up where you left off"),
      "\(stopped.stderr)")
    #expect(try Self.walk(nudge) == nil)
    // Enter resumes (the minutes taken back), then where (2) and how it felt
    let resumed = try nudge.typing("\n2\nbrisk\n", "walk", "--no-animation")
    #expect(resumed.status == 0, "\(resumed.stderr)")
    #expect(resumed.stdout.contains("How many minutes did you walk? 25"), "\(resumed.stdout)")
    let entry = try #require(try Self.walk(nudge))
    #expect(
      entry["answers"] as? [String: String]
        == ["minutes": "25", "where": "streets", "felt": "brisk"])
  }

  @Test func aQuestionIsAskedInItsPastDaysWordsAndInTheWordsAnEarlierAnswerChose() throws {
    let nudge = InProcess()
    let folder = nudge.environment["XDG_CONFIG_HOME"]! + "/nudge/plans"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let reworded = Self.walking.replacing(
      "ask = \"How did it feel?\"\n",
      with: """
        ask = "How did it feel?"
        past = "How did it feel that day?"
        when_answered = ["where=indoors"]
        then_ask = ["How was it, indoors?"]

        """)
    try reworded.write(toFile: folder + "/walking.plan", atomically: true, encoding: .utf8)
    // a past day: its words; a day walked indoors: the words that answer chose
    let past = try nudge.typing("20\n1\nfine\n", "walk", "--day", "yesterday", "--no-animation")
    #expect(past.status == 0, "\(past.stderr)")
    #expect(past.stdout.contains("How did it feel that day?"), "\(past.stdout)")
    let indoors = try nudge.typing("20\n3\nstuffy\n", "walk", "--no-animation")
    #expect(indoors.status == 0, "\(indoors.stderr)")
    #expect(indoors.stdout.contains("How was it, indoors?"), "\(indoors.stdout)")
    #expect(!indoors.stdout.contains("How did it feel"), "\(indoors.stdout)")
  }

  @Test func itOpensFromItsLink() throws {
    let nudge = try Self.withWalkingPlan()
    let opened = try nudge.typing("40\n1\n\n", "open", "nudge://walk")
    #expect(opened.status == 0, "\(opened.stderr)")
    let entry = try #require(try Self.walk(nudge))
    #expect(entry["answers"] as? [String: String] == ["minutes": "40", "where": "park"])
    // a link to a flow no plan defines is refused, as any unknown link
    let refused = try nudge("open", "nudge://swim")
    #expect(refused.status == 65)
    #expect(refused.stderr.contains("'swim' is not a Nudge link"), "\(refused.stderr)")
  }

  @Test func itIsEditedDeletedAndUndone() throws {
    let nudge = try Self.withWalkingPlan()
    try nudge("walk", "--answer", "minutes=20", "--no-input", "--no-animation")
    let edited = try nudge("edit", "walk", "--answer", "minutes=35", "--no-input")
    #expect(edited.status == 0, "\(edited.stderr)")
    #expect(try Self.walk(nudge)?["answers"] as? [String: String] == ["minutes": "35"])
    let undone = try nudge("undo")
    #expect(undone.status == 0, "\(undone.stderr)")
    #expect(try Self.walk(nudge)?["answers"] as? [String: String] == ["minutes": "20"])
    let deleted = try nudge("delete", "today", "walk", "--yes")
    #expect(deleted.status == 0, "\(deleted.stderr)")
    #expect(try Self.walk(nudge) == nil)
    #expect((try nudge.json("streak") as? [String: Any])?["current"] as? Int == 0)
    try nudge("undo")
    #expect(try Self.walk(nudge)?["answers"] as? [String: String] == ["minutes": "20"])
    try nudge("undo")
    #expect(try Self.walk(nudge) == nil)
  }

  @Test func itIsExportedAndImportedAndAFlowNoPlanDefinesIsRefused() throws {
    let nudge = try Self.withWalkingPlan()
    try nudge("walk", "--answer", "minutes=20", "--answer", "felt=good", "--no-input")
    let exported = try nudge("export")
    #expect(exported.status == 0, "\(exported.stderr)")
    let other = try Self.withWalkingPlan()
    let imported = try other("import", "-", stdin: exported.stdout)
    #expect(imported.status == 0, "\(imported.stderr)")
    #expect(imported.stdout.contains("1 added"), "\(imported.stdout)")
    #expect(
      try Self.walk(other)?["answers"] as? [String: String]
        == ["minutes": "20", "felt": "good"])
    // where no plan defines the flow (a document without its plan file), the file is
    // refused whole
    var document = try #require(
      try JSONSerialization.jsonObject(with: Data(exported.stdout.utf8)) as? [String: Any])
    #expect((document["plan_files"] as? [Any])?.count == 1)
    document["plan_files"] = [Any]()
    let withoutPlan = String(
      decoding: try JSONSerialization.data(withJSONObject: document), as: UTF8.self)
    let stranger = InProcess()
    let refused = try stranger("import", "-", stdin: withoutPlan)
    #expect(refused.status == 65)
    #expect(
      refused.stderr.contains("flows[0].flow 'walk' is a flow no plan here defines"),
      "\(refused.stderr)")
    let nothing = try #require(try stranger.json("history", "--days", "1") as? [[String: Any]])
    #expect((nothing.first?["flows"] as? [String: Any])?.isEmpty == true)
    // an answer its question does not take is refused too
    let text = exported.stdout
      .replacing("\"minutes\" : \"20\"", with: "\"minutes\" : \"20; rm -rf ~\"")
    #expect(text != exported.stdout)
    let bad = try Self.withWalkingPlan()
    let badImport = try bad("import", "-", stdin: text)
    #expect(badImport.status == 65)
    #expect(badImport.stderr.contains("minutes takes a whole number"), "\(badImport.stderr)")
  }

  @Test func aPlanTurnedOffStopsItsFlowsAndKeepsWhatTheySaved() throws {
    let nudge = try Self.withWalkingPlan()
    try nudge("walk", "--answer", "minutes=20", "--no-input")
    let off = try nudge("plan", "off", "walking")
    #expect(off.status == 0 && off.stdout.contains("The walking plan is off."), "\(off.stdout)")
    let refused = try nudge("walk", "--answer", "minutes=20", "--no-input")
    #expect(refused.status == 64)
    #expect(
      refused.stderr
        == "nudge: 'nudge walk' is a flow of the walking plan, which is off; turn it on with 'nudge plan on walking'.\n"
    )
    #expect(try Self.walk(nudge) != nil)
    let listed = try #require(try nudge.json("plan", "list") as? [[String: Any]])
    #expect(listed.map { $0["on"] as? Bool } == [true, false, false])
    #expect(try nudge("plan", "on", "walking").status == 0)
    #expect(try nudge("walk", "--answer", "minutes=30", "--no-input").status == 0)
    // the coach's flows are compiled in: it stays on
    let coach = try nudge("plan", "off", "coach")
    #expect(coach.status == 64)
    #expect(coach.stderr.contains("the coach plan cannot be turned off yet"), "\(coach.stderr)")
  }

  @Test func theSleepPlanOffersLastNightFromTheJournalAndTonightsChallenge() throws {
    var nudge = InProcess()
    let platform = TestPlatform(refusesPrograms: true)
    // Berlin: asleep 23:30, awake 07:15 (UTC 22:30 and 06:15)
    let morning = 1_795_132_800  // 2026-11-20T00:00:00Z
    platform.nights.withLock {
      $0 = [(morning - 5400, .asleep), (morning + 6 * 3600 + 900, .awake)]
    }
    nudge.platform = platform
    #expect(try nudge("plan", "on", "sleep").status == 0)
    // Enter keeps the bedtime and the wake offered; rested 4; no note; the challenge taken
    let logged = try nudge.typing("\n\n4\n\ny\n", "sleep", "--no-animation")
    #expect(logged.status == 0, "\(logged.stderr)")
    #expect(
      logged.stdout.contains(
        "This computer went to sleep at 23:30 and woke at 07:15: Enter keeps those."),
      "\(logged.stdout)")
    #expect(logged.stdout.contains("Tonight's challenge: "), "\(logged.stdout)")
    let days = try #require(try nudge.json("show") as? [String: Any])
    let sleep = try #require((days["flows"] as? [String: Any])?["sleep"] as? [String: Any])
    let answers = try #require(sleep["answers"] as? [String: String])
    #expect(answers["bedtime"] == "23:30" && answers["wake"] == "07:15")
    #expect(answers["rested"] == "4" && answers["accept"] == "yes")
    // no nights logged yet: a small routine is where it starts
    let challenge = try #require(sleep["challenge"] as? [String: Any])
    #expect(challenge["category"] as? String == "routine")
    // the evening's flow shows the challenge taken
    let evening = try nudge.typing(
      "y\n", "challenge", "--no-animation", now: "2026-11-20T21:30:00+01:00")
    #expect(evening.status == 0, "\(evening.stderr)")
    #expect(evening.stdout.contains("Tonight's challenge: \(challenge["name"] as? String ?? "?")"))
  }

  /// The challenge without a challenge (issue 57, item 7): checking one needs one taken that
  /// day; a check names it (show), a "no" is not "done" (today), and --answer says why the
  /// rules chose it.
  @Test func aChallengeIsCheckedOnlyWhenOneWasTakenAndItIsNamed() throws {
    let nudge = InProcess()
    let morning = "2026-11-20T08:00:00+01:00"
    let evening = "2026-11-20T21:30:00+01:00"
    try #require(try nudge("plan", "on", "sleep", now: morning).status == 0)
    // no night logged: nothing to check, nothing earned
    let none = try nudge("challenge", "--answer", "completed=yes", "--no-animation", now: evening)
    #expect(none.status == 1, "\(none)")
    #expect(
      none.stderr
        == "nudge: no challenge was taken today, so there is none to check: take one with nudge sleep (or, declined, nudge sleep --another).\n",
      "\(none.stderr)")
    #expect(
      !(try nudge("achievements", now: evening).stdout.contains("🏆 First challenge checked")))
    // declined: none either
    let declined = try nudge(
      "sleep", "--answer", "bedtime=23:00", "--answer", "wake=07:00", "--answer", "rested=3",
      "--answer", "accept=no", "--no-animation", now: morning)
    #expect(declined.status == 0, "\(declined.stderr)")
    #expect(
      try nudge("challenge", "--answer", "completed=yes", "--no-animation", now: evening).status
        == 1)
    // taken with --answer: named with why the rules chose it from the week
    let taken = try nudge(
      "sleep", "--answer", "accept=yes", "--another", "--no-animation", now: morning)
    #expect(taken.status == 0, "\(taken.stderr)")
    let checked = try nudge(
      "challenge", "--answer", "completed=no", "--no-animation", now: evening)
    #expect(checked.status == 0, "\(checked.stderr)")
    let shown = try nudge("show", now: evening).stdout
    let name = try #require(
      shown.split(separator: "\n").first { $0.contains("Tonight's challenge: ") }.map {
        String($0.split(separator: ":", maxSplits: 1)[1]).trimmingCharacters(in: .whitespaces)
      })
    // the evening's entry names the challenge it checked
    #expect(
      shown.contains("Tonight's challenge\n  Tonight's challenge: \(name)\n"), "\(shown)")
    let today = try nudge("today", now: evening).stdout
    #expect(
      today.contains("Tonight's challenge noted: Did you complete tonight's challenge? no"),
      "\(today)")
    #expect(!today.contains("Tonight's challenge done"))
    // a fresh day, taken by --answer: the reason is said
    let next = try nudge(
      "sleep", "--answer", "bedtime=23:10", "--answer", "wake=07:00", "--answer", "rested=4",
      "--answer", "accept=yes", "--no-animation", now: "2026-11-21T08:00:00+01:00")
    #expect(next.stdout.contains("Tonight's challenge: "), "\(next.stdout)")
    #expect(next.stdout.contains(" — "), "\(next.stdout)")
  }

  @Test func withNoPlanFilesTheTodayViewShowsTheSleepPlanOnlyWhileItIsOn() throws {
    // no plan files: the today view reads no built-in plan that is off (`Context.plansOn`)
    let nudge = InProcess()
    let morning = "2026-11-20T07:30:00+01:00"
    #expect(!(try nudge("today", now: morning)).stdout.contains("Last night"))
    #expect(try nudge("plan", "on", "sleep").status == 0)
    let on = try nudge("today", now: morning)
    #expect(on.stdout.contains("→ Last night: nudge sleep"), "\(on.stdout)")
    #expect(try nudge("plan", "off", "sleep").status == 0)
    #expect(!(try nudge("today", now: morning)).stdout.contains("Last night"))
    // and `plan list` still has both built-in plans
    #expect(try nudge("plan", "list").stdout.contains("coach"))
  }

  @Test func itsHelpAndUsageErrorsAreItsOwn() throws {
    let nudge = try Self.withWalkingPlan()
    let help = try nudge("walk", "--help")
    #expect(help.status == 0)
    #expect(help.stdout.contains("USAGE: nudge walk [--answer <id=value> ...]"), "\(help.stdout)")
    #expect(help.stdout.contains("* minutes        How many minutes did you walk?"))
    let bogus = try nudge("walk", "--bogus")
    #expect(bogus.status == 64)
    #expect(bogus.stderr == "nudge: Unknown option '--bogus'. See 'nudge walk --help'.\n")
    // a line of text is one line: a newline or an escape is refused, as a coach flow's text is
    let twoLines = try nudge("walk", "--answer", "minutes=5", "--answer", "felt=a\nb", "--no-input")
    #expect(twoLines.status == 64)
    #expect(twoLines.stderr.contains("felt takes one line of text"), "\(twoLines.stderr)")
    // a plan's own reminder time that no plan has is refused
    let nosuch = try nudge("notify", "nosuch.slot")
    #expect(nosuch.status == 64)
    #expect(nosuch.stderr.contains("no plan has the reminder time 'nosuch.slot'"))
  }

  @Test func theCountingAnswerIsAskedUntilGivenAndADraftKeepsTheChallenge() throws {
    let nudge = try Self.withWalkingPlan()
    // Enter at the minutes (what the entry counts on) asks again
    let walked = try nudge.typing("\n12\n3\n\n", "walk", "--no-animation")
    #expect(walked.status == 0, "\(walked.stderr)")
    #expect(walked.stdout.contains("This one is needed"), "\(walked.stdout)")
    #expect(
      try Self.walk(nudge)?["answers"] as? [String: String] == [
        "minutes": "12", "where": "indoors",
      ])
    // the sleep flow stopped at taking the challenge, resumed: the same challenge is kept
    #expect(try nudge("plan", "on", "sleep").status == 0)
    let stopped = try nudge.typing("23:00\n07:00\n3\n\n^C\n", "sleep", "--no-animation")
    #expect(stopped.status == 130, "\(stopped.stdout)")
    let shown = try #require(stopped.stdout.firstRange(of: "Tonight's challenge: "))
    let name = stopped.stdout[shown.upperBound...].split(separator: " — ")[0]
    let resumed = try nudge.typing("\ny\n", "sleep", "--no-animation")
    #expect(resumed.status == 0, "\(resumed.stderr)")
    #expect(
      resumed.stdout.contains("Tonight's challenge: \(name) — kept from earlier"),
      "\(resumed.stdout)")
  }
}
