import Foundation
import NudgeCore
import Testing

@testable import NudgeCLI

/// `nudge week`: what it sums up and suggests.
@Suite struct WeekTests {
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
    let morning = "2026-11-20T07:30:00+01:00"
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
}
