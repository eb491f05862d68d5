import ArgumentParser
import NudgeCore
import NudgeStore
import NudgeUseCases

/// `nudge edit [DAY] FLOW` / `nudge edit help ID`: changes a saved entry; the flow opens with
/// the stored answers as defaults.
struct EditCommand: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "edit",
    abstract: "Change a saved entry: the flow opens with what you saved as the defaults.",
    discussion: """
      nudge edit [DAY] prep|review|checkin [the flow's flags...] (or the flow first: nudge edit \
      review yesterday): DAY is today (the default), yesterday, a weekday (the latest one) or \
      YYYY-MM-DD, any past day that has the entry (filling in a day with no entry \
      yet reaches 7 days back). nudge edit help ID [--category C] [--note TEXT]: a craving note, \
      by the id 'nudge show DAY' prints. Streaks and achievements are recomputed; 'nudge undo' \
      takes the edit back.
      """)

  @Argument(
    parsing: .captureForPassthrough,
    help: ArgumentHelp("[DAY] FLOW, then the flow's own flags; or help ID.", valueName: "words"))
  var words: [String] = []

  func run(_ ctx: Context) throws {
    var rest = words
    let flowWords =
      ["prep", "review", "checkin", "help", "need-help"] + ctx.definedFlowWords.sorted()
    // its words are captured whole, --help too: the help of what they name, never an edit
    if let help = Self.help(for: words, flowWords: flowWords, environment: ctx.environment) {
      throw CleanExit.message(help)
    }
    var dayWord: String? = nil
    if let first = rest.first, !flowWords.contains(first), !first.hasPrefix("-") {
      dayWord = first
      rest.removeFirst()
    }
    guard let flowWord = rest.first, flowWords.contains(flowWord) else {
      let unknown = rest.first.map {
        $0.hasPrefix("-")
          ? "" : "'\($0)' is not something to edit.\(Suggestion.hint(for: $0, among: flowWords)) "
      }
      let misspelt =
        unknown
        ?? dayWord.map {
          "'\($0)' is not something to edit.\(Suggestion.hint(for: $0, among: flowWords)) "
        } ?? ""
      throw CLIError(
        misspelt
          + "Name what to edit: nudge edit [DAY] prep|review|checkin, or nudge edit help ID.",
        code: .usage)
    }
    rest.removeFirst()
    let db = try ctx.openDatabase()
    let today = ctx.today(try db.settings()).day
    // the day may come after the flow too: nudge edit review yesterday
    if dayWord == nil, flowWord != "help", flowWord != "need-help", let next = rest.first,
      !next.hasPrefix("-")
    {
      dayWord = next
      rest.removeFirst()
    }
    if flowWord == "help" || flowWord == "need-help" {
      try EditHelpNote(words: rest).run(ctx, db, today: today)
      return
    }
    let flow = Flow(rawValue: flowWord)!
    let day = try Day.named(dayWord ?? "today", today: today)
    guard try db.entry(flow, on: day) != nil else {
      let within = day >= today.adding(days: -FlowDay.backfillDays)
      throw CLIError(
        "there is no \(flow.title) on \(day.long) \(day.year) to edit"
          + (within
            ? "; fill one in: nudge \(flow.rawValue) --day \(day)"
            : " (a day more than \(FlowDay.backfillDays) days back cannot get a new entry)."),
        code: .failure)
    }
    let arguments = ["--day", day.description] + rest
    switch flow {
    case .prep: try edit(PrepCommand.parse(arguments), ctx)
    case .review: try edit(ReviewCommand.parse(arguments), ctx)
    case .checkin: try edit(CheckinCommand.parse(arguments), ctx)
    case .needHelp: break
    case .defined: try edit(DefinedFlowCommand.parse([flowWord] + arguments), ctx)
    }
  }

  /// The help `--help` (or `-h`) among `words` asks for, nil when they ask for none: edit's
  /// own, or that of editing the flow they name (its flags, without `--day`: the day is a
  /// word of its own here).
  static func help(for words: [String], flowWords: [String], environment: [String: String])
    -> String?
  {
    let flags = words.prefix { $0 != "--" }
    guard flags.contains("--help") || flags.contains("-h") else { return nil }
    guard let flow = flags.first(where: { flowWords.contains($0) }) else {
      return Nudge.helpMessage(for: EditCommand.self)
    }
    let flowHelp: String
    switch flow {
    case "help", "need-help": return EditHelpNote.help
    case "prep": flowHelp = Nudge.helpMessage(for: PrepCommand.self)
    case "review": flowHelp = Nudge.helpMessage(for: ReviewCommand.self)
    case "checkin": flowHelp = Nudge.helpMessage(for: CheckinCommand.self)
    default:
      guard let defined = DefinedFlowCommand.definition(flow, environment: environment) else {
        return Nudge.helpMessage(for: EditCommand.self)
      }
      flowHelp = DefinedFlowCommand.help(defined.flow, plan: defined.plan)
    }
    return editingHelp(flowHelp, flow: flow)
  }

  /// A flow's help made the help of editing it: edit's overview, `nudge edit [<day>] FLOW` for
  /// its usage, the day as an argument, and its options but `--day`.
  static func editingHelp(_ flowHelp: String, flow: String) -> String {
    let title = Flow(rawValue: flow)?.title ?? flow
    var lines = TerminalText.wrap(
      "OVERVIEW: Change a day's saved \(title): the flow opens with what you saved as the "
        + "defaults, and its flags change answers without asking. Streaks and achievements are "
        + "recomputed; 'nudge undo' takes the edit back.", width: 80)
    lines.append("")
    var section = ""
    var skippingDay = false
    for line in flowHelp.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
      if !line.hasPrefix(" "), let colon = line.firstIndex(of: ":") {
        section = String(line[..<colon])
      }
      switch section {
      case "OVERVIEW": continue
      case "USAGE" where line.hasPrefix("USAGE: nudge \(flow)"):
        lines.append(
          "USAGE: nudge edit [<day>] \(flow)"
            + line.dropFirst("USAGE: nudge \(flow)".count).replacing(" [--day <day>]", with: ""))
        lines += ["", "ARGUMENTS:"]
        // in argument-parser's columns: the name, then its help from the 27th
        let dayHelp = TerminalText.wrap(
          "today (the default), yesterday, a weekday (the latest one) or YYYY-MM-DD: any past "
            + "day that has the entry; it may come after the flow too (nudge edit \(flow) "
            + "yesterday).", width: 80 - 26)
        for (index, part) in dayHelp.enumerated() {
          lines.append((index == 0 ? "  <day>" : "").padded(to: 26) + part)
        }
        continue
      default: break
      }
      // the --day option's lines: its own, and those its help wraps onto
      if line.hasPrefix("  --day ") {
        skippingDay = true
        continue
      }
      if skippingDay && line.hasPrefix("      ") { continue }
      skippingDay = false
      lines.append(line)
    }
    return lines.joined(separator: "\n")
  }

  private func edit<Command: FlowCommand>(_ command: Command, _ ctx: Context) throws {
    var command = command
    command.options.editing = true
    try command.run(ctx)
  }
}

