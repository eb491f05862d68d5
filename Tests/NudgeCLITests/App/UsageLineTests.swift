import Foundation
import NudgeCore
import Testing

@testable import NudgeCLI

/// Usage errors: one line, the word meant, where to read more; diagnosed from the arguments and the commands' shape.
@Suite struct UsageLineTests {
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
    // help asked of a word that is none of a group's commands: not the default command's help
    (["habit", "shw", "--help"], "Did you mean 'show'?"),
    (["help", "schedule", "sett"], "Did you mean 'set'?"),
    (["config", "frobnicate", "-h"], "is not a 'config' command"),
  ])
  func everyUnknownWordGetsTheWordItProbablyMeant(arguments: [String], hint: String) throws {
    let morning = "2026-11-20T08:00:00+01:00"
    let result = try InProcess().run(arguments)
    #expect(result.status == 64)
    #expect(result.stderr.contains(hint), "\(result.stderr)")
    #expect(result.stderr.split(separator: "\n").count == 1)
  }

  /// Help asked under a group still reaches every command's help, hidden ones too, and a
  /// command's own words before `--help` are its own.
  @Test(arguments: [
    ["habit", "--help"], ["habit", "show", "Stretch", "--help"], ["habit", "tags", "--help"],
    ["help", "habit", "add"], ["sync", "--help"], ["schedule", "set", "--help"],
  ])
  func helpUnderAGroupStillReachesItsCommands(arguments: [String]) throws {
    let result = try Nudge().run(arguments)
    #expect(result.status == 0, "\(arguments): \(result.stderr)")
    #expect(result.stdout.contains("USAGE:"), "\(arguments)")
  }

  func problem(_ arguments: [String]) -> UsageProblem? {
    do {
      _ = try NudgeCLI.Nudge.parse(arguments)
      return nil
    } catch {
      return UsageProblem.diagnose(arguments, error: error)
    }
  }

  @Test func theProblemIsFoundFromTheArgumentsAndTheCommandsShape() {
    #expect(problem(["stats"]) == .notACommand("stats"))
    #expect(
      problem(["schedule", "sett", "morning", "9pm"])
        == .notASubcommand(
          "sett", command: "schedule",
          subcommands: ["list", "set", "on", "off", "normalize", "preview"]))
    #expect(
      problem(["schedule", "set", "mornin", "9pm"])
        == .notAllowed(
          "mornin", argument: "<slot>", allowed: ["morning", "midday", "evening", "weekly"]))
    #expect(
      problem(["need-help", "--no-input", "--category=stres"])
        == .notAllowed(
          "stres", argument: "--category <stress|habit|physical|other>",
          allowed: ["stress", "habit", "physical", "other"]))
    // a value after an option that takes any value is not mistaken for a positional
    #expect(
      problem(["notify", "--wait", "5", "mornin"])
        == .notAllowed(
          "mornin", argument: "<slot>",
          allowed: ["morning", "midday", "evening", "weekly", "demo"]))
    // a value a type takes by another name (y for yes) is not the problem; what is, is
    #expect(
      problem(["checkin", "--followed", "y", "--feel"])
        == .other("Missing value for '--feel <text>'"))
    #expect(
      problem(["celebrate", "7-day streak", "--tier", "hugee"])
        == .notAllowed(
          "hugee", argument: "--tier <quiet|spark|confetti|fireworks>",
          allowed: ["quiet", "spark", "confetti", "fireworks"]))
    // a list argument-parser gives a line each is folded into the one line
    guard case .other(let folded) = problem(["config", "get", "--", "terminl"]) else {
      Issue.record("not argument-parser's own line")
      return
    }
    #expect(
      folded.hasSuffix(
        "one of the following: 'rollover-hour', 'celebrations', 'terminal', 'staleness.morning', 'staleness.midday', 'staleness.evening', 'staleness.weekly', 'snooze', 'week-start'"
      ))
    // what it cannot place is argument-parser's own first line
    #expect(
      problem(["prep", "--dya", "yesterday"])
        == .other("Unknown option '--dya'. Did you mean '--day'?"))
  }
}
