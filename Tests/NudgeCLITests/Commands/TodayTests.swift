import Foundation
import NudgeCore
import Testing

@testable import NudgeCLI

/// `nudge` with no arguments: the today view, without the argument parser.
@Suite struct TodayTests {
  @Test func noArgumentsIsTheTodayCommandUnparsed() throws {
    #expect(try NudgeMain.parse([], environment: [:]) is TodayCommand)
    #expect(try NudgeMain.parse(["today"], environment: [:]) is TodayCommand)
  }

  @Test func nudgeAloneSaysWhatNudgeTodaySays() throws {
    let nudge = InProcess()
    _ = try nudge.run(
      ["prep", "--item", "water=yes", "--no-input"], now: "2026-11-19T21:00:00+01:00")
    let alone = try nudge.run([], now: "2026-11-19T21:05:00+01:00")
    let today = try nudge.run(["today"], now: "2026-11-19T21:05:00+01:00")
    #expect(alone.stdout == today.stdout)
    #expect(alone.stdout.contains("Good evening"), "\(alone.stdout)")
  }
}
