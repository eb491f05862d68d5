import Foundation
import NudgeCore
import Testing

@testable import NudgeCLI

/// `nudge show`: a day in full.
@Suite struct ShowTests {
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

  @Test func twoNotesAtTheSameClockTimeOfAFallBackNightReadApartInTheirOrder() throws {
    let nudge = InProcess()  // Europe/Berlin: 02:00-03:00 happens twice on 2026-10-25
    for (now, category, note) in [
      ("2026-10-25T02:30:00+01:00", "habit", "second"),
      ("2026-10-25T02:30:00+02:00", "stress", "first"),
      ("2026-10-25T01:15:00+02:00", "other", "early"),
    ] {
      try #require(
        try nudge.run(
          ["need-help", "--category", category, "--note", note, "--no-input"], now: now
        ).status == 0)
    }
    let now = "2026-10-25T12:00:00+01:00"
    let shown = try nudge.run(["show", "yesterday"], now: now)
    let lines = shown.stdout.split(separator: "\n").filter { $0.hasPrefix("  0") }
    #expect(lines.count == 3, "\(shown.stdout)")
    #expect(lines[0].hasPrefix("  01:15 other: early"))
    #expect(lines[1].hasPrefix("  02:30 (+02:00) stress: first"))
    #expect(lines[2].hasPrefix("  02:30 (+01:00) habit: second"))
    let timeline = try nudge.run(["history", "--days", "2"], now: now, env: ["COLUMNS": "200"])
    #expect(
      timeline.stdout.contains(
        "help 01:15 other · help 02:30 (+02:00) stress · help 02:30 (+01:00) habit"),
      "\(timeline.stdout)")
    let full = try nudge.run(["history", "--days", "2", "--full"], now: now)
    #expect(full.stdout.contains("02:30 (+02:00) stress: first"))
    let json = try #require(try history(nudge, now, days: 2).first?["help"] as? [[String: Any]])
    #expect(json.map { $0["note"] as? String } == ["early", "first", "second"])
    // the week: 01:15 and 02:30 are night, not morning
    let week = try nudge.run(["week"], now: now)
    #expect(week.stdout.contains(", all at night."), "\(week.stdout)")
    #expect(!week.stdout.contains("in the morning"), "\(week.stdout)")
    // an ordinary day's times stay bare
    #expect(
      !(try nudge.run(["show", "yesterday"], now: "2026-10-26T12:00:00+01:00").stdout.contains("(+"))
    )
  }
}
