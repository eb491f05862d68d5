import NudgeCore

/// Asks one question of a defined flow by its kind, until the answer is one it takes.
struct QuestionAsker {
  let prompter: Prompter

  /// The answer in its stored form; nil when an optional question is skipped.
  /// `required`: asked again until answered (a required question, or the one the entry counts
  /// on). `words`: what it is asked in (`Question.words`: a past day's, or after an answer).
  func ask(_ question: Question, words: String, current: String?, required: Bool) throws
    -> String?
  {
    let label = VisibleText.escaped(words)
    switch question.kind {
    case .yesNo:
      return try prompter.yesNo(label, current: current.flatMap(yesNoValue)) ? "yes" : "no"
    case .oneOf(let options):
      return try prompter.choose(
        label, options: options, key: \.id, label: { VisibleText.escaped($0.label) },
        current: options.first { $0.id == current }
      ).id
    default:
      let ctx = prompter.ctx
      if case .severalOf(let options) = question.kind {
        ctx.line(label)
        for option in options {
          ctx.line("  \(ctx.style.bold(option.id))  \(VisibleText.escaped(option.label))")
        }
      }
      let prompt =
        switch question.kind {
        case .severalOf: "Which? (ids, joined by commas)"
        case .number(let unit?, _, _): "\(label) (\(VisibleText.escaped(unit)))"
        case .timeOfDay: "\(label) (HH:MM)"
        default: label
        }
      while true {
        guard
          let typed = try prompter.text(prompt, current: current, required: required)
        else { return nil }
        let answer = question.kind.normalized(typed)
        if question.kind.allows(answer) { return answer }
        ctx.line(ctx.style.yellow("That answer is not one it takes: \(question.kind.takes)."))
      }
    }
  }
}
