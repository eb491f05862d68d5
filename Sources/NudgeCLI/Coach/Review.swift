import ArgumentParser
import NudgeCore

/// `nudge review`: Morning Focus — last night's prep, then Why, challenge, swap, commitment.
struct ReviewCommand: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "review",
    abstract: "Review your prep and set today's focus (Morning Focus).")

  @Option(help: ArgumentHelp("My Why: why this matters to you.", valueName: "text"))
  var why: String?

  @Option(
    help: ArgumentHelp(
      "Today's challenge: \(Challenge.allCases.map(\.rawValue).joined(separator: ", ")).",
      valueName: "challenge"),
  )
  var challenge: Challenge?

  @Option(help: ArgumentHelp("Your own words when the challenge is 'other'.", valueName: "text"))
  var challengeOther: String?

  @Option(help: ArgumentHelp("My swap: what you will do instead.", valueName: "text"))
  var swap: String?

  @Option(help: ArgumentHelp("The commitment: \"Today I will ...\".", valueName: "text"))
  var commitTo: String?

  @Option(help: ArgumentHelp("The commitment: \"... instead of ...\".", valueName: "text"))
  var commitFrom: String?

  @OptionGroup var options: FlowOptions

  func run(_ ctx: Context) throws {
    var picked = challenge
    if challengeOther != nil {
      // words for the challenge are the "other" challenge, never dropped
      guard picked == nil || picked == .other else {
        throw CLIError(
          "--challenge-other describes the 'other' challenge; drop --challenge \(picked!.rawValue) or use --challenge other.",
          code: .usage)
      }
      picked = .other
    }
    var answers = ReviewEntry(
      day: Day(ordinal: 0), why: try flagText(why, "--why"), challenge: picked,
      challengeOther: try flagText(challengeOther, "--challenge-other"),
      swap: try flagText(swap, "--swap"), commitTo: try flagText(commitTo, "--commit-to"),
      commitFrom: try flagText(commitFrom, "--commit-from"), savedAt: "")
    let given =
      [
        answers.why, answers.challengeOther, answers.swap, answers.commitTo, answers.commitFrom,
      ].contains { $0 != nil } || picked != nil
    let interactive = try ctx.isInteractive(
      noInput: options.noInput, hasAnswers: given, example: Self.example)
    let db = try ctx.openDatabase()
    let flowDay = try ctx.flowDay(db, options)
    let existing = try db.review(on: flowDay.day)
    if interactive {
      let previous = try db.latestReview(before: flowDay.day)
      let lastPrep = try db.prep(on: flowDay.day.adding(days: -1))
      let kept = try DraftAnswers.start(ctx, db, .review, flowDay)
      try ask(
        ctx, kept, flowDay, into: &answers, existing: existing ?? previous, lastPrep: lastPrep)
    }
    try ctx.finish(
      db, flowDay, existing: existing, options: options, interactive: interactive,
      refusal:
        "nothing to save: a Morning Focus counts with its commitment. Add it, e.g. \(flowDay.pasteable(Self.commitExample))"
    ) { [answers] (entry: inout ReviewEntry) in
      if let v = answers.why { entry.why = v }
      if let v = answers.challenge {
        entry.challenge = v
        entry.challengeOther = v == .other ? answers.challengeOther : nil
      }
      if let v = answers.swap { entry.swap = v }
      if let v = answers.commitTo { entry.commitTo = v }
      if let v = answers.commitFrom { entry.commitFrom = v }
    } summary: { saved, verb in
      let style = ctx.style
      ctx.line(
        style.green("✓") + " Morning Focus \(verb)"
          + (flowDay.isPast ? " for \(flowDay.day.long)." : "."))
      if let commitment = saved.shown.commitment(on: flowDay) {
        ctx.wrappedLine("  " + commitment, indent: 4, style: style.bold)
      }
      if !flowDay.isPast {
        ctx.line(style.dim("Tonight: 'nudge checkin' to see how it went."))
      }
    }
  }

  /// What Nudge prints as a working example (off a terminal without answers).
  static let example =
    "nudge review --challenge sugary-drinks --swap 'sparkling water' --commit-to 'drink sparkling water' --commit-from soda --no-input"
  /// The example when only the commitment is missing.
  static let commitExample =
    "nudge review --commit-to 'drink sparkling water' --commit-from soda --no-input"

  private func ask(
    _ ctx: Context, _ kept: DraftAnswers, _ flowDay: FlowDay, into answers: inout ReviewEntry,
    existing: ReviewEntry?, lastPrep: PrepEntry?
  ) throws {
    let style = ctx.style
    let ask = kept.prompter
    let evening = flowDay.isPast ? "The evening before" : "Last night"
    // a past day is named once, here; the rest says "that day"
    ctx.wrappedLine([
      ("Review your prep", style.bold),
      (flowDay.isPast ? "  (\(flowDay.activity))" : "", style.dim),
    ])
    if let lastPrep {
      ctx.line("\(evening) you prepped \(lastPrep.doneCount)/\(PrepItem.allCases.count):")
      for item in PrepItem.allCases {
        ctx.line("  " + (lastPrep[item] ? style.green("✓") : style.dim("·")) + " \(item.label)")
      }
      // the person's own line wraps at spaces, under itself
      if let other = lastPrep.shown.other {
        ctx.wrappedLine([("  ", { $0 }), ("✓", style.green), (" \(other)", { $0 })], indent: 4)
      }
    } else {
      ctx.wrappedLine(
        "No prep from \(evening.lowercased()). That's fine; \(flowDay.isPast ? "that day" : "today") still counts.",
        style: style.dim)
    }
    ctx.line()
    ctx.wrappedLine([
      ("Morning Focus", style.bold),
      (
        existing == nil
          ? ""
          : flowDay.editing
            ? "  (your answers are on the line to edit; Enter keeps each, Ctrl-U clears it)"
            : "  (Enter keeps the answer in brackets)", style.dim
      ),
    ])
    if answers.why == nil {
      let question = "1/4 " + CoachPlan.ask(.review, "why")
      answers.why = try kept.text("why", question) {
        try ask.text(question, current: existing?.why)
      }
    }
    if answers.challenge == nil {
      let question = "2/4 " + CoachPlan.ask(.review, "challenge", pastDay: flowDay.isPast)
      answers.challenge = try kept.choice("challenge", question, title: \.label) {
        try ask.choose(
          question, options: Challenge.allCases, key: \.rawValue, label: \.label,
          current: existing?.challenge)
      }
      if answers.challenge == .other && answers.challengeOther == nil {
        let question = "    " + CoachPlan.ask(.review, "challenge_other")
        answers.challengeOther = try kept.text("challenge_other", question) {
          try ask.text(question, current: existing?.challengeOther)
        }
      }
    }
    if answers.swap == nil {
      let question = "3/4 " + CoachPlan.ask(.review, "swap", pastDay: flowDay.isPast)
      answers.swap = try kept.text("swap", question) {
        try ask.text(question, current: existing?.swap)
      }
    }
    // a first run's first brackets are here (the swap and the challenge offered back)
    ctx.wrappedLine([
      ("4/4 Commitment", { $0 }),
      (
        existing == nil && (answers.swap != nil || answers.challenge != nil)
          ? "  (Enter keeps the answer in brackets)" : "", style.dim
      ),
    ])
    if answers.commitTo == nil {
      // the answer that makes the focus count: asked until given, never skippable
      let question = "    " + CoachPlan.ask(.review, "commit_to", pastDay: flowDay.isPast)
      // the defaults follow this run's answers: the earlier commitment only while the swap
      // it was made for is still the swap
      let sameSwap = existing != nil && answers.swap == existing?.swap
      answers.commitTo = try kept.text("commit_to", question) {
        try ask.text(
          question,
          current: (sameSwap ? existing?.commitTo : nil) ?? answers.swap.map { "choose \($0)" },
          required: true)
      }
    }
    if answers.commitFrom == nil {
      let challengeWords =
        answers.challenge == .other
        ? answers.challengeOther : answers.challenge?.label.lowercased()
      let sameChallenge =
        existing != nil && answers.challenge == existing?.challenge
        && answers.challengeOther == existing?.challengeOther
      let question = "    " + CoachPlan.ask(.review, "commit_from")
      answers.commitFrom = try kept.text("commit_from", question) {
        try ask.text(
          question,
          current: (sameChallenge ? existing?.commitFrom : nil) ?? challengeWords)
      }
    }
  }
}
