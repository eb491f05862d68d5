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
        message:
          "'snore' is not a question of sleep (bedtime, wake, rested, note, challenge, accept)")
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

  @Test func severalOfIsKeptInOptionOrderAndConditionsFollowChains() throws {
    let plan = try PlanFile.read(
      """
      format = 1
      [plan]
      name = "t"
      title = "T"
      [[flow]]
      id = "f"
      title = "F"
      first = "F"
      counts = "any"
      [[flow.question]]
      id = "a"
      ask = "A?"
      kind = "several-of"
      options = ["x", "y", "z"]
      [[flow.question]]
      id = "b"
      ask = "B?"
      kind = "yes-no"
      when = "a=y"
      [[flow.question]]
      id = "c"
      ask = "C?"
      kind = "text"
      when = "b=yes"

      """)
    let flow = plan.flows[0]
    var answers = try FlowAnswers.parsing(["a=z, y,y", "b=yes", "c=words"], for: flow)
    #expect(answers["a"] == "y,z")
    #expect(answers.questionsToAsk(in: flow).map(\.id) == ["a", "b", "c"])
    #expect(throws: FlowAnswers.Refusal.self) { try FlowAnswers.parsing(["a=x,w"], for: flow) }
    #expect(throws: FlowAnswers.Refusal.self) {
      try FlowAnswers.parsing(["b=+7"], for: flow)
    }
    // y no longer picked: b goes, and c, which depended on b, with it
    answers = answers.merging(try FlowAnswers.parsing(["a=x"], for: flow)).applying(to: flow)
    #expect(answers.values == ["a": "x"])
    // a time is two digits each side, nothing else
    #expect(!Question.Kind.timeOfDay.allows("+7:30") && !Question.Kind.timeOfDay.allows("07:3٠"))
  }
}
