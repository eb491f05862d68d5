import Foundation
import NudgeCore
import Testing

@testable import NudgeCLI

/// A person's month with Nudge (issue 21): nothing typed is lost, mistakes can be taken back,
/// their own words come back on screen. Answers are typed at real prompts (a terminal input).
@Suite struct MonthTests {
  let morning = "2026-11-20T07:30:00+01:00"

  func history(_ nudge: InProcess, _ now: String, days: Int = 1) throws -> [[String: Any]] {
    let result = try nudge.run(["history", "--json", "--days", "\(days)"], now: now)
    try #require(result.status == 0, "\(result.stderr)")
    return try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
  }

  @Test func theCommitmentIsNeverSkippableAndIsAskedAgainUntilGiven() throws {
    let nudge = InProcess()
    // Enter at "Today I will" (no default: no swap) is refused, then the answer is taken
    let typed = "energy\n3\n\n\n\ndrink water\nsoda\n"
    let result = try nudge.typing(typed, "review", now: morning)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("This one is needed"))
    #expect(!result.stdout.contains("Today I will (Enter to skip)"))
    let review = try #require(try history(nudge, morning)[0]["review"] as? [String: Any])
    #expect(review["commit_to"] as? String == "drink water")
    #expect(review["why"] as? String == "energy")
  }

  @Test func everyAnswerIsKeptAsADraftAndTheNextRunOffersIt() throws {
    let nudge = InProcess()
    // Ctrl-C at the swap: My Why and the challenge are kept, the exit is 130, one line
    let stopped = try nudge.typing("energy for my kids\n3\n^C\n", "review", now: morning)
    #expect(stopped.status == 130)
    #expect(
      stopped.stderr
        == "nudge: Stopped; your 2 answers are kept as a draft: 'nudge review' picks up where you left off.\n"
    )
    #expect(try history(nudge, morning)[0]["review"] is NSNull)
    // the next run offers them; Enter resumes, only the rest is asked
    let resumed = try nudge.typing(
      "\nsparkling water\ndrink sparkling water\nsoda\n", "review", now: morning)
    #expect(resumed.status == 0, "\(resumed.stderr)")
    #expect(resumed.stdout.contains("You started this earlier (2 answers kept)."))
    #expect(resumed.stdout.contains("Resume where you left off?"))
    let review = try #require(try history(nudge, morning)[0]["review"] as? [String: Any])
    #expect(review["why"] as? String == "energy for my kids")
    #expect(review["challenge"] as? String == "sugary-drinks")
    #expect(review["swap"] as? String == "sparkling water")
    // finishing removed the draft: another run offers nothing
    let again = try nudge.typing("\n\n\n\n\n\n", "review", now: morning)
    #expect(!again.stdout.contains("You started this earlier"))
  }

  @Test func ctrlDLeavesWithExit1AndKeepsTheDraftAndNoStartsAfresh() throws {
    let nudge = InProcess()
    let evening = "2026-11-20T21:30:00+01:00"
    let left = try nudge.typing("y\nn\n", "prep", now: evening)
    #expect(left.status == 1)
    #expect(left.stderr.contains("Left the flow; your 2 answers are kept as a draft"))
    // "n" at the offer: start afresh, the draft is forgotten
    let fresh = try nudge.typing("n\nn\ny\ny\nn\n\n", "prep", now: evening)
    #expect(fresh.status == 0, "\(fresh.stderr)")
    let prep = try #require(try history(nudge, evening)[0]["prep"] as? [String: Any])
    #expect(prep["sticky_notes"] as? Bool == false)
    #expect(prep["water"] as? Bool == true)
  }

  @Test func ctrlCDuringTheBreathingTimerKeepsTheCategoryAndTheBreathing() throws {
    let nudge = InProcess()
    let stopped = try nudge.typing("1\n1\n^C\n", "need-help", now: morning)
    #expect(stopped.status == 130)
    #expect(stopped.stderr.contains("kept as a draft: 'nudge need-help'"))
    let resumed = try nudge.typing("y\nlong meeting\n", "need-help", now: morning)
    #expect(resumed.status == 0, "\(resumed.stderr)")
    let help = try #require(try history(nudge, morning)[0]["help"] as? [[String: Any]])
    #expect(help.count == 1)
    #expect(help[0]["category"] as? String == "stress")
    #expect((help[0]["coach"] as? String)?.contains("stopped early") == true)
    #expect(help[0]["note"] as? String == "long meeting")
  }

  @Test func aSaveFromFlagsLeavesAnInteractiveDraftAlone() throws {
    let nudge = InProcess()
    let evening = "2026-11-20T21:30:00+01:00"
    let left = try nudge.typing("y\nn\n", "prep", now: evening)
    #expect(left.status == 1)
    try #require(
      try nudge.run(["prep", "--item", "water=yes", "--no-input"], now: evening).status == 0)
    let again = try nudge.typing("\ny\nn\n\n", "prep", now: evening)
    #expect(again.stdout.contains("You started this earlier (2 answers kept)."), "\(again.stdout)")
    #expect(again.status == 0, "\(again.stderr)")
    let prep = try #require(try history(nudge, evening)[0]["prep"] as? [String: Any])
    #expect(prep["sticky_notes"] as? Bool == true)
    #expect(prep["produce"] as? Bool == false)
  }

  @Test func theCoachKeepsEachStepAndAFirstDayExplainsItself() throws {
    let nudge = InProcess()
    let welcome = try nudge.run([], now: "2026-11-20T21:00:00+01:00", env: ["COLUMNS": "60"])
    #expect(welcome.stdout.contains("Welcome to Nudge"))
    #expect(welcome.stdout.contains("(07:00, 21:30)"))
    #expect(welcome.stdout.split(separator: "\n").allSatisfy { TerminalText.columns($0) <= 60 })
    // evening of a first day: tonight's prep leads, the check-in asks how the day went
    let prep = try #require(welcome.stdout.range(of: "Prep tonight"))
    let checkin = try #require(welcome.stdout.range(of: "How did today go?"))
    #expect(prep.lowerBound < checkin.lowerBound)
    // Ctrl-C after the habit swap: the swap is kept, the resumed run asks only the trigger on
    let stopped = try nudge.typing("2\n2\n^C\n", "need-help", now: morning)
    #expect(stopped.status == 130)
    let resumed = try nudge.typing("y\n2\n\n", "need-help", now: morning)
    #expect(resumed.status == 0, "\(resumed.stderr)")
    #expect(!resumed.stdout.contains("Try a swap for the next few minutes:\n"))
    let help = try #require(try history(nudge, morning)[0]["help"] as? [[String: Any]])
    #expect(help.first?["coach"] as? String == "swap: water · trigger: place")
    #expect(try nudge.json("streak", now: morning) is [String: Any])
    #expect(welcome.stdout.split(separator: "\n").count > 5)
  }

  @Test func aPastDaysRefusalNamesTheDayInItsExample() throws {
    let r = try InProcess().run(
      ["review", "--day", "2026-11-18", "--swap", "tea", "--no-input"], now: morning)
    #expect(r.status == 64)
    #expect(r.stderr.contains("--commit-from soda --day 2026-11-18 --no-input"))
  }

  @Test func everyExampleNudgePrintsWorksWhenPasted() throws {
    for example in [
      PrepCommand.example, ReviewCommand.example, ReviewCommand.commitExample,
      CheckinCommand.example, NeedHelpCommand.example,
    ] {
      let nudge = InProcess()
      let words = try CommandLineWords.split(example)
      #expect(words.first == "nudge")
      let result = try nudge.run(Array(words.dropFirst()), now: morning)
      #expect(result.status == 0, "\(example): \(result.stderr)")
    }
    // and the refusals name them
    let refused = try InProcess().run(
      ["review", "--swap", "tea", "--no-input"], now: morning)
    #expect(refused.stderr.contains(ReviewCommand.commitExample))
    let offTerminal = try InProcess().run(["review"], now: morning)
    #expect(offTerminal.stderr.contains(ReviewCommand.example))
  }

  @Test func deleteAndUndoRecomputeStreaksAndAchievements() throws {
    let nudge = InProcess()
    for day in 14...20 {
      let now = "2026-11-\(day)T21:30:00+01:00"
      try #require(
        try nudge.run(["prep", "--item", "water=yes", "--no-input"], now: now).status == 0)
    }
    let now = "2026-11-20T22:00:00+01:00"
    var streak = try #require(try nudge.json("streak", now: now) as? [String: Any])
    #expect(streak["current"] as? Int == 7)
    // off a terminal, delete asks for --yes
    let unasked = try nudge.run(["delete", "2026-11-17", "prep"], now: now)
    #expect(unasked.status == 64)
    #expect(unasked.stderr.contains("--yes"))
    let deleted = try nudge.run(["delete", "2026-11-17", "prep", "--yes"], now: now)
    #expect(deleted.status == 0, "\(deleted.stderr)")
    #expect(deleted.stdout.contains("Achievement removed: 7-day streak"))
    streak = try #require(try nudge.json("streak", now: now) as? [String: Any])
    #expect(streak["current"] as? Int == 3)
    let earned = try #require(try nudge.json("achievements", now: now) as? [[String: Any]])
    #expect(earned.first { $0["key"] as? String == "streak-7" }?["earned_on"] is NSNull)
    // undo brings it back, and the achievement with it; a second undo takes back the last save
    let undone = try nudge.run(["undo"], now: now)
    #expect(undone.status == 0, "\(undone.stderr)")
    #expect(undone.stdout.contains("is back"))
    streak = try #require(try nudge.json("streak", now: now) as? [String: Any])
    #expect(streak["current"] as? Int == 7)
    let undoSave = try nudge.run(["undo", "--json"], now: now)
    #expect(undoSave.status == 0)
    #expect(undoSave.stdout.contains("\"kind\" : \"saved\""))
    #expect(try history(nudge, now)[0]["prep"] is NSNull)
    // yesterday's changes are not today's to undo
    let nothing = try nudge.run(["undo"], now: now)
    #expect(nothing.status == 1)
    #expect(nothing.stderr.contains("nothing to undo"))
  }

  @Test func editOpensTheStoredAnswersAndReachesAnyPastDayWithAnEntry() throws {
    let nudge = InProcess()
    let old = "2026-10-01T08:00:00+02:00"
    try #require(
      try nudge.run(
        ["review", "--swap", "tea", "--commit-to", "drink tea", "--no-input"], now: old
      ).status == 0)
    let now = "2026-11-20T09:00:00+01:00"
    // --day does not reach that far back for a flow; edit does, for an entry that exists
    let refused = try nudge.run(
      ["review", "--day", "2026-10-01", "--swap", "x", "--no-input"], now: now)
    #expect(refused.status == 64)
    let edited = try nudge.run(
      ["edit", "2026-10-01", "review", "--swap", "green tea", "--no-input"], now: now)
    #expect(edited.status == 0, "\(edited.stderr)")
    #expect(edited.stdout.contains("Morning Focus edited for Thursday 1 October."))
    let day = try #require(
      try nudge.json("history", "--days", "60", now: now) as? [[String: Any]]
    ).first { $0["date"] as? String == "2026-10-01" }
    let review = try #require(day?["review"] as? [String: Any])
    #expect(review["swap"] as? String == "green tea")
    #expect(review["commit_to"] as? String == "drink tea")
    // interactively, Enter keeps each stored answer
    let kept = try nudge.typing("\n3\n\n\n\n", "edit", "2026-10-01", "review", now: now)
    #expect(kept.status == 0, "\(kept.stderr)")
    #expect(kept.stdout.contains("[green tea]"))
    #expect(kept.stdout.contains("(editing Thursday 1 October)"))
    // a day with no entry that far back cannot get one
    let missing = try nudge.run(
      ["edit", "2026-10-02", "prep", "--item", "water=yes", "--no-input"], now: now)
    #expect(missing.status == 1)
    #expect(missing.stderr.contains("cannot get a new entry"))
  }

  @Test func showPrintsTheDayInFullWrappedToTheTerminal() throws {
    let nudge = InProcess()
    let now = "2026-11-20T21:00:00+01:00"
    let long = "a long afternoon of meetings where the vending machine kept calling my name"
    try #require(
      try nudge.run(
        [
          "review", "--why", "energy for my kids", "--challenge", "sugary-drinks", "--swap",
          "sparkling water", "--commit-to", "drink sparkling water", "--commit-from", "soda",
          "--no-input",
        ], now: "2026-11-20T07:30:00+01:00"
      ).status == 0)
    try #require(
      try nudge.run(["need-help", "--category", "stress", "--note", long, "--no-input"], now: now)
        .status == 0)
    let shown = try nudge.run(["show"], now: now, env: ["COLUMNS": "60"])
    #expect(shown.status == 0)
    let lines = shown.stdout.split(separator: "\n")
    #expect(lines.allSatisfy { TerminalText.columns($0) <= 60 }, "\(shown.stdout)")
    #expect(shown.stdout.contains("My Why: energy for my kids"))
    #expect(shown.stdout.contains("Today I will drink sparkling water instead of soda."))
    #expect(shown.stdout.contains("vending machine"))
    #expect(shown.stdout.contains("[id "))
    let full = try nudge.run(
      ["history", "--full", "--days", "2"], now: now, env: ["COLUMNS": "60"])
    #expect(full.stdout.contains("My swap: sparkling water"))
    #expect(full.stdout.split(separator: "\n").allSatisfy { TerminalText.columns($0) <= 60 })
  }

  @Test func aCheckinAfterMidnightSaysWhichDayItCountsFor() throws {
    let nudge = InProcess()
    let result = try nudge.run(
      ["checkin", "--feel", "tired", "--no-input"], now: "2026-11-21T01:30:00+01:00")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("It counts for Friday 20 November"))
  }

  @Test func backfillingNamesTheDayAndItsTense() throws {
    let nudge = InProcess()
    let now = "2026-11-20T21:00:00+01:00"
    try #require(
      try nudge.run(
        [
          "review", "--day", "2026-11-18", "--commit-to", "walk", "--commit-from", "the bus",
          "--no-input",
        ], now: now
      ).status == 0)
    let checkin = try nudge.typing("y\nproud\n\n", "checkin", "--day", "2026-11-18", now: now)
    #expect(checkin.status == 0, "\(checkin.stderr)")
    #expect(
      checkin.stdout.contains(
        "That morning (Wednesday 18 November): On Wednesday 18 November I will walk"))
    #expect(checkin.stdout.contains("Did you follow your swap on Wednesday 18 November?"))
    #expect(checkin.stdout.contains("You followed your swap that day."))
    #expect(!checkin.stdout.contains("Tomorrow is a fresh try"))
    #expect(!checkin.stdout.contains("This morning"))
    let again = try nudge.run(
      ["checkin", "--day", "2026-11-18", "--followed", "no", "--no-input"], now: now)
    #expect(again.stdout.contains("Updated Wednesday 18 November"))
    #expect(!again.stdout.contains("Filled in"))
  }

  @Test func laterCapturesOfADayGetAQuietAcknowledgement() throws {
    let nudge = InProcess()
    var celebrated = 0
    for minute in 10..<22 {
      let r = try nudge.run(
        ["need-help", "--category", "habit", "--no-input"], now: "2026-11-20T15:\(minute):00+01:00")
      #expect(r.status == 0)
      if r.stdout.contains("New achievement") || r.stdout.split(separator: "\n").count > 2 {
        celebrated += 1
      }
    }
    #expect(celebrated == 1)
  }

  @Test func celebrateWithCelebrationsOffSaysHowToTurnThemOn() throws {
    let nudge = InProcess()
    try #require(try nudge.run(["config", "set", "celebrations", "off"]).status == 0)
    let r = try nudge.run(["celebrate"])
    #expect(r.stdout.contains("Celebrations are off"))
    #expect(r.stdout.contains("nudge config set celebrations on"))
  }

  @Test func aPauseSkipsRemindersKeepsTheStreakAndEndsOrResumes() throws {
    let nudge = InProcess()
    for day in 10...16 {
      try #require(
        try nudge.run(
          ["prep", "--item", "water=yes", "--no-input"], now: "2026-11-\(day)T21:30:00+01:00"
        )
        .status == 0)
    }
    let paused = try nudge.run(["pause", "--for", "5d"], now: "2026-11-17T09:00:00+01:00")
    #expect(paused.status == 0, "\(paused.stderr)")
    #expect(paused.stdout.contains("Paused until Saturday 21 November"))
    let today = try nudge.run([], now: "2026-11-19T09:00:00+01:00")
    #expect(today.stdout.contains("Paused until Sat 21 Nov"))
    // the streak waits through the days off: 7 days, no freeze used
    let streak = try #require(
      try nudge.json("streak", now: "2026-11-22T09:00:00+01:00") as? [String: Any])
    #expect(streak["current"] as? Int == 7)
    #expect((streak["frozen"] as? [Any])?.isEmpty == true)
    #expect(streak["freezes_held"] as? Int == 1)
    let during = try #require(
      try nudge.json("streak", now: "2026-11-19T09:00:00+01:00") as? [String: Any])
    #expect(during["paused_until"] as? String == "2026-11-21")
    // resume ends it early: the rest of the days count again
    let resumed = try nudge.run(["resume"], now: "2026-11-19T10:00:00+01:00")
    #expect(resumed.status == 0, "\(resumed.stderr)")
    let after = try #require(
      try nudge.json("streak", now: "2026-11-22T09:00:00+01:00") as? [String: Any])
    #expect(after["current"] as? Int == 0)
    #expect(try nudge.run(["resume"], now: "2026-11-19T10:00:00+01:00").status == 1)
    // the export carries the pause; a bad length is one line with an example
    let exported = try nudge.run(["export"], now: "2026-11-19T10:00:00+01:00")
    #expect(exported.stdout.contains("\"pauses\""))
    let bad = try nudge.run(["pause", "--for", "soon"], now: "2026-11-19T10:00:00+01:00")
    #expect(bad.status == 64)
    #expect(bad.stderr.contains("nudge pause --for 5d"))
  }

  @Test func theWeekLooksBackAndSuggestsMovingASlot() throws {
    let nudge = InProcess()
    for day in 16...22 {
      try #require(
        try nudge.run(
          ["prep", "--item", "water=yes", "--no-input"], now: "2026-11-\(day)T22:40:00+01:00"
        ).status == 0)
    }
    let week = try nudge.run(["week"], now: "2026-11-22T23:00:00+01:00", env: ["COLUMNS": "60"])
    #expect(week.status == 0, "\(week.stderr)")
    #expect(week.stdout.contains("Your week · Mon 16 Nov – Sun 22 Nov"))
    #expect(week.stdout.contains("Days with a flow: 7 of 7"))
    #expect(week.stdout.contains("nudge schedule set evening 22:15"))
    #expect(week.stdout.split(separator: "\n").allSatisfy { TerminalText.columns($0) <= 60 })
    let before = try #require(
      try nudge.json("week", "--ago", "1", now: "2026-11-22T23:00:00+01:00") as? [String: Any])
    #expect((before["week"] as? [String: Any])?["days_done"] as? Int == 0)
  }

  /// Four fixed weeks (Mon 26 Oct – Sun 22 Nov 2026): two preps, a week off, five preps and a
  /// craving, then a full week with reviews, check-ins and five cravings.
  @Test func theWeekSumsUpAFixedFourWeekHistory() throws {
    let nudge = InProcess()
    func run(_ arguments: [String], _ now: String) throws {
      let r = try nudge.run(arguments + ["--no-input"], now: now)
      try #require(r.status == 0, "\(arguments) at \(now): \(r.stderr)")
    }
    func prep(_ day: String, produce: Bool = true, breakfast: Bool = true) throws {
      try run(
        [
          "prep", "--item", "sticky-notes=yes", "--item", "produce=\(produce ? "yes" : "no")",
          "--item", "water=yes", "--item", "breakfast=\(breakfast ? "yes" : "no")",
        ], "\(day)T21:30:00+01:00")
    }
    func review(_ day: String, to: String, from: String?) throws {
      try run(
        [
          "review", "--why", "energy", "--challenge", "sugary-drinks", "--swap", "water",
          "--commit-to", to,
        ] + (from.map { ["--commit-from", $0] } ?? []), "\(day)T08:00:00+01:00")
    }
    func craving(_ at: String, _ category: String) throws {
      try run(["need-help", "--category", category, "--note", "noted"], at)
    }
    for day in ["2026-10-27", "2026-10-29"] { try prep(day) }
    for day in 9...13 { try prep("2026-11-\(day < 10 ? "0" : "")\(day)") }
    try craving("2026-11-10T20:00:00+01:00", "habit")
    try prep("2026-11-16", produce: false, breakfast: false)
    try prep("2026-11-17", produce: false)
    try prep("2026-11-18", produce: false)
    for day in 19...22 { try prep("2026-11-\(day)") }
    try review("2026-11-17", to: "drink sparkling water", from: "soda")
    try review("2026-11-18", to: "drink sparkling water", from: "soda")
    try review("2026-11-20", to: "walk after lunch", from: nil)
    for (day, followed) in [("17", "yes"), ("18", "no"), ("20", "yes")] {
      try run(["checkin", "--followed", followed], "2026-11-\(day)T20:00:00+01:00")
    }
    try craving("2026-11-17T15:30:00+01:00", "stress")
    try craving("2026-11-18T16:10:00+01:00", "stress")
    try craving("2026-11-19T15:05:00+01:00", "stress")
    try craving("2026-11-19T20:30:00+01:00", "habit")
    try craving("2026-11-21T09:00:00+01:00", "physical")
    let now = "2026-11-22T23:00:00+01:00"
    let week = try nudge.run(["week"], now: now)
    #expect(week.status == 0, "\(week.stderr)")
    for line in [
      "Your week · Mon 16 Nov – Sun 22 Nov",
      "Days with a flow: 7 of 7 (the week before: 5).",
      "Prep 7 · Morning Focus 3 · check-in 3 · cravings noted 5 (the week before: 1).",
      "Prep: produce was not marked ready on 3 of 7 evenings.",
      "Swaps: followed in 2 of 3 check-ins.",
      "Cravings: 3 of 5 were stress, all in the afternoon.",
      "You committed: I will drink sparkling water instead of soda (2 days); I will walk after lunch.",
    ] {
      // (long lines wrap to the terminal: compare the words)
      let words = week.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
      #expect(words.contains(line), "\(line)\n\(week.stdout)")
    }
    let summary =
      try #require(
        try nudge.json("week", now: now) as? [String: Any])["week"] as? [String: Any]
    #expect(
      summary?["cravings_by_time"] as? [String: Int] == [
        "afternoon": 3, "evening": 1, "morning": 1,
      ])
    let third = try nudge.run(["week", "--ago", "1"], now: now)
    #expect(
      third.stdout.contains("Days with a flow: 5 of 7 (the week before: 0)."), "\(third.stdout)")
    #expect(third.stdout.contains("Cravings: one, habit, in the evening."), "\(third.stdout)")
    let off = try nudge.run(["week", "--ago", "2"], now: now)
    #expect(off.stdout.contains("Your week · Mon 2 Nov – Sun 8 Nov"), "\(off.stdout)")
    #expect(off.stdout.contains("Days with a flow: 0 of 7 (the week before: 2)."), "\(off.stdout)")
    #expect(off.stdout.contains("A quiet week."))
  }

  @Test func anExplicitDatabasePathInAMissingFolderIsRefused() throws {
    let nudge = InProcess()
    let path = nudge.home + "/no-such-folder/nudge.sqlite3"
    let r = try nudge.run(["streak"], env: ["NUDGE_DB": path])
    #expect(r.status == 73)
    #expect(r.stderr.contains("does not exist"))
    #expect(!FileManager.default.fileExists(atPath: nudge.home + "/no-such-folder"))
  }
}
