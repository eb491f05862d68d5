import Foundation
import NudgeCore
import Testing

/// Streaks, achievements and celebrations through the real binary with NUDGE_NOW.
@Suite struct RewardCommandTests {
  func streak(_ nudge: InProcess, at now: String) throws -> [String: Any] {
    try #require(try nudge.json("streak", now: now) as? [String: Any])
  }

  @Test func savesAt0040And0359CountForTheEveningBefore() throws {
    let nudge = InProcess()
    try nudge("need-help", "--category", "other", "--no-input", now: "2026-11-18T20:00:00+01:00")
    // 19th
    try nudge("prep", "--item", "water=yes", "--no-input", now: "2026-11-20T00:40:00+01:00")
    // 20th
    try nudge("prep", "--item", "water=yes", "--no-input", now: "2026-11-21T03:59:00+01:00")
    let s = try streak(nudge, at: "2026-11-21T04:00:00+01:00")
    #expect(s["current"] as? Int == 3)
    #expect(s["today_done"] as? Bool == false)
    // 21st
    try nudge("prep", "--item", "water=yes", "--no-input", now: "2026-11-21T04:00:00+01:00")
    let after = try streak(nudge, at: "2026-11-21T05:00:00+01:00")
    #expect(after["current"] as? Int == 4)
    #expect(after["today_done"] as? Bool == true)
  }

  @Test func oneMissedDayIsFrozenAfterAWeekAndTwoBreak() throws {
    let nudge = InProcess()
    for day in 1...7 {
      try nudge(
        "checkin", "--feel", "fine", "--no-input",
        now: String(format: "2026-11-%02dT21:00:00+01:00", day))
    }
    // the 8th is missed; the 9th is done
    try nudge("checkin", "--feel", "fine", "--no-input", now: "2026-11-09T21:00:00+01:00")
    let s = try streak(nudge, at: "2026-11-09T22:00:00+01:00")
    #expect(s["current"] as? Int == 8)
    #expect(s["frozen"] as? [String] == ["2026-11-08"])
    #expect(s["freezes_held"] as? Int == 0)
    // the 10th and 11th are missed: on the 12th the streak is gone
    let broken = try streak(nudge, at: "2026-11-12T09:00:00+01:00")
    #expect(broken["current"] as? Int == 0)
    #expect(broken["longest"] as? Int == 8)
    let achievements = try #require(try nudge.json("achievements") as? [[String: Any]])
    let earned = Dictionary(
      uniqueKeysWithValues: achievements.map { ($0["key"] as! String, $0["earned_on"] as? String) })
    #expect(earned["first-checkin"] == "2026-11-01")
    #expect(earned["streak-3"] == "2026-11-03")
    #expect(earned["streak-7"] == "2026-11-07")
    #expect(earned["swaps-10"]! == nil)
  }

