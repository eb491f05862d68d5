import NudgeCore
import Testing

/// The coach's typed answers agree with coach.plan, where their words live: every challenge
/// and craving category the code knows is an option of its question there, in the same order,
/// with the words shown from there.
@Suite struct CoachPlanTests {
  func options(_ flow: String, _ question: String) -> [Question.Option] {
    guard let asked = CoachPlan.flow(flow).questions.first(where: { $0.id == question }),
      case .oneOf(let options) = asked.kind
    else { return [] }
    return options
  }

  @Test func theChallengesAreTheMorningFocusQuestionsOptions() {
    let options = options("review", "challenge")
    #expect(options.map(\.id) == Challenge.allCases.map(\.rawValue))
    #expect(options.map(\.label) == Challenge.allCases.map(\.label))
    #expect(Challenge.sugaryDrinks.label == "Sugary drinks")
  }

  @Test func theCravingCategoriesAreTheNeedHelpQuestionsOptions() {
    let options = options("need-help", "category")
    #expect(options.map(\.id) == HelpCategory.allCases.map(\.rawValue))
    #expect(options.map(\.label) == HelpCategory.allCases.map(\.label))
    #expect(HelpCategory.stress.label == "Stress / emotional")
  }
}
