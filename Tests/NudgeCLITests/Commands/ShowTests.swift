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
}
