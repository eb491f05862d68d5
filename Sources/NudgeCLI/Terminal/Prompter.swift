import NudgeCore
import NudgeStore
import NudgeUseCases

/// Asks questions on the terminal; only used when a person is there to answer. Ctrl-D at a
/// question leaves the flow (exit 1) and Ctrl-C stops it (exit 130); either way the answers
/// given so far stay in the flow's draft (`DraftAnswers`).
struct Prompter {
  let ctx: Context
  /// The run's answers, kept as a draft; nil for questions outside a flow.
  var answers: DraftAnswers? = nil

  var style: Style { ctx.style }

  /// How every "left the flow" message starts (`open --hold` offers Snooze after one).
  static let leftPrefix = "Left the flow"

  /// The failure a run ends with when the person stops it: Ctrl-D (left) or Ctrl-C.
  static func stop(interrupted: Bool, kept: Int, resume: String?) -> CLIError {
    let what = interrupted ? "Stopped" : leftPrefix
    let code: ExitStatus = interrupted ? .interrupted : .failure
    guard kept > 0, let resume else {
      return CLIError(
        resume == nil
          ? "\(interrupted ? "Stopped" : "Left"); nothing was changed."
          : "\(what); nothing was saved.",
        code: code, kind: interrupted || resume == nil ? .other : .leftFlow)
    }
    let answers = kept == 1 ? "your answer is" : "your \(kept) answers are"
    return CLIError(
      "\(what); \(answers) kept as a draft: '\(resume)' picks up where you left off.", code: code,
      kind: interrupted ? .other : .leftFlow)
  }

  private func stop() -> CLIError {
    let interrupted = ctx.input.wasInterrupted
    return answers?.stop(interrupted: interrupted)
      ?? Self.stop(interrupted: interrupted, kept: 0, resume: nil)
  }

  /// Writes a question and its dimmed hint wrapped at spaces to the terminal's width (never
  /// inside a word), continuation lines under the question's own indent; the answer is typed
  /// after the last line, a column kept for the cursor.
  private func ask(_ question: String, hint: String) {
    let indent = question.prefix { $0 == " " }.count
    let lines = ctx.wrapped(
      [(question, { $0 }), (hint, style.dim)], width: ctx.columns - 1, indent: indent)
    ctx.output.write(lines.joined(separator: "\n") + " ")
  }

  private func read(offering: String? = nil) throws -> String {
    if ctx.input.wasInterrupted { throw stop() }
    guard let line = ctx.input.readLine(offering: offering) else {
      ctx.line()
      throw stop()
    }
    return line
  }

  /// Free text; Enter keeps `current` (shown in brackets), "-" clears it. A `required` answer
  /// is never offered as skippable: it is asked again until given (or the flow is left).
  func text(_ question: String, current: String? = nil, required: Bool = false) throws -> String? {
    // on a terminal, in `nudge edit`, the stored answer is on the line, to edit (it was in
    // brackets only: End then ", then fine" saved ", then fine"); from a pipe it is the hint
    // Enter keeps
    // (an edit's stored answers; a suggestion, such as the review's commitment, stays in
    // brackets: a new answer is typed over it)
    let editing = current != nil && ctx.input.isTerminal && answers?.editing == true
    while true {
      let hint =
        editing
        ? " (edit it; Enter keeps it, '-' clears it)"
        : current.map { " [\(VisibleText.escaped($0))]" } ?? (required ? "" : " (Enter to skip)")
      ask(question, hint: hint)
      let answer = try read(offering: editing ? current : nil).trimmingSpaces
      if answer.isEmpty, current != nil || !required { return current }
      if answer == "-" && !required { return nil }
      if answer.isEmpty || answer == "-" {
        ctx.line(
          style.yellow(
            "This one is needed; type a few words (Ctrl-D leaves, your answers are kept)."))
        continue
      }
      do {
        // the person sees "that answer", never an internal field name
        return try FreeText.clean(answer, field: "That answer")
      } catch {
        ctx.line(style.yellow(error.message))
      }
    }
  }

  /// Yes or no; Enter takes `current` when there is one.
  func yesNo(_ question: String, current: Bool? = nil) throws -> Bool {
    try yesNo(question, current: current, allowingAll: false)!
  }