/// A flow command that `nudge edit` can open on a stored entry.
protocol FlowCommand: ContextCommand {
  var options: FlowOptions { get set }
}

extension PrepCommand: FlowCommand {}
extension ReviewCommand: FlowCommand {}
extension CheckinCommand: FlowCommand {}
extension DefinedFlowCommand: FlowCommand {}

/// `nudge edit help ID [--category C] [--note TEXT] [--no-input]`.
struct EditHelpNote: ParsableArguments {
  @Argument(
    help: ArgumentHelp(
      "The note's id, or its first 4 characters or more ('nudge show DAY' prints them).",
      valueName: "id"))
  var id: String

  @Option(
    help: ArgumentHelp(
      "What kind of craving it was.",
      valueName: HelpCategory.allCases.map(\.rawValue).joined(separator: "|")))
  var category: HelpCategory?

  @Option(help: ArgumentHelp("The note's new text.", valueName: "text"))
  var note: String?

  @Flag(help: "Do not ask; change only what the flags say.")
  var noInput = false

  init() {}

  /// `nudge edit help --help`.
  static var help: String {
    let options = helpMessage().split(separator: "\n", omittingEmptySubsequences: false)
      .drop { !$0.hasPrefix("ARGUMENTS:") }
    let overview = TerminalText.wrap(
      "OVERVIEW: Change a craving note: what kind it was, or its text. Streaks and achievements "
        + "are recomputed; 'nudge undo' takes the edit back.", width: 80)
    let categories = HelpCategory.allCases.map(\.rawValue).joined(separator: "|")
    return
      (overview + [
        "",
        "USAGE: nudge edit help <id> [--category <\(categories)>] [--note <text>] [--no-input]",
        "",
      ] + options.map(String.init)).joined(separator: "\n")
  }

  init(words: [String]) throws {
    guard !words.isEmpty else {
      throw CLIError(
        "give the note's id: nudge edit help ID (ids are in 'nudge show DAY').", code: .usage)
    }
    self = try Self.parse(words)
  }

