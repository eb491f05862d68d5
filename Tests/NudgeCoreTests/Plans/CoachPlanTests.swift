import NudgeCore
import Testing

/// The coach's typed answers agree with coach.plan, where their words live: every challenge
/// and craving category the code knows is an option of its question there, in the same order,
/// and shows the words written there.
@Suite struct CoachPlanTests {
  func options(_ flow: String, _ question: String) -> [Question.Option] {
    guard let asked = CoachPlan.flow(flow).questions.first(where: { $0.id == question }),
      case .oneOf(let options) = asked.kind
    else { return [] }
    return options
  }

  /// The value compiled in (scripts/builtin-plans) is what the plan file reader makes of
  /// coach.plan's text: the file stays the one place the coach is written.
  @Test func theCompiledCoachIsWhatItsFileReadsAs() throws {
    #expect(try PlanFile.read(CoachPlan.text) == CoachPlan.plan)
    #expect(CoachPlan.plan.flows.map(\.id) == ["prep", "review", "checkin", "need-help"])
  }

  @Test func theChallengesAreTheMorningFocusQuestionsOptions() {
    let options = options("review", "challenge")
    #expect(options.map(\.id) == Challenge.allCases.map(\.rawValue))
    #expect(Challenge.sugaryDrinks.label == "Sugary drinks")
  }

  @Test func theCravingCategoriesAreTheNeedHelpQuestionsOptions() {
    let options = options("need-help", "category")
    #expect(options.map(\.id) == HelpCategory.allCases.map(\.rawValue))
    #expect(HelpCategory.stress.label == "Stress / emotional")
  }
}
