import Foundation
import NudgeCore
import Testing

@testable import NudgeCLI

/// Habits to quit (`--quit`): every day clean but a slip (`habit slip`); the streak counts
/// clean days, a slip is recorded without a celebration, the next day starts a new run with a
/// kind word; 7, 30 and 100 clean days are achievements; the kind travels in the export.
@Suite struct HabitQuitTests {
  static let added = "2026-11-10T08:00:00+01:00"

  @Test func cleanDaysCountAndASlipStartsANewRun() throws {
    let nudge = InProcess()
    let add = try nudge("habit", "add", "Smoking", "--quit", now: Self.added)
    #expect(add.status == 0, "\(add.stderr)")
    #expect(add.stdout.contains("to quit"), "\(add.stdout)")
    let slip = try nudge(
      "habit", "slip", "smoking", "--note", "party", now: "2026-11-13T23:00:00+01:00")
    #expect(slip.status == 0, "\(slip.stderr)")
    #expect(slip.stdout.contains("Recorded a slip of 'Smoking' today"), "\(slip.stdout)")
    #expect(slip.stdout.contains("Best so far: 3 clean days"), "\(slip.stdout)")
    // no celebration, no achievement for a slip
    #expect(!slip.stdout.contains("🎆") && !slip.stdout.contains("achievement"), "\(slip.stdout)")
    // the next day: a new run, said kindly
    let next = try nudge("today", now: "2026-11-14T09:00:00+01:00").stdout
    #expect(next.contains("Smoking: a new run starts today; be kind to yourself"), "\(next)")
    let later = try nudge("today", now: "2026-11-16T09:00:00+01:00").stdout
    #expect(
      later.contains("Smoking: 3 clean days in a row; a slip: nudge habit slip Smoking"), "\(later)"
    )
    let list = try #require(
      try nudge.json("habit", "list", now: "2026-11-20T09:00:00+01:00") as? [[String: Any]])
    let smoking = try #require(list.first)
    #expect(smoking["quit"] as? Bool == true)
    #expect(smoking["question"] as? String == "Clear of Smoking today?")
    #expect(smoking["streak"] as? Int == 7)
    #expect(smoking["best_streak"] as? Int == 7)
    #expect(smoking["today"] as? String == "due")
    // habit show and week count every day clean but the slip
    let show = try nudge("habit", "show", "smoking", now: "2026-11-20T09:00:00+01:00").stdout
    #expect(show.contains("Last 11 days: 10 clean, 1 slip"), "\(show)")
    let week = try nudge("week", now: "2026-11-20T09:00:00+01:00").stdout
    #expect(week.contains("Smoking: clean 5 of 5 days · streak 7 days"), "\(week)")
    // a clean day said on the 20th earns 7 clean days
    let clean = try nudge("habit", "done", "smoking", now: "2026-11-20T21:00:00+01:00")
    #expect(clean.stdout.contains("7 clean days in a row"), "\(clean.stdout)")
    let earned = try #require(
      try nudge.json("achievements", now: "2026-11-20T21:00:00+01:00") as? [[String: Any]])
    let quit7 = try #require(earned.first { $0["key"] as? String == "quit-days-7" })
    #expect(quit7["earned_on"] as? String == "2026-11-20", "\(quit7)")
    // the kind travels in the export
    let export = try nudge("export", now: "2026-11-20T21:00:00+01:00").stdout
    #expect(export.contains("\"quit\" : true"), "\(export.prefix(400))")
  }

  @Test func aSlipIsOnlyForAHabitToQuitAndQuitTakesNoTarget() throws {
    let nudge = InProcess()
    #expect(try nudge("habit", "add", "Run", now: Self.added).status == 0)
    let slip = try nudge("habit", "slip", "run", now: Self.added)
    #expect(slip.status == 64)
    #expect(
      slip.stderr.contains(
        "'Run' is not a habit to quit; a day it was not done: nudge habit fail Run"),
      "\(slip.stderr)")
    // nor does an edit make it one
    #expect(try nudge("habit", "add", "Smoking", "--quit", now: Self.added).status == 0)
    let edit = try nudge(
      "habit", "edit", "smoking", "--target", "3", "--unit", "cigs", now: Self.added)
    #expect(edit.status == 64, "\(edit.stderr)")
    #expect(edit.stderr.contains("'Smoking' is a habit to quit"), "\(edit.stderr)")
    for args in [
      ["--quit", "--target", "3", "--unit", "cigs"], ["--quit", "--at-most", "2", "--unit", "x"],
      ["--quit", "--every", "3/week"],
    ] {
      let refused = try nudge.run(["habit", "add", "Smoking"] + args, now: Self.added)
      #expect(refused.status == 64, "\(args): \(refused.stderr)")
      #expect(refused.stderr.split(separator: "\n").count == 1)
    }
  }
}
