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
    default: try edit(DefinedFlowCommand.parse([flowWord] + arguments), ctx)
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
    try ChangeHelpNote(db: db)(edited, madeOn: today, at: at)
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