  /// Yes, no, or "a" for all (nil; the first question of a checklist); Enter takes `current`.
  func yesNoOrAll(_ question: String, current: Bool? = nil) throws -> Bool? {
    try yesNo(question, current: current, allowingAll: true)
  }

  private func yesNo(_ question: String, current: Bool?, allowingAll: Bool) throws
    -> Bool?
  {
    let all = allowingAll ? "/a" : ""
    let hint =
      switch current {
      case true?: "[Y/n\(all)]"
      case false?: "[y/N\(all)]"
      case nil: "[y/n\(all)]"
      }
    while true {
      ask(question, hint: " " + hint)
      switch try read().trimmingSpaces.lowercased() {
      case "y", "yes": return true
      case "n", "no": return false
      case "a",
        "all" where allowingAll:
        return nil
      case "" where current != nil: return current!
      default:
        ctx.line(
          style.yellow(allowingAll ? "Type y or n, or a when everything is ready." : "Type y or n.")
        )
      }
    }
  }

  /// A numbered menu; accepts the number or the option's key. Enter takes `current`.
  func choose<Option>(
    _ question: String, options: [Option], key: (Option) -> String, label: (Option) -> String,
    current: Option? = nil
  ) throws -> Option {
    ctx.wrappedLine(question)
    for (index, option) in options.enumerated() {
      ctx.line("  \(style.bold("\(index + 1)")) \(label(option))")
    }
    let currentIndex = current.flatMap { c in options.firstIndex { key($0) == key(c) } }
    while true {
      let hint = currentIndex.map { " [\($0 + 1)]" } ?? ""
      ctx.output.write("Choose 1-\(options.count)\(style.dim(hint)): ")
      let answer = try read().trimmingSpaces.lowercased()
      if answer.isEmpty, let currentIndex { return options[currentIndex] }
      if let n = Int(answer), (1...options.count).contains(n) { return options[n - 1] }
      if let match = options.first(where: { key($0) == answer }) { return match }
      ctx.line(style.yellow("Type a number from 1 to \(options.count)."))
    }
  }
}

/// The answers of one interactive run of a flow for one day. Each is kept as the flow's draft
/// (in the database) the moment it is given, so Ctrl-C, Ctrl-D or a closed window loses
/// nothing; the next run of the flow for that day offers them back, and finishing the flow
/// removes the draft (in the same transaction as the save).
final class DraftAnswers {
  let ctx: Context
  let db: AppDatabase
  private var draft: FlowDraft
  /// Answers of an earlier run taken up again instead of asking.
  private var resumed: [String: String]
  /// The command that picks this flow up again ("nudge review --day 2026-11-20").
  let resume: String
  /// Whether the run edits a stored entry (`nudge edit`): its answers are put on the line to
  /// edit.
  var editing = false

  private init(
    ctx: Context, db: AppDatabase, draft: FlowDraft, resumed: [String: String], resume: String
  ) {
    self.ctx = ctx
    self.db = db
    self.draft = draft
    self.resumed = resumed
    self.resume = resume
  }

  /// Starts a run: when a draft of this flow for this day is kept, offers to resume it
  /// ("Resume where you left off? [Y/n]"); no starts afresh and forgets it.
  static func start(_ ctx: Context, _ db: AppDatabase, _ flow: Flow, _ flowDay: FlowDay)
    throws -> DraftAnswers
  {
    ctx.input.catchInterrupts()
    // the day's entry of this flow lost or won a conflict: said before anything is asked
    if flow != .needHelp {
      for notice in try ctx.conflictNotices(
        db, plans: { try ctx.plans(db) }, days: [flowDay.day], flow: flow.rawValue)
      {
        ctx.wrappedLine(notice, style: ctx.style.yellow)
      }
    }
    let resume = flowDay.resumeCommand(flow)
    let fresh = FlowDraft(flow: flow, day: flowDay.day)
    guard let kept = try db.draft(flow, on: flowDay.day), !kept.answers.isEmpty else {
      let answers = DraftAnswers(ctx: ctx, db: db, draft: fresh, resumed: [:], resume: resume)
      answers.editing = flowDay.editing
      return answers
    }
    let count = kept.answers.count
    ctx.line(
      ctx.style.dim(
        "You started this earlier (\(count) answer\(count == 1 ? "" : "s") kept)."))
    // leaving at this question still keeps the draft, and says so
    let answers = DraftAnswers(ctx: ctx, db: db, draft: kept, resumed: [:], resume: resume)
    answers.editing = flowDay.editing
    if try answers.prompter.yesNo("Resume where you left off?", current: true) {
      answers.resumed = kept.answers
    } else {
      try Drafts(db: db).remove(flow, on: flowDay.day)
      answers.draft = fresh
    }
    ctx.line()
    return answers
  }