  func run(_ ctx: Context, _ db: AppDatabase, today: Day) throws {
    var edited = try HelpNoteID.find(id, db)
    let noteText = try flagText(note, "--note")
    if category == nil && noteText == nil {
      let example = "nudge edit help \(edited.id.prefix(8)) --note 'after lunch' --no-input"
      guard !noInput else {
        throw CLIError(
          "nothing to change: with --no-input, say what changes with --category or --note, e.g. \(example)",
          code: .usage)
      }
      guard ctx.input.isTerminal else {
        throw CLIError(
          "stdin is not a terminal, so Nudge will not ask; pass what changes, e.g. \(example)",
          code: .usage)
      }
      let ask = Prompter(ctx: ctx)
      ctx.line(
        ctx.style.bold(
          "Craving note of \(edited.day.long), \(clockTime(edited.at, in: ctx.timeZone))"))
      edited.category = try ask.choose(
        "What did it feel like?", options: HelpCategory.allCases, key: \.rawValue,
        label: \.label, current: edited.category)
      edited.note = try ask.text("The note:", current: edited.note)
    } else {
      if let category { edited.category = category }
      if let noteText { edited.note = noteText }
    }
    let at = InstantFormat.format(ctx.clock.started, in: ctx.timeZone)
    try db.edit(edited, madeOn: today, at: at)
    ctx.line(
      ctx.style.green("✓") + " Craving note of \(edited.day.long) edited: "
        + "\(edited.category.rawValue)" + (edited.shown.note.map { ": \($0)" } ?? "") + ".")
    ctx.line(ctx.style.dim("Changed your mind? 'nudge undo' takes it back."))
  }
}

/// Finds a help note by the start of its id.
enum HelpNoteID {
  static func find(_ prefix: String, _ db: AppDatabase) throws -> HelpNote {
    let given = prefix.lowercased()
    guard given.count >= 4, given.allSatisfy({ $0.isHexDigit || $0 == "-" }) else {
      throw CLIError(
        "'\(prefix)' is not a note id: give at least its first 4 characters, as 'nudge show DAY' prints them.",
        code: .usage)
    }
    let found = try db.helpNotes(idStartingWith: given)
    guard found.count == 1 else {
      throw CLIError(
        found.isEmpty
          ? "no craving note has an id starting with '\(prefix)'; 'nudge show DAY' lists them."
          : "\(found.count) notes have ids starting with '\(prefix)'; give more of the id.",
        code: found.isEmpty ? .failure : .usage)
    }
    return found[0]
  }
}

/// `nudge delete DAY FLOW` / `nudge delete help ID`: removes one entry after a confirmation.
struct DeleteCommand: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "delete",
    abstract: "Delete one entry: a day's prep, review or check-in, or one craving note.",
    discussion: """
      nudge delete DAY prep|review|checkin, or nudge delete help ID (ids are in 'nudge show \
      DAY'). Asks first; --yes for scripts. Streaks and achievements are recomputed; 'nudge \
      undo' brings it back.
      """)

  @Argument(help: ArgumentHelp("DAY FLOW, or help ID.", valueName: "words"))
  var words: [String] = []

  @Flag(help: "Delete without asking.")
  var yes = false

  @Flag(help: "Print what was deleted as JSON.")
  var json = false

  func run(_ ctx: Context) throws {
    guard words.count == 2 else {
      throw CLIError(
        "name one entry: nudge delete DAY prep|review|checkin, or nudge delete help ID.",
        code: .usage)
    }
    var words = words
    // the flow may come first too: nudge delete review yesterday
    let dayFlows = ["prep", "review", "checkin"] + ctx.definedFlowWords.sorted()
    if dayFlows.contains(words[0]) { words.swapAt(0, 1) }
    let db = try ctx.openDatabase()
    let today = ctx.today(try db.settings()).day
    let flow: Flow
    let key: String
    if words[0] == "help" || words[0] == "need-help" {
      flow = .needHelp
      key = try HelpNoteID.find(words[1], db).id
    } else {
      let day = try Day.named(words[0], today: today)
      guard let named = Flow(rawValue: words[1]), dayFlows.contains(named.rawValue) else {
        throw CLIError(
          words[1] == "need-help" || words[1] == "help"
            ? "craving notes are deleted one at a time: nudge delete help ID (ids are in 'nudge show \(day)')."
            : "'\(words[1])' is not a flow: nudge delete DAY \(dayFlows.joined(separator: "|")).\(Suggestion.hint(for: words[1], among: dayFlows))",
          code: .usage)
      }
      flow = named
      key = day.description
    }
    guard let entry = try Self.entry(db, flow, key) else {
      throw CLIError("there is no \(flow.title) on \(key) to delete.", code: .failure)
    }
    let what = EntryText.describe(entry, in: ctx.timeZone)
    if !yes {
      if ctx.input.isTerminal { ctx.line("This deletes \(what).") }
      guard
        try ctx.confirm(
          "Delete it?", current: false,
          offTerminal:
            "stdin is not a terminal, so Nudge will not ask; add --yes to delete \(what).")
      else {
        ctx.line("Nothing was deleted.")
        return
      }
    }
    let at = InstantFormat.format(ctx.clock.started, in: ctx.timeZone)
    guard let removed = try DeleteEntry(db: db)(flow, key: key, madeOn: today, at: at) else {
      throw CLIError("there is no \(flow.title) on \(key) to delete.", code: .failure)
    }
    let streak = try ctx.streak(db, today: today)
    if json {
      ctx.line(
        try jsonText(
          ChangeReport(
            kind: "deleted", entry: removed.change.before, newAchievements: [],
            lostAchievements: removed.lostAchievements, streak: streak)))
      return
    }
    ctx.line(ctx.style.green("✓") + " Deleted \(what).")
    EntryText.sayEffects(ctx, new: [], lost: removed.lostAchievements, streak: streak)
    ctx.line(ctx.style.dim("Changed your mind? 'nudge undo' brings it back."))
  }

  static func entry(_ db: AppDatabase, _ flow: Flow, _ key: String) throws -> FlowEntry? {
    if flow == .needHelp { return try db.helpNote(id: key).map(FlowEntry.help) }
    return try db.entry(flow, on: Day(key)!)
  }
}

