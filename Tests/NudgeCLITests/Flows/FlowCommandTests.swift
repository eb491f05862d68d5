import Foundation
import Testing

/// The real binary, a temporary XDG_DATA_HOME and NUDGE_NOW.
@Suite struct FlowCommandTests {
  func days(_ value: Any) -> [[String: Any]] { value as? [[String: Any]] ?? [] }

  func day(_ history: Any, _ date: String) -> [String: Any]? {
    days(history).first { $0["date"] as? String == date }
  }

  @Test func prepAfterMidnightCountsForTheEveningBeforeAndUpdatesInPlace() throws {
    let nudge = InProcess()
    let first = try nudge(
      "prep", "--item", "water=yes", "--no-input", now: "2026-11-20T00:40:00+01:00")
    #expect(first.status == 0, "\(first.stderr)")
    try nudge(
      "prep", "--item", "produce=yes", "--other", "cut carrots", "--no-input",
      now: "2026-11-20T01:10:00+01:00")
    let history = try nudge.json("history", now: "2026-11-21T09:00:00+01:00")
    let prep = try #require(day(history, "2026-11-19")?["prep"] as? [String: Any])
    #expect(prep["water"] as? Bool == true)
    #expect(prep["produce"] as? Bool == true)
    #expect(prep["other"] as? String == "cut carrots")
    #expect(prep["saved_at"] as? String == "2026-11-20T01:10:00+01:00")
    #expect(day(history, "2026-11-20")?["prep"] is NSNull)
    let exported = try #require(
      try JSONSerialization.jsonObject(with: Data(try nudge("export").stdout.utf8))
        as? [String: Any])
    #expect((exported["prep"] as? [Any])?.count == 1)
  }

  @Test func everyFlowSavesWhatTheFlagsSay() throws {
    let nudge = InProcess()
    #expect(
      try nudge(
        "review", "--why", "energy", "--challenge", "sugary-drinks", "--swap", "sparkling water",
        "--commit-to", "drink sparkling water", "--commit-from", "soda", "--no-input"
      ).status == 0)
    #expect(
      try nudge(
        "checkin", "--followed", "yes", "--feel", "proud", "--no-input",
        now: "2026-11-20T22:00:00+01:00"
      ).status == 0)
    let help = try nudge(
      "need-help", "--category", "stress", "--note", "long meeting", "--no-input",
      now: "2026-11-20T12:00:00+01:00")
    #expect(help.stdout.contains("first capture"))
    try nudge("need-help", "--category", "stress", "--no-input", now: "2026-11-20T15:00:00+01:00")
    let third = try nudge(
      "need-help", "--category", "habit", "--no-input", now: "2026-11-20T16:00:00+01:00")
    #expect(third.stdout.contains("2 of your 3 captures this week were stress."))
    let today = try #require(day(try nudge.json("history", "--days", "1"), "2026-11-20"))
    let review = try #require(today["review"] as? [String: Any])
    #expect(review["challenge"] as? String == "sugary-drinks")
    #expect(review["commit_to"] as? String == "drink sparkling water")
    #expect((today["checkin"] as? [String: Any])?["followed"] as? Bool == true)
    let notes = try #require(today["help"] as? [[String: Any]])
    #expect(notes.map { $0["category"] as? String } == ["stress", "stress", "habit"])
    #expect(notes[0]["note"] as? String == "long meeting")
    #expect(notes[0]["at"] as? String == "2026-11-20T12:00:00+01:00")
  }

  @Test func neverPromptsWithoutATerminal() throws {
    let nudge = InProcess()
    for flow in ["prep", "review", "checkin", "need-help"] {
      let result = try nudge(flow, stdin: "y\ny\n")
      #expect(result.status == 64)
      #expect(result.stderr.contains("--no-input"), "\(flow): \(result.stderr)")
      #expect(result.stdout.isEmpty)
    }
    #expect(!FileManager.default.fileExists(atPath: nudge.databasePath))
  }

  @Test func followedIsRefusedOnADayWithoutASwapAndCountsNowhere() throws {
    let nudge = InProcess()
    let now = "2026-11-20T20:00:00+01:00"
    let refused = try nudge.run(["checkin", "--followed", "yes", "--no-input"], now: now)
    #expect(refused.status == 64)
    #expect(
      refused.stderr
        == "nudge: no Morning Focus today, so there is no swap to follow: answer the other questions (--feel, --blocker), or do 'nudge review' first.\n"
    )
    // a past day names itself, and a Morning Focus made on another day is no swap for it
    try nudge("review", "--commit-to", "walk", "--no-input", now: "2026-11-18T08:00:00+01:00")
    let past = try nudge.run(
      ["checkin", "--followed", "no", "--day", "yesterday", "--no-input"], now: now)
    #expect(past.status == 64)
    #expect(
      past.stderr.contains(
        "no Morning Focus on Thursday 19 November, so there is no swap to follow"),
      "\(past.stderr)")
    let offTerminal = try nudge.run(["checkin"], now: now)
    #expect(
      offTerminal.stderr.contains("nudge checkin --feel proud --no-input"), "\(offTerminal.stderr)")
    #expect(past.stderr.contains("'nudge review --day 2026-11-19'"), "\(past.stderr)")
    let history = try nudge.json("history", "--days", "2", now: now)
    #expect(day(history, "2026-11-20")?["checkin"] is NSNull)
    #expect(day(history, "2026-11-19")?["checkin"] is NSNull)
    // the other answers are taken, and say nothing about a swap
    let feel = try nudge.run(["checkin", "--feel", "tired", "--no-input"], now: now)
    #expect(feel.status == 0, "\(feel.stderr)")
    #expect(!feel.stdout.contains("swap"), "\(feel.stdout)")
    #expect(!feel.stdout.contains("kept your word"), "\(feel.stdout)")
    let week = try nudge("week", now: now)
    #expect(!week.stdout.contains("Swaps: followed"), "\(week.stdout)")
  }

  @Test func badFlagValuesAreUsageErrors() throws {
    let nudge = InProcess()
    let cases: [[String]] = [
      ["prep", "--item", "water=maybe", "--no-input"],
      ["prep", "--item", "coffee=yes", "--no-input"],
      ["review", "--challenge", "chocolate", "--no-input"],
      ["checkin", "--followed", "kinda", "--no-input"],
      ["need-help", "--category", "boredom", "--no-input"],
      ["need-help", "--note", "x", "--no-input"],
      ["prep", "--other", "a\u{1B}[2Jb", "--no-input"],
      ["history", "--days", "0"],
      ["frobnicate"],
    ]
    for args in cases {
      let result = try nudge.run(args)
      #expect(result.status == 64, "\(args): \(result.stderr)")
      #expect(!result.stderr.isEmpty)
    }
    let result = try nudge("prep", "--no-input", env: ["NUDGE_NOW": "yesterday"])
    #expect(result.status == 64)
    #expect(result.stderr.contains("NUDGE_NOW"))
  }

  @Test func todayViewFollowsThePhaseOfTheDay() throws {
    let nudge = InProcess()
    try nudge(
      "prep", "--item", "water=yes", "--item", "produce=yes", "--no-input",
      now: "2026-11-19T21:30:00+01:00")
    let morning = try nudge(now: "2026-11-20T07:00:00+01:00")
    #expect(morning.stdout.contains("Good morning · Friday 20 November"))
    #expect(morning.stdout.contains("Last night's prep: 2/4"))
    #expect(morning.stdout.contains("nudge review"))
    #expect(morning.stdout.contains("Streak: 1 day · today pending"))
    let evening = try nudge(now: "2026-11-20T19:00:00+01:00")
    #expect(evening.stdout.contains("Good evening"))
    #expect(evening.stdout.contains("nudge checkin"))
    #expect(evening.stdout.contains("nudge prep"))
    #expect(!evening.stdout.contains("\u{1B}["), "no colour when piped")
  }

  @Test func configValidatesAndPersists() throws {
    let nudge = InProcess()
    #expect(try nudge("config", "set", "rollover-hour", "2").status == 0)
    #expect(try nudge("config", "get", "rollover-hour").stdout == "2\n")
    let bad = try nudge("config", "set", "staleness.morning", "forever")
    #expect(bad.status == 64)
    #expect(bad.stderr.contains("a duration from 1m to 24h"))
    #expect(try nudge("config", "set", "colour", "on").status == 64)
    // with rollover at 02:00, 02:30 is already the new day
    try nudge("prep", "--item", "water=yes", "--no-input", now: "2026-11-20T02:30:00+01:00")
    let history = try nudge.json("history", "--days", "2", now: "2026-11-20T12:00:00+01:00")
    #expect(day(history, "2026-11-20")?["prep"] is [String: Any])
    #expect(try nudge("config", "unset", "rollover-hour").status == 0)
    #expect(try nudge("config", "get", "rollover-hour").stdout == "4\n")
  }

  @Test func wordsForTheChallengeMakeItOtherAndConflictsAreRefused() throws {
    let nudge = InProcess()
    try nudge("review", "--challenge-other", "boredom", "--commit-to", "rest", "--no-input")
    let days = try #require(try nudge.json("history", "--days", "1") as? [[String: Any]])
    let review = try #require(days.first?["review"] as? [String: Any])
    #expect(review["challenge"] as? String == "other")
    #expect(review["challenge_other"] as? String == "boredom")
    let both = try nudge(
      "review", "--challenge", "sugary-drinks", "--challenge-other", "x", "--no-input")
    #expect(both.status == 64)
    #expect(both.stderr.split(separator: "\n").count == 1)
  }

  @Test func openWithoutALinkIsAUsageError() throws {
    let result = try InProcess()("open")
    #expect(result.status == 64)
    #expect(result.stderr.contains("nudge open nudge://review"))
  }

  @Test func aFlowInAHeldWindowEndsWithItsOwnStatusOnceTheWindowIsClosed() throws {
    // (this ended the test process before: the status was not thrown but exited with)
    let result = try InProcess().typing("^C", "open", "--hold", "nudge://prep")
    #expect(result.status == 130, "\(result.stderr)")
    #expect(result.stdout.hasSuffix("\nPress Enter to close this window. "), "\(result.stdout)")
    #expect(!result.stderr.contains("nudge: \n"), "\(result.stderr)")
  }

  @Test func theGreetingFollowsTheHour() throws {
    let nudge = InProcess()
    #expect(try nudge(now: "2026-11-20T11:59:00+01:00").stdout.hasPrefix("Good morning"))
    #expect(try nudge(now: "2026-11-20T17:59:00+01:00").stdout.hasPrefix("Good afternoon"))
    #expect(try nudge(now: "2026-11-20T18:00:00+01:00").stdout.hasPrefix("Good evening"))
    #expect(try nudge(now: "2026-11-21T01:00:00+01:00").stdout.hasPrefix("Good evening"))
  }

  @Test(arguments: [
    (["chekin"], "'chekin' is not a command. Did you mean 'checkin'?"),
    (["prep", "--itme", "water=yes"], "Unknown option '--itme'. Did you mean '--item'?"),
    (["schedule", "set", "morning"], "See 'nudge schedule set --help'."),
  ])
  func usageErrorsAreOneLineWithExit64(arguments: [String], says: String) throws {
    let result = try InProcess().run(arguments)
    #expect(result.status == 64)
    #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    #expect(result.stderr.contains(says), "\(result.stderr)")
  }

  @Test(arguments: ["bash", "zsh", "fish"])
  func completionsOfferValuesNotOnlyFlags(shell: String) throws {
    let script = try InProcess()("--generate-completion-script", shell).stdout
    for value in [
      "morning", "sugary-drinks", "stress", "fireworks", "first-prep", "staleness.evening",
      "water=yes",
    ] {
      #expect(script.contains(value), "\(shell) completion lacks \(value)")
    }
  }

  @Test func aForgottenDayCanBeFilledInUpToAWeekBackWithoutACelebration() throws {
    let nudge = InProcess()
    let now = "2026-11-20T08:00:00+01:00"
    try nudge("review", "--commit-to", "walk", "--no-input", now: now)
    try nudge("review", "--commit-to", "walk", "--day", "yesterday", "--no-input", now: now)
    let filled = try nudge(
      "checkin", "--followed", "yes", "--day", "yesterday", "--no-input", now: now)
    #expect(filled.status == 0)
    #expect(filled.stdout.contains("Filled in Thursday 19 November"), "\(filled.stdout)")
    #expect(filled.stdout.contains("Earned: First check-in."), "\(filled.stdout)")
    try nudge("need-help", "--category", "habit", "--day", "2026-11-13", "--no-input", now: now)
    let days = try #require(try nudge.json("history", "--days", "8", now: now) as? [[String: Any]])
    let byDate = Dictionary(uniqueKeysWithValues: days.map { ($0["date"] as? String ?? "", $0) })
    #expect(byDate["2026-11-19"]?["checkin"] is [String: Any])
    #expect((byDate["2026-11-13"]?["help"] as? [Any])?.count == 1)
    let streak = try #require(try nudge.json("streak", now: now) as? [String: Any])
    #expect(streak["current"] as? Int == 2)
    let achievements = try #require(try nudge.json("achievements", now: now) as? [[String: Any]])
    #expect(
      achievements.first { $0["key"] as? String == "first-checkin" }?["earned_on"] as? String
        == "2026-11-19")
    for day in ["2026-11-12", "tomorrow", "2026-11-21", "last week"] {
      let refused = try nudge("prep", "--item", "water=yes", "--day", day, "--no-input", now: now)
      #expect(refused.status == 64, "\(day)")
    }
  }

  @Test(arguments: [
    ["prep", "--no-input"], ["prep", "--item", "water=no", "--no-input"],
    ["review", "--swap", "tea", "--why", "energy", "--no-input"],
    ["checkin", "--blocker", "traffic", "--no-input"],
  ])
  func aFlowWithoutContentIsRefusedAndNothingIsSaved(arguments: [String]) throws {
    let nudge = InProcess()
    let result = try nudge.run(arguments)
    #expect(result.status == 64, "\(result.stdout)")
    #expect(result.stderr.contains("nothing to save"))
    let streak = try #require(try nudge.json("streak") as? [String: Any])
    #expect(streak["current"] as? Int == 0)
  }

  @Test func savingAgainSaysUpdatedAndCelebratesNothingNew() throws {
    let nudge = InProcess()
    let first = try nudge("prep", "--item", "water=yes", "--no-input", env: ["NUDGE_SEED": "3"])
    #expect(first.stdout.contains("New achievement: First prep."))
    let again = try nudge(
      "prep", "--item", "produce=yes", "--no-input", env: ["NUDGE_SEED": "3"])
    #expect(again.stdout.contains("Prep updated for tomorrow: 2/4 ready"))
    let lines = again.stdout.split(separator: "\n")
    #expect(lines.count == 2, "\(again.stdout)")  // the result and the gentle note, no reward
  }
}
