import Testing

@testable import NudgeCore

/// A flow's answers held to its definition: `--answer ID=VALUE` checked, conditions followed,
/// the count rule applied.
@Suite struct FlowAnswersTests {
  let sleep = try! PlanFile.read(BuiltInPlans.texts[1].text).flows[0]
  let review = try! PlanFile.read(BuiltInPlans.texts[0].text).flows[1]

  @Test func answersAreCheckedAndNormalizedAgainstTheirQuestions() throws {
    let answers = try FlowAnswers.parsing(
      ["bedtime=7:05", "wake=06:40", "rested=4", "accept=Y"], for: sleep)
    #expect(answers["bedtime"] == "07:05" && answers["accept"] == "yes")
    #expect(answers.counts(for: sleep))
    #expect(
      throws: FlowAnswers.Refusal(
        message: "rested=9 is not an answer: rested takes a whole number from 1 to 5")
    ) { try FlowAnswers.parsing(["rested=9"], for: sleep) }
    #expect(
      throws: FlowAnswers.Refusal(
        message: "bedtime=25:00 is not an answer: bedtime takes a time of day, HH:MM (23:15)")
    ) { try FlowAnswers.parsing(["bedtime=25:00"], for: sleep) }
    #expect(
      throws: FlowAnswers.Refusal(
        message: "'snore' is not a question of sleep (bedtime, wake, rested, note, accept)")
    ) { try FlowAnswers.parsing(["snore=yes"], for: sleep) }
    #expect(
      throws: FlowAnswers.Refusal(
        message:
          "'bedtime' is not ID=VALUE (e.g. nudge sleep --answer bedtime=23:00 --answer wake=23:00 --answer rested=1)"
      )
    ) { try FlowAnswers.parsing(["bedtime"], for: sleep) }
  }

  @Test func theCountRuleAndConditionsFollowTheDefinition() throws {
    // sleep counts when every required question is answered
    let partial = try FlowAnswers.parsing(["bedtime=23:00", "wake=07:00"], for: sleep)
    #expect(!partial.counts(for: sleep))
    // the review counts on its commitment alone; "in your words" only after "other"
    let committed = try FlowAnswers.parsing(["commit_to=walk"], for: review)
    #expect(committed.counts(for: review))
    #expect(!committed.questionsToAsk(in: review).contains { $0.id == "challenge_other" })
    var other = try FlowAnswers.parsing(
      ["challenge=other", "challenge_other=late TV"], for: review)
    #expect(other.questionsToAsk(in: review).contains { $0.id == "challenge_other" })
    // a later run that changes the challenge drops the words that no longer apply
    other = other.merging(try FlowAnswers.parsing(["challenge=sugary-drinks"], for: review))
      .applying(to: review)
    #expect(other["challenge_other"] == nil && other.answered == 1)
  }
}
