import ArgumentParser
import NudgeCore
import NudgeLinux
import NudgeStore
import NudgeUseCases

/// `nudge WORD`: a flow a plan file defines (`nudge sleep`, `nudge challenge`), run from its
/// definition: its questions asked in order on a terminal (a draft kept as each is answered),
/// or answered with `--answer ID=VALUE`; saved, journaled, awarded and celebrated as the
/// coach's flows are.
struct DefinedFlowCommand: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "flow", abstract: "Run a flow a plan defines.", shouldDisplay: false)

  @Argument(help: "The flow's word (see 'nudge plan list').")
  var word: String

  @Option(
    name: .customLong("answer"),
    help: ArgumentHelp("Answer a question: ID=VALUE (repeatable).", valueName: "id=value"))
  var answers: [String] = []

  @OptionGroup var options: FlowOptions

  /// Whether `word`, first on the command line, names a flow some plan defines (on or off:
  /// `run` says when its plan is off). Nudge's own commands come first; the plan files are
  /// read only for a word that is none of them.
  static func mayName(_ word: String, environment: [String: String]) -> Bool {
    guard FlowDefinition.isWord(word), !Nudge.commandWords.contains(word) else { return false }
    return Context.definedFlowWords(
      Context.planCatalogue(environment, files: LinuxPlatform().files)
    ).contains(word)
  }

  func run(_ ctx: Context) throws {
    let db = try ctx.openDatabase()
    let plans = try ctx.plans(db)
    guard let (flow, plan) = plans.flow(word) else {
      throw CLIError(
        "'\(word)' is not a command or a flow of a plan; see 'nudge --help' and 'nudge plan list'.",
        code: .usage)
    }
    guard plans.isOn(plan) else {
      throw CLIError(
        "'nudge \(word)' is a flow of the \(plan.name) plan, which is off; turn it on with 'nudge plan on \(plan.name)'.",
        code: .usage)
    }
    var given: FlowAnswers
    do { given = try FlowAnswers.parsing(answers, for: flow) } catch {
      throw CLIError(error.message + ".", code: .usage)
    }
    let interactive = try ctx.isInteractive(
      noInput: options.noInput, hasAnswers: !answers.isEmpty, example: flow.example)
    let flowDay = try ctx.flowDay(db, options)
    var existing: AnsweredEntry? = nil
    if case .answered(let stored)? = try db.entry(.defined(word), on: flowDay.day) {
      existing = stored
    }
    if interactive {
      given = try ask(flow, ctx, db, flowDay, existing: existing, given: given)
    }
    let merged = (existing?.answers ?? FlowAnswers()).merging(given).applying(to: flow)
    guard merged.counts(for: flow) else {
      if interactive {
        try db.removeDraft(.defined(word), on: flowDay.day)
        ctx.line("Nothing saved: \(flow.countsRule).")
        return
      }
      throw CLIError(
        "nothing to save: \(flow.countsRule), e.g. \(flowDay.pasteable(flow.example + " --no-input")).",
        code: .usage)
    }
    let freezesBefore = options.json ? nil : try ctx.freezesHeld(db, flowDay)
    let completed = try FinishFlow(db: db)(
      flow, answers: given, day: flowDay.day, savedAt: flowDay.savedAt, madeOn: flowDay.today,
      editing: flowDay.editing, removingDraft: interactive,
      reward: ctx.reward(flowDay, options))
    if options.json {
      ctx.line(try jsonText(completed.entry))
      return
    }
    let verb = flowDay.editing ? "edited" : completed.updated ? "updated" : "saved"
    // "✓ Night logged." for a new entry; "✓ Last night updated for Monday 23 November."
    ctx.line(
      ctx.style.green("✓") + " "
        + (verb == "saved" && !flowDay.isPast
          ? VisibleText.escaped(flow.saved)
          : "\(VisibleText.escaped(flow.title)) \(verb)"
            + (flowDay.isPast ? " for \(flowDay.day.long)." : ".")))
    try ctx.finished(db, completed, flowDay, options, freezesBefore: freezesBefore)
  }

  /// Asks the flow's questions in order on the terminal, those a `--answer` gave aside and
  /// those whose `when` does not hold skipped; each answer is kept as the draft at once.
  private func ask(
    _ flow: FlowDefinition, _ ctx: Context, _ db: AppDatabase, _ flowDay: FlowDay,
    existing: AnsweredEntry?, given: FlowAnswers
  ) throws -> FlowAnswers {
    let kept = try DraftAnswers.start(ctx, db, .defined(flow.word), flowDay)
    ctx.line(
      ctx.style.bold(VisibleText.escaped(flow.title))
        + (flowDay.isPast ? ctx.style.dim("  (\(flowDay.activity))") : ""))
    var answers = given
    for question in flow.questions where given[question.id] == nil {
      let sofar = (existing?.answers ?? FlowAnswers()).merging(answers)
      guard sofar.questionsToAsk(in: flow).contains(where: { $0.id == question.id }) else {
        continue
      }
      let current = existing?.answers[question.id] ?? question.offered
      let label = VisibleText.escaped(question.ask)
      let answer = try kept.text(question.id, label) {
        try QuestionAsker(prompter: kept.prompter).ask(question, current: current)
      }
      if let answer {
        try? answers.set(question.id, to: answer, in: flow)
      }
    }
    return answers
  }
}

/// Asks one question of a defined flow by its kind, until the answer is one it takes.
struct QuestionAsker {
  let prompter: Prompter

  /// The answer in its stored form; nil when an optional question is skipped.
  func ask(_ question: Question, current: String?) throws -> String? {
    let label = VisibleText.escaped(question.ask)
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
          let typed = try prompter.text(prompt, current: current, required: question.required)
        else { return nil }
        let answer = question.kind.normalized(typed)
        if question.kind.allows(answer) { return answer }
        ctx.line(ctx.style.yellow("That answer is not one it takes: \(question.kind.takes)."))
      }
    }
  }
}

extension Context {
  /// The words of every flow a plan file defines, on or off (the coach's aside): what a
  /// `nudge://` link's host and the word after `nudge` may name.
  var definedFlowWords: Set<String> { Self.definedFlowWords(planCatalogue()) }

  static func definedFlowWords(_ catalogue: PlanCatalogue) -> Set<String> {
    Set(
      catalogue.entries.filter { $0.plan.name != PlanSet.coach }
        .flatMap { $0.plan.flows.map(\.word) })
  }
}

extension FlowDefinition {
  /// What makes an entry count, said as a clause: "an entry needs bedtime, wake and rested".
  var countsRule: String {
    switch counts {
    case .anyAnswer: "an entry needs an answer"
    case .anyOf(let ids): "an entry needs one of " + ids.joined(separator: ", ")
    case .requiredAnswered:
      "an entry needs " + questions.filter(\.required).map(\.id).joined(separator: ", ")
    }
  }
}