/// `nudge undo`: takes back the latest change made today.
struct UndoCommand: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "undo",
    abstract:
      "Take back the latest change made today (a save, an edit, a delete, a habit's, a pause).",
    discussion:
      "Run it again to take back the change before that; only today's changes can be undone. 'nudge redo' re-applies what an undo took back."
  )

  @Flag(help: "Print what was undone as JSON.")
  var json = false

  func run(_ ctx: Context) throws {
    let db = try ctx.openDatabase()
    let today = ctx.today(try db.settings()).day
    // the latest change of any journal: an entry's, a habit's, the days off's
    switch try db.latestUndoable(madeOn: today) {
    case .habit(let change): return try HabitUndo.say(ctx, db, change, redo: false, json: json)
    case .pause(let change):
      return try PauseUndo.say(ctx, db, change, redo: false, today: today, json: json)
    case .entry, nil: break
    }
    guard let outcome = try UndoChange(db: db)(madeOn: today) else {
      throw CLIError(
        "nothing to undo: no change made today is left to take back (undo reaches today's saves, edits and deletes).",
        code: .failure)
    }
    try JournalStepReport(redo: false).say(ctx, db, outcome, today: today, json: json)
  }
}

/// `nudge redo`: re-applies what the latest undo took back, until the next change.
struct RedoCommand: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "redo",
    abstract: "Re-apply what the latest undo took back.",
    discussion:
      "Run it again after several undos to re-apply each in turn; a new save, edit or delete ends what can be redone, and only today's undos can be."
  )

  @Flag(help: "Print what was redone as JSON.")
  var json = false

  func run(_ ctx: Context) throws {
    let db = try ctx.openDatabase()
    let today = ctx.today(try db.settings()).day
    // what the latest undo took back is the earliest change undone, of any journal
    switch try db.latestRedoable(madeOn: today) {
    case .habit(let change): return try HabitUndo.say(ctx, db, change, redo: true, json: json)
    case .pause(let change):
      return try PauseUndo.say(ctx, db, change, redo: true, today: today, json: json)
    case .entry, nil: break
    }
    guard let outcome = try RedoChange(db: db)(madeOn: today) else {
      throw CLIError(
        "nothing to redo: no undo made today is left to re-apply (a save, edit or delete since an undo ends what can be redone).",
        code: .failure)
    }
    try JournalStepReport(redo: true).say(ctx, db, outcome, today: today, json: json)
  }
}

/// What undo and redo say: the same words and JSON, one direction each.
struct JournalStepReport {
  var redo: Bool

