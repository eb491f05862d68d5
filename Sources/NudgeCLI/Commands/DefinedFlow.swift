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

  @Flag(help: "Offer a different challenge than the one chosen first (a flow with a challenge).")
  var another = false

  @OptionGroup var options: FlowOptions

  /// Whether `word`, first on the command line, names a flow some plan defines (on or off:
  /// `run` says when its plan is off). Nudge's own commands come first; the plan files are
  /// read only for a word that is none of them.
  static func definition(
    _ word: String, environment: @autoclosure () -> [String: String],
    builtIn: [(name: String, text: String)] = BuiltInPlans.texts
  ) -> (flow: FlowDefinition, plan: Plan)? {
    guard FlowDefinition.isWord(word), !Nudge.commandWords.contains(word) else { return nil }
    let catalogue = Context.planCatalogue(
      environment(), files: LinuxPlatform().files, builtIn: builtIn)
    return PlanSet(catalogue: catalogue, choices: [:]).flow(word)
  }

  /// The set-aside plan file that names `word` as a flow's word, when no plan read defines it
  /// (a broken file: `nudge walk` then says where and why, not "not a command").
  static func setAside(_ word: String, environment: @autoclosure () -> [String: String])
    -> PlanCatalogue.Problem?
  {
    guard FlowDefinition.isWord(word), !Nudge.commandWords.contains(word) else { return nil }
    let files = LinuxPlatform().files
    let catalogue = Context.planCatalogue(environment(), files: files)
    guard PlanSet(catalogue: catalogue, choices: [:]).flow(word) == nil else { return nil }
    return catalogue.problems.first { problem in
      guard let text = files.text(problem.file, limit: PlanFile.maxBytes) else { return false }
      return text.split(separator: "\n").contains { line in
        let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingSpaces }
        return parts.count == 2 && parts[0] == "word" && parts[1] == "\"\(word)\""
      }
    }
  }

  /// `nudge WORD --help`: what it asks and what it takes.
  static func help(_ flow: FlowDefinition, plan: Plan) -> String {
    var lines = [
      "OVERVIEW: \(VisibleText.escaped(flow.title)) (a flow of the \(plan.name) plan; plan files: man nudge, PLAN FILES).",
      "",
      "USAGE: nudge \(flow.word) [--answer <id=value> ...] [--day <day>] [--no-input] [--json] [--no-animation]"
        + (flow.challengeQuestion == nil ? "" : " [--another]"),
      "",
      "QUESTIONS (--answer ID=VALUE, repeatable; * an entry needs it):",
    ]
    for question in flow.questions {
      let needed = question.required || flow.counts == .anyOf([question.id]) ? "*" : " "
      lines.append(
        "  \(needed) \(question.id.padded(to: 14)) \(VisibleText.escaped(question.ask))")
      lines.append("      takes \(question.kind.takes)")
    }
    lines += [
      "",
      "OPTIONS:",
      "  --answer <id=value>     Answer a question without being asked.",
      "  --day <day>             Fill in a past day you forgot: yesterday, a weekday or YYYY-MM-DD, at most 7 days back.",
      "  --no-input              Do not ask; save only what the answers say.",
      "  --json                  Print the saved entry as JSON.",
      "  --no-animation          Print one line instead of the celebration animation.",
    ]
    if flow.challengeQuestion != nil {
      lines.append(
        "  --another               Offer a different challenge than the one chosen first.")
    }
    lines += ["", "EXAMPLE: \(flow.example) --no-input"]
    return lines.joined(separator: "\n")
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
    let existing = try db.entry(.defined(word), on: flowDay.day)?.answeredEntry
    let offer = try ChallengeOffer(
      plan: plan, flow: flow, db: db, day: flowDay.day,
      measured: ctx.measuredNights(from: flowDay.day.adding(days: -7), through: flowDay.day))
    // a flow about the challenge another flow of its plan takes (the evening's "did you
    // complete it?") has nothing to ask on a day none was taken: no night logged, or declined
    if !plan.challenges.isEmpty, flow.challengeQuestion == nil, offer?.taken == nil,
      let taking = plan.flows.first(where: { $0.challengeQuestion != nil })
    {
      throw CLIError(
        "no challenge was taken \(flowDay.isPast ? "on \(flowDay.day.long)" : "today"), so there is none to check: take one with \(flowDay.pasteable("nudge \(taking.word)"))\(flowDay.isPast ? "" : " (or, declined, nudge \(taking.word) --another)").",
        code: .failure)
    }
    if interactive {
      given = try ask(flow, ctx, db, flowDay, existing: existing, given: given, offer: offer)
    } else if let offer, let question = offer.question, given[question.id] == nil,
      another || existing?.answers[question.id] == nil
    {
      // tonight's challenge, as the rules choose it (another on request)
      let pick = offer.pick(declining: another ? offer.firstPick : [])
      if let pick { try? given.set(question.id, to: pick.challenge.id, in: flow) }
    }
    let merged = (existing?.answers ?? FlowAnswers()).merging(given).applying(to: flow)
    guard merged.counts(for: flow) else {
      if interactive {
        // what was answered stays: the next run offers it back
        ctx.line(
          "Nothing saved yet: \(flow.countsRule). Your answers are kept as a draft: '\(flowDay.pasteable("nudge \(word) --no-input").replacing(" --no-input", with: ""))' picks up where you left off."
        )
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
    try ctx.render(completed.entry, json: options.json) {
      let verb = flowDay.editing ? "edited" : completed.updated ? "updated" : "saved"
      // "✓ Night logged." for a new entry; "✓ Last night updated for Monday 23 November."
      ctx.line(
        ctx.style.green("✓") + " "
          + (verb == "saved" && !flowDay.isPast
            ? VisibleText.escaped(flow.saved)
            : "\(VisibleText.escaped(flow.title)) \(verb)"
              + (flowDay.isPast ? " for \(flowDay.day.long)." : ".")))
      // a challenge taken without being asked (--answer accept=yes) is said: it was never shown
      // — with why the rules chose it from the week, as the interactive flow says it
      if !interactive, let offer, let question = offer.question,
        let id = flow.takenChallenge(in: completed.entry.answers), given[question.id] != nil,
        let challenge = plan.challenges.first(where: { $0.id == id })
      {
        if let chosen = offer.pick(declining: another ? offer.firstPick : []),
          chosen.challenge.id == id
        {
          offer.show(chosen, ctx)
        } else {
          offer.show(
            SleepCoach.Pick(challenge: challenge, reason: "your choice", nights: offer.nights), ctx)
        }
      }
      try ctx.finished(db, completed, flowDay, options, freezesBefore: freezesBefore)
    }
  }

  /// What this computer's journal knows of the night before `flowDay` (said in one line when
  /// it knows something), for the questions that `suggest` it.
  private func lastNight(_ flow: FlowDefinition, _ ctx: Context, _ flowDay: FlowDay) -> (
    bedtime: String?, wake: String?
  ) {
    guard flow.questions.contains(where: { $0.suggests != nil }) else { return (nil, nil) }
    // a night a watch measured comes first: it knows when you slept, not when the computer did
    if let measured = ctx.measuredNight(endingOn: flowDay.day) {
      ctx.line(
        ctx.style.dim(
          "Your watch measured sleep from \(measured.bedtime) to \(measured.wake): Enter keeps those."
        ))
      return (measured.bedtime, measured.wake)
    }
    // the two days around that night (a past day filled in reads its own night)
    let since = flowDay.day.adding(days: -2).ordinal * 86400
    let until = min(ctx.clock.started.seconds, flowDay.day.adding(days: 1).ordinal * 86400)
    let times = LastNight.times(
      ctx.platform.sleepEvents(since: since, until: until), morning: flowDay.day,
      zone: ctx.timeZone)
    if let bedtime = times.bedtime, let wake = times.wake {
      ctx.line(
        ctx.style.dim(
          "This computer went to sleep at \(bedtime) and woke at \(wake): Enter keeps those."))
    }
    return times
  }

  /// Asks the flow's questions in order on the terminal, those a `--answer` gave aside and
  /// those whose `when` does not hold skipped; each answer is kept as the draft at once.
  private func ask(
    _ flow: FlowDefinition, _ ctx: Context, _ db: AppDatabase, _ flowDay: FlowDay,
    existing: AnsweredEntry?, given: FlowAnswers, offer: ChallengeOffer?
  ) throws -> FlowAnswers {
    let kept = try DraftAnswers.start(ctx, db, .defined(flow.word), flowDay)
    ctx.line(
      ctx.style.bold(VisibleText.escaped(flow.title))
        + (flowDay.isPast ? ctx.style.dim("  (\(flowDay.activity))") : ""))
    var answers = given
    if let taken = offer?.taken { ctx.line("Tonight's challenge: " + ctx.style.cyan(taken)) }
    var declined: Set<String> = another ? offer?.firstPick ?? [] : []
    let night = lastNight(flow, ctx, flowDay)
    var offered: String? = nil
    for question in flow.questions where given[question.id] == nil {
      let sofar = (existing?.answers ?? FlowAnswers()).merging(answers)
      guard sofar.questionsToAsk(in: flow).contains(where: { $0.id == question.id }) else {
        continue
      }
      if let offer, question.id == offer.question?.id {
        // the one kept from an earlier run of this night, else the rules' choice, and why
        if let keptID = kept.takeResumed(question.id),
          let challenge = offer.plan.challenges.first(where: { $0.id == keptID })
        {
          offered = keptID
          offer.show(
            SleepCoach.Pick(
              challenge: challenge, reason: "kept from earlier", nights: offer.nights),
            ctx)
          try? answers.set(question.id, to: keptID, in: flow)
          continue
        }
        guard let pick = offer.pick(declining: declined) else { continue }
        offered = pick.challenge.id
        offer.show(pick, ctx)
        try kept.keep(question.id, pick.challenge.id)
        try? answers.set(question.id, to: pick.challenge.id, in: flow)
        continue
      }
      if let offer, offered != nil, case .yesNo = question.kind {
        // taking the challenge: a no offers another, until one is taken or none is wanted
        if let took = kept.takeResumed(question.id) {
          ctx.line(
            ctx.style.dim(
              "\(VisibleText.escaped(question.words(after: sofar.values, pastDay: flowDay.isPast))) \(took)"
            ))
          try? answers.set(question.id, to: took, in: flow)
          offered = nil
          continue
        }
        while true {
          let label = VisibleText.escaped(
            question.words(after: sofar.values, pastDay: flowDay.isPast))
          let take = try kept.prompter.yesNo(label, current: nil)
          if take || offered == nil { break }
          declined.insert(offered!)
          guard try kept.prompter.yesNo("Another challenge instead?", current: false),
            let next = offer.pick(declining: declined)
          else { break }
          offered = next.challenge.id
          offer.show(next, ctx)
          try kept.keep(offer.question!.id, next.challenge.id)
          try? answers.set(offer.question!.id, to: next.challenge.id, in: flow)
        }
        let took = declined.contains(offered ?? "") ? "no" : "yes"
        try kept.keep(question.id, took)
        try? answers.set(question.id, to: took, in: flow)
        offered = nil
        continue
      }
      let suggested = question.suggests.flatMap { $0 == .bedtime ? night.bedtime : night.wake }
      let current = existing?.answers[question.id] ?? suggested ?? question.offered
      let words = question.words(after: sofar.values, pastDay: flowDay.isPast)
      let answer = try kept.text(
        question.id, VisibleText.escaped(words), shown: question.kind.shown,
        ask: {
          try QuestionAsker(prompter: kept.prompter).ask(
            question, words: words, current: current,
            required: question.required || flow.counts == .anyOf([question.id]))
        })
      if let answer {
        try? answers.set(question.id, to: answer, in: flow)
      }
    }
    return answers
  }
}