  var prompter: Prompter { Prompter(ctx: ctx, answers: self) }

  /// How many answers are kept.
  var kept: Int { draft.answers.count }

  func stop(interrupted: Bool) -> CLIError {
    Prompter.stop(interrupted: interrupted, kept: kept, resume: resume)
  }

  /// Keeps an answer now.
  func keep(_ key: String, _ value: String?) throws {
    draft.answers[key] = value ?? ""
    try Drafts(db: db).save(draft, at: InstantFormat.format(ctx.clock.now(), in: ctx.timeZone))
  }

  /// The answer kept for `key` from an earlier run, taken without showing it (the caller
  /// shows it in its own words); nil when there is none.
  func takeResumed(_ key: String) -> String? {
    resumed.removeValue(forKey: key).flatMap { $0.isEmpty ? nil : $0 }
  }

  /// The answer kept for `key` from an earlier run, shown as "label: answer" (`shown` turns a
  /// stored key into its title); nil to ask.
  private func taken(_ key: String, _ label: String, shown: (String) -> String = { $0 })
    -> String?
  {
    guard let value = resumed.removeValue(forKey: key) else { return nil }
    ctx.line(
      ctx.style.dim(
        "\(label.trimmingSpaces) "
          + (value.isEmpty ? "(skipped)" : VisibleText.escaped(shown(value)))))
    return value
  }

  /// Free text: the resumed answer, or `ask`'s, kept; `shown` says a resumed answer as the
  /// person chose it (a choice's title for its key).
  func text(
    _ key: String, _ label: String, shown: (String) -> String = { $0 },
    ask: () throws -> String?
  ) throws -> String? {
    if let value = taken(key, label, shown: shown) { return value.isEmpty ? nil : value }
    let value = try ask()
    try keep(key, value)
    return value
  }

  /// Yes or no: the resumed answer, or `ask`'s, kept.
  func yesNo(_ key: String, _ label: String, ask: () throws -> Bool) throws -> Bool {
    if let value = taken(key, label), let flag = yesNoValue(value) { return flag }
    let value = try ask()
    try keep(key, value ? "yes" : "no")
    return value
  }

  /// One of a set of choices: the resumed answer (said by its `title`, never its key), or
  /// `ask`'s, kept.
  func choice<T: RawRepresentable>(
    _ key: String, _ label: String, title: (T) -> String, ask: () throws -> T
  ) throws -> T where T.RawValue == String {
    if let value = taken(key, label, shown: { T(rawValue: $0).map(title) ?? $0 }),
      let choice = T(rawValue: value)
    {
      return choice
    }
    let value = try ask()
    try keep(key, value.rawValue)
    return value
  }
}

extension Context {
  /// Decides whether to ask questions: only on a terminal and without `--no-input`. Off a
  /// terminal with no answers given, it fails naming the flags instead of waiting for input.
  func isInteractive(noInput: Bool, hasAnswers: Bool, example: String) throws -> Bool {
    if noInput { return false }
    if input.isTerminal { return true }
    if hasAnswers { return false }
    throw CLIError(
      "stdin is not a terminal, so Nudge will not ask; pass the answers as flags, for example: \(example)",
      code: .usage)
  }
}

extension Context {
  /// A yes/no asked before a change that needs one (`--yes` skips it, the caller decides):
  /// asked on a terminal (Enter takes `current`); off one, `offTerminal` is the one-line
  /// refusal, exit 64.
  func confirm(_ question: String, current: Bool, offTerminal: String) throws -> Bool {
    guard input.isTerminal else { throw CLIError(offTerminal, code: .usage) }
    return try Prompter(ctx: self).yesNo(question, current: current)
  }
}