  @Test func streakSurvivesSpringForwardAndATripWest() throws {
    let nudge = InProcess()
    // Berlin, DST starts 2026-03-29 02:00 -> 03:00
    try nudge("prep", "--item", "water=yes", "--no-input", now: "2026-03-28T23:30:00+01:00")
    // still the 28th
    try nudge("prep", "--item", "water=yes", "--no-input", now: "2026-03-29T03:30:00+02:00")
    try nudge("prep", "--item", "water=yes", "--no-input", now: "2026-03-29T21:00:00+02:00")
    // then a flight to New York: 22:00 local on the 30th is 04:00 on the 31st in Berlin
    let ny = ["TZ": "America/New_York"]
    #expect(
      try nudge(
        "review", "--swap", "tea", "--commit-to", "tea", "--no-input",
        now: "2026-03-30T22:00:00-04:00", env: ny
      )
      .status == 0)
    let history = try #require(
      try nudge.json("history", "--days", "4", now: "2026-03-31T12:00:00+02:00") as? [[String: Any]]
    )
    let done = history.filter { ($0["prep"] is [String: Any]) || ($0["review"] is [String: Any]) }
      .map { $0["date"] as! String }
    #expect(done == ["2026-03-28", "2026-03-29", "2026-03-30"])
    let result = try nudge("streak", "--json", now: "2026-03-30T23:00:00-04:00", env: ny)
    #expect(result.stdout.contains("\"current\" : 3"))
  }

  @Test func celebrationIsOneCleanLineWhenPiped() throws {
    let nudge = InProcess()
    let result = try nudge("prep", "--item", "water=yes", "--no-input", env: ["NUDGE_SEED": "5"])
    let last = try #require(result.stdout.split(separator: "\n").last.map(String.init))
    // a new achievement is always fireworks; a first time gets a first time's words
    let announced = CelebrationMoment.first.messages.map {
      "🎆 \($0) New achievement: First prep."
    }
    #expect(announced.contains(last), "\(last)")
    #expect(!result.stdout.contains("\u{1B}"))
    for tier in ["quiet", "spark", "confetti", "fireworks"] {
      let replay = try nudge("celebrate", "--tier", tier, env: ["TERM": "xterm-256color"])
      #expect(replay.status == 0)
      #expect(replay.stdout.split(separator: "\n").count == 1, "\(tier): \(replay.stdout)")
      #expect(!replay.stdout.contains("\u{1B}"))
    }
  }

  @Test func seededRewardsAreReproducibleAndCelebrationsCanBeTurnedOff() throws {
    func run(_ seed: String, off: Bool = false) throws -> [String] {
      let nudge = InProcess()
      if off { try nudge("config", "set", "celebrations", "off") }
      return try (1...6).map { day in
        let r = try nudge(
          "need-help", "--category", "habit", "--no-input",
          now: String(format: "2026-11-%02dT12:00:00+01:00", day), env: ["NUDGE_SEED": seed])
        return String(r.stdout.split(separator: "\n").last ?? "")
      }
    }
    let eleven = try run("11")
    #expect(try run("11") == eleven)
    // the seed decides the draws: another one draws other messages over the six days
    #expect(try run("12") != eleven)
    // the first day's draw is the core's draw 0 with seed 11: a first help, its achievement
    let first = try #require(
      RewardDraw(seed: 11).celebration(
        number: 0, newAchievements: [.firstHelp], updated: false, celebrationsOn: true,
        recentMessages: [], moment: .first))
    #expect(eleven[0].contains(first.message), "\(eleven[0]) (drawn: \(first.message))")
    let quiet = try run("11", off: true)
    #expect(quiet.allSatisfy { $0.hasPrefix("✓") }, "\(quiet)")
    #expect(quiet[0].contains("New achievement: First call for help."))
  }

  @Test func celebrateReplaysOnlyEarnedAchievements() throws {
    let nudge = InProcess()
    let locked = try nudge("celebrate", "streak-7")
    #expect(locked.status == 1)
    #expect(locked.stdout.contains("Keep a 7-day streak (it earns a streak freeze"))
    #expect(try nudge("celebrate", "no-such-thing").status == 64)
    try nudge("need-help", "--category", "stress", "--no-input")
    let replay = try nudge("celebrate", "first-help", now: "2026-11-27T09:00:00+01:00")
    #expect(replay.status == 0)
    #expect(
      replay.stdout.contains("Achievement: First call for help, earned Friday 20 November 2026."))
    #expect(!replay.stdout.contains("New achievement"))
    // by title too
    #expect(try nudge("celebrate", "First call for help").status == 0)
  }

  @Test func plainCelebrateReplaysTheLatestCelebration() throws {
    let nudge = InProcess()
    let nothing = try nudge("celebrate")
    #expect(nothing.status == 0)
    #expect(nothing.stdout.contains("Nothing to celebrate yet"))
    let saved = try nudge("prep", "--item", "water=yes", "--no-input")
    let announced = try #require(saved.stdout.split(separator: "\n").last.map(String.init))
    #expect(try nudge("celebrate").stdout.trimmingCharacters(in: .newlines) == announced)
  }

  @Test func frozenDaysAreMarkedInTheHistoryTheRingAndTheHeatmap() throws {
    let nudge = InProcess()
    for day in 1...8 where day != 8 {
      try nudge(
        "need-help", "--category", "habit", "--no-input",
        now: String(format: "2026-12-%02dT12:00:00+01:00", day))
    }
    // the 8th is missed and frozen by the freeze the first 7 days earned
    let now = "2026-12-09T12:00:00+01:00"
    try nudge("need-help", "--category", "habit", "--no-input", now: now)
    let history = try nudge("history", "--days", "3", now: now).stdout
    #expect(history.contains("Tue 8 Dec  * frozen"), "\(history)")
    let streak = try nudge("streak", now: now).stdout
    #expect(streak.contains("(the last 7 days)"))
    #expect(streak.contains("* frozen (streak kept)"))
    #expect(streak.contains("21 Sep"), "\(streak)")  // the first column's Monday
    let today = try nudge(now: "2026-12-09T12:00:00+01:00").stdout
    #expect(today.contains("yesterday frozen (streak kept)"), "\(today)")
  }
}
