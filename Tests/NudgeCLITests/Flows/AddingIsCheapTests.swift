import Foundation
import NudgeCore
import Testing

@testable import NudgeCLI

/// Adding things is cheap, and proven: with nothing else changed, a sixth flow written into
/// coach.plan is asked, stored, shown, exported and counted, and a reminder of the coach's own
/// gets its schedule, as ARCHITECTURE.md's "Adding things" says.
@Suite struct AddingIsCheapTests {
  /// coach.plan as it ships, with one flow and one reminder time more: what a release that
  /// adds them to plans/coach.plan compiles in.
  static let coachWithASixthFlow =
    CoachPlan.text + """

      [[slot]]
      id = "afternoon"
      at = "15:30"
      title = "A glass of water?"

      [[flow]]
      id = "water-glasses"
      word = "glasses"
      title = "Glasses of water"
      slot = "afternoon"
      reminder = "How many glasses so far?"
      counts = ["count"]
      first = "First glasses counted"
      saved = "Glasses counted."

      [[flow.question]]
      id = "count"
      ask = "Glasses of water so far today?"
      kind = "number"
      unit = "glasses"
      min = 0
      max = 40

      """

  static func nudge() -> InProcess {
    var nudge = InProcess()
    nudge.builtInPlans = BuiltInPlans.texts.map {
      $0.name == "coach" ? ($0.name, coachWithASixthFlow) : $0
    }
    return nudge
  }

  @Test func aSixthFlowInCoachPlanIsAskedStoredShownExportedAndCounted() throws {
    let nudge = Self.nudge()
    // asked, at a terminal, by its definition
    let asked = try nudge.typing("5\n", "glasses", "--no-animation")
    #expect(asked.status == 0, "\(asked.stderr)")
    #expect(asked.stdout.contains("Glasses of water so far today?"), "\(asked.stdout)")
    #expect(asked.stdout.contains("Glasses counted."), "\(asked.stdout)")
    // stored, as every flow's entry is
    let days = try #require(try nudge.json("history", "--days", "1") as? [[String: Any]])
    let entry = (days.first?["flows"] as? [String: Any])?["glasses"] as? [String: Any]
    #expect(entry?["answers"] as? [String: String] == ["count": "5"], "\(days)")
    // shown
    let shown = try nudge("show")
    #expect(shown.stdout.contains("Glasses of water\n"), "\(shown.stdout)")
    #expect(shown.stdout.contains("Glasses of water so far today?: 5 glasses"), "\(shown.stdout)")
    // exported, and taken back by an import into an empty home with the same plans
    let exported = try nudge("export")
    #expect(exported.status == 0)
    #expect(exported.stdout.contains("\"glasses\""), "\(exported.stdout)")
    let other = Self.nudge()
    let imported = try other.run(["import", "-"], stdin: exported.stdout)
    #expect(imported.status == 0, "\(imported.stderr)")
    #expect(try other("show").stdout.contains("Glasses of water so far today?: 5 glasses"))
    // counted: the streak, and its first achievement in the plan's words
    let streak = try #require(try nudge.json("streak") as? [String: Any])
    #expect(streak["current"] as? Int == 1, "\(streak)")
    let achievements = try #require(try nudge.json("achievements") as? [[String: Any]])
    let first = achievements.first { $0["key"] as? String == "first-glasses" }
    #expect(first?["title"] as? String == "First glasses counted", "\(achievements)")
    #expect(first?["earned_on"] as? String == "2026-11-20")
    // its link opens it, and the coach's four are still the coach's own commands
    #expect(throws: Never.self) { try DeepLink.parse("nudge://glasses", flowWords: ["glasses"]) }
    let prep = try nudge("prep", "--item", "water=yes", "--no-input", "--no-animation")
    #expect(prep.status == 0, "\(prep.stderr)")
  }

  @Test func aReminderTimeInCoachPlanGetsItsScheduleAndOffersItsFlow() throws {
    let nudge = Self.nudge()
    let schedules = try #require(
      try nudge.json("schedule", "list") as? [[String: Any]])
    let afternoon = schedules.first { $0["slot"] as? String == "coach.afternoon" }
    #expect(afternoon?["expression"] as? String == "*-*-* 15:30:00", "\(schedules)")
    #expect(afternoon?["enabled"] as? Bool == true, "\(schedules)")
    let listed = try nudge("plan", "show", "coach")
    #expect(listed.stdout.contains("nudge glasses"), "\(listed.stdout)")
  }

  /// The coach is always on, whatever a choice from outside (an import, a sync line) says, and
  /// its compiled flows keep their built-in slots: a flow added with a built-in slot is
  /// offered after them, never instead.
  @Test func theCoachStaysOnAndKeepsItsSlots() throws {
    let catalogue = PlanCatalogue.load(
      builtIn: [("coach", Self.coachWithASixthFlow)], files: [], commandWords: [])
    let plans = PlanSet(catalogue: catalogue, choices: ["coach": false])
    let coach = try #require(catalogue.plan(named: "coach")?.plan)
    #expect(plans.isOn(coach))
    #expect(plans.flowsOn.map(\.word) == ["glasses"])
    for (slot, flow) in [("morning", "review"), ("midday", "need-help"), ("evening", "prep")] {
      #expect(CoachPlan.flow(offeredBy: slot)?.id == flow)
    }
    #expect(CoachPlan.flow(offeredBy: "weekly") == nil)
  }

  /// The plans as they ship have no such flow: the test above is the added lines' doing.
  @Test func withoutTheAddedLinesThereIsNoSuchFlow() throws {
    let plain = InProcess()
    #expect(try plain("glasses", "--no-input").status == 64)
  }
}