  func say(
    _ ctx: Context, _ db: AppDatabase, _ outcome: UndoChange.Outcome, today: Day, json: Bool
  ) throws {
    let verb = redo ? "redone" : "undone"
    guard case .undone(let step) = outcome else {
      if case .changedSince(let change) = outcome {
        let what = change.entry.map { EntryText.describe($0, in: ctx.timeZone) } ?? "the entry"
        throw CLIError(
          "nothing \(verb): \(what) changed since (an import?); change it with 'nudge edit' or 'nudge delete'.",
          code: .failure)
      }
      return
    }
    let streak = try ctx.streak(db, today: today)
    let change = step.change
    // the entry as it is now, and the one this step took away
    let (now, gone) = redo ? (change.after, change.before) : (change.before, change.after)
    if json {
      ctx.line(
        try jsonText(
          ChangeReport(
            kind: change.kind.rawValue, entry: now,
            newAchievements: step.newAchievements,
            lostAchievements: step.lostAchievements, streak: streak, undone: !redo,
            redone: redo, removed: now == nil ? gone : nil)))
      return
    }
    let what = change.entry.map { EntryText.describe($0, in: ctx.timeZone) } ?? "an entry"
    let done =
      switch (change.kind, redo) {
      case (.saved, false): "Undone: \(what) is gone again."
      case (.updated, false), (.edited, false): "Undone: \(what) has its earlier answers back."
      case (.deleted, false): "Undone: \(what) is back."
      case (.saved, true): "Redone: \(what) is back."
      case (.updated, true), (.edited, true): "Redone: \(what) has its later answers back."
      case (.deleted, true): "Redone: \(what) is deleted again."
      }
    ctx.line(ctx.style.green("✓") + " " + done)
    EntryText.sayEffects(
      ctx, new: step.newAchievements, lost: step.lostAchievements, streak: streak)
    if !redo { ctx.line(ctx.style.dim("Undid one too many? 'nudge redo' re-applies it.")) }
  }
}

/// What `delete`, `undo --json` and `redo --json` print.
struct ChangeReport: Encodable {
  var kind: String
  /// The entry as it is now stored (undo), or as it was (delete); null when it is gone.
  @NullWhenAbsent var entry: FlowEntry?
  var newAchievements: [Achievement]
  var lostAchievements: [Achievement]
  var streak: Streak
  var undone = false
  var redone = false
  /// The entry an undone save (or a redone delete) took away.
  @NullWhenAbsent var removed: FlowEntry?

  struct Streak: Encodable {
    var current: Int
    var longest: Int
  }

  init(
    kind: String, entry: FlowEntry?, newAchievements: [Achievement],
    lostAchievements: [Achievement], streak: StreakSummary, undone: Bool = false,
    redone: Bool = false, removed: FlowEntry? = nil
  ) {
    self.kind = kind
    self.entry = entry
    self.newAchievements = newAchievements
    self.lostAchievements = lostAchievements
    self.streak = Streak(current: streak.current, longest: streak.longest)
    self.undone = undone
    self.redone = redone
    self.removed = removed
  }
}

/// How an entry is named in messages.
enum EntryText {
  /// "the Morning Focus of Wednesday 18 November (Today I will …)"; a craving note's time as
  /// `zone` shows it.
  static func describe(_ stored: FlowEntry, in zone: ZoneRules) -> String {
    let day = stored.day.long
    switch stored.shown {
    case .prep(let p):
      return "the prep of \(day) (\(p.doneCount)/\(PrepItem.allCases.count) ready)"
    case .review(let r):
      return "the Morning Focus of \(day)" + (r.commitTo.map { " (I will \($0))" } ?? "")
    case .checkin(let c):
      let how =
        switch c.followed {
        case true?: " (swap followed)"
        case false?: " (swap missed)"
        case nil: c.feel.map { " (\($0))" } ?? ""
        }
      return "the check-in of \(day)\(how)"
    case .help(let n):
      return "the \(n.category.rawValue) craving note of \(day), \(clockTime(n.at, in: zone))"
        + (n.note.map { " (\($0))" } ?? "")
    case .answered(let e):
      let some = e.answers.values.sorted { $0.key < $1.key }.prefix(3)
        .map { "\($0.key) \($0.value)" }.joined(separator: ", ")
      return "the \(e.flow) entry of \(day)" + (some.isEmpty ? "" : " (\(some))")
    }
  }

  /// The streak after a change and the achievements it gave or took away.
  static func sayEffects(
    _ ctx: Context, new: [Achievement], lost: [Achievement], streak: StreakSummary
  ) {
    let days = streak.current == 1 ? "1 day" : "\(streak.current) days"
    ctx.line("Streak: \(days) (longest \(streak.longest)).")
    for achievement in lost {
      ctx.line(
        ctx.style.yellow(
          "Achievement removed: \(ctx.achievementTitle(achievement)) (its condition no longer holds)."
        ))
    }
    for achievement in new {
      ctx.line("Achievement back: \(ctx.achievementTitle(achievement)).")
    }
  }
}
