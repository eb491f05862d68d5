import ArgumentParser
import NudgeCore
import NudgeLinux
import NudgeStore

/// `nudge plan`: the plans Nudge knows (built in, and the person's plan files), one plan in
/// full, and a check of a plan file.
struct PlanCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "plan", abstract: "List, show and check plans (sets of flows).",
    discussion: """
      Two plans are built in: coach (prep, review, check-in, need-help) and sleep. Plan files \
      of your own go in $XDG_CONFIG_HOME/nudge/plans/NAME.plan (~/.config/nudge/plans); \
      the format is in 'man nudge' (PLAN FILES).
      """,
    subcommands: [List.self, Show.self, On.self, Off.self, Check.self, Words.self],
    defaultSubcommand: List.self
  )

  /// `nudge plan on NAME`: follow a plan: its flows run, count for the streak and show in
  /// the views.
  struct On: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "on", abstract: "Turn a plan on: its flows run and count for your streak.")

    @Argument(help: "The plan's name (see 'nudge plan list').")
    var name: String

    func run(_ ctx: Context) throws { try PlanCommand.choose(name, on: true, ctx) }
  }

  /// `nudge plan off NAME`: stop following a plan; what it saved stays, and still counts for
  /// the days it was done.
  struct Off: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "off",
      abstract: "Turn a plan off: its flows stop running; what they saved is kept.")

    @Argument(help: "The plan's name (see 'nudge plan list').")
    var name: String

    func run(_ ctx: Context) throws { try PlanCommand.choose(name, on: false, ctx) }
  }

  /// `nudge plan words`: the words of the flows plans add to nudge's commands, one
  /// `WORD<TAB>TITLE` a line, for the shell completions (which ask each time: a plan file can
  /// add a flow). Hidden: a script's, not a person's.
  struct Words: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "words", abstract: "The flow words plans add, for shell completion.",
      shouldDisplay: false)

    func run(_ ctx: Context) throws {
      for entry in ctx.planCatalogue().entries {
        for flow in entry.plan.flows where !Nudge.commandWords.contains(flow.word) {
          // a title is one line of plain text (plan files hold no control character)
          ctx.line("\(flow.word)\t\(VisibleText.escaped(flow.title))")
        }
      }
    }
  }

  static func choose(_ name: String, on: Bool, _ ctx: Context) throws {
    let db = try ctx.openDatabase()
    let plans = try ctx.plans(db)
    let entry = try plans.catalogue.named(name)
    let plan = entry.plan
    if plan.name == PlanSet.coach && !on {
      throw CLIError(
        "the coach plan cannot be turned off yet: its four flows are compiled in; turn its reminders off instead (nudge schedule off all).",
        code: .usage)
    }
    if plans.isOn(plan) == on {
      ctx.line("The \(plan.name) plan is \(on ? "on" : "off") already.")
    } else {
      try db.choosePlan(plan.name, on: on)
      // its own reminder times: timers enabled or disabled, when the reminders are installed
      try UserUnits(ctx: ctx, dryRun: false).update(
        try ctx.allSchedules(
          db, plans: PlanSet(catalogue: plans.catalogue, choices: try db.planChoices())),
        db: db)
      ctx.line(ctx.style.green("✓") + " The \(plan.name) plan is \(on ? "on" : "off").")
    }
    if on {
      for flow in plan.flows {
        ctx.line(
          "  nudge \(flow.word)  \(VisibleText.escaped(flow.title))"
            + ctx.style.dim(try PlanCommand.reminderWords(flow, plan, ctx, db)))
      }
    } else {
      ctx.line("What its flows saved is kept, and still counts for the days it was done.")
    }
  }

  /// `nudge plan list`: every plan, its flows and their slots; broken files named.
  struct List: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: "List the plans, their flows and their slots.")

    @Flag(help: "Print the plans as JSON.")
    var json = false

    func run(_ ctx: Context) throws {
      let db = try ctx.openDatabase()
      let plans = try ctx.plans(db)
      let catalogue = plans.catalogue
      for problem in catalogue.problems {
        ctx.output.writeError("nudge: \(VisibleText.escaped(problem.described)) (set aside)\n")
      }
      if json {
        ctx.line(
          try jsonText(catalogue.entries.map { PlanSummary($0, on: plans.isOn($0.plan)) }))
        return
      }
      for entry in catalogue.entries {
        let plan = entry.plan
        let state = plans.isOn(plan) ? ctx.style.green("on ") : ctx.style.dim("off")
        ctx.line(
          "\(state) \(ctx.style.bold(plan.name))  \(VisibleText.escaped(plan.title))"
            + ctx.style.dim(entry.file.map { "  (\(VisibleText.escaped($0)))" } ?? "  (built in)"))
        for flow in plan.flows {
          ctx.line(
            "      nudge \(flow.word)  \(VisibleText.escaped(flow.title))"
              + ctx.style.dim(try PlanCommand.reminderWords(flow, plan, ctx, db)))
        }
      }
    }
  }

  /// "  — evening reminder", "  — midday reminder (off: nudge schedule on midday)": the slot
  /// that offers `flow`, and whether its reminder is on (a plan's own slot is on with its
  /// plan); "" for a flow no reminder offers.
  static func reminderWords(_ flow: FlowDefinition, _ plan: Plan, _ ctx: Context, _ db: AppDatabase)
    throws -> String
  {
    guard let id = flow.slot else { return "" }
    let slot = ReminderSource.of(plan: plan.name, id: id)
    guard !slot.hasOwnTimer else { return "  — \(id) reminder" }
    let on = try db.schedules().first { $0.slot == slot }?.enabled ?? slot.enabledByDefault
    return "  — \(id) reminder" + (on ? "" : " (off: nudge schedule on \(id))")
  }

  /// `nudge plan show NAME`: a plan in full — its flows, their questions and slots.
  struct Show: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "show", abstract: "Show one plan: its flows, questions and slots.")

    @Argument(help: "The plan's name (see 'nudge plan list').")
    var name: String

    @Flag(help: "Print the plan as JSON.")
    var json = false

    func run(_ ctx: Context) throws {
      let plans = try ctx.plans(try ctx.openDatabase())
      let entry = try plans.catalogue.named(name)
      let isOn = plans.isOn(entry.plan)
      if json {
        ctx.line(try jsonText(PlanSummary(entry, on: isOn)))
        return
      }
      let plan = entry.plan
      ctx.line(
        ctx.style.bold(VisibleText.escaped(plan.title)) + " (\(plan.name), "
          + (isOn ? "on" : "off: nudge plan on \(plan.name)") + ")")
      if !plan.about.isEmpty { ctx.wrappedLine(VisibleText.escaped(plan.about)) }
      for slot in plan.slots {
        ctx.line(
          ctx.style.dim("slot \(slot.id) at \(VisibleText.escaped(slot.at)): ")
            + VisibleText.escaped(slot.title))
      }
      for flow in plan.flows {
        ctx.line()
        ctx.line(
          ctx.style.bold("nudge \(flow.word)") + "  \(VisibleText.escaped(flow.title))"
            + (flow.slot.map { ctx.style.dim("  (\($0) reminder)") } ?? ""))
        for question in flow.questions {
          let mark = question.required ? "*" : " "
          ctx.line(
            "  \(mark) \(question.id.padded(to: 16)) \(VisibleText.escaped(question.ask))"
              + ctx.style.dim(" [\(VisibleText.escaped(question.kind.described))]"))
        }
      }
      if !plan.challenges.isEmpty {
        let categories = Set(plan.challenges.map(\.category)).sorted()
        ctx.line()
        ctx.line(
          "\(plan.challenges.count) challenges in \(categories.count) categories: "
            + categories.joined(separator: ", "))
      }
      ctx.line()
      ctx.line(ctx.style.dim("* answered for the entry to count"))
    }
  }

  /// `nudge plan check FILE`: reads a plan file as Nudge would, and says every problem as
  /// FILE:LINE: what is wrong and what is allowed.
  struct Check: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "check", abstract: "Check a plan file (FILE:LINE for what is wrong).")

    @Argument(help: "The plan file.")
    var file: String

    func run(_ ctx: Context) throws {
      let text: String
      switch Context.planFileText(file, files: ctx.platform.files) {
      case .success(let read): text = read
      case .failure(let why):
        throw CLIError(
          "cannot read \(VisibleText.escaped(file)): \(why.message).",
          code: .noInput)
      }
      let others = ctx.planCatalogue(excluding: file)
      let words = Set(others.entries.flatMap { $0.plan.flows.map(\.word) })
        .union(Nudge.commandWords)
      do throws(PlanFileError) {
        let plan = try PlanFile.read(
          text, reservedWords: words, timeProblem: ctx.planTimeProblem)
        if plan.name == "habit" {
          throw PlanFileError(
            line: PlanFile.nameLine(in: text),
            "the plan name 'habit' is Nudge's own (your habits' reminders); give this one another name"
          )
        }
        if let other = others.plan(named: plan.name) {
          throw PlanFileError(
            line: PlanFile.nameLine(in: text),
            "a plan named '\(plan.name)' is already there (\(other.file ?? "built in")); give this one another name"
          )
        }
        let questions = plan.flows.map(\.questions.count).reduce(0, +)
        ctx.line(
          "\(VisibleText.escaped(file)): plan '\(plan.name)', \(plan.flows.count) flow\(plan.flows.count == 1 ? "" : "s") (\(plan.flows.map(\.word).joined(separator: ", "))), \(questions) question\(questions == 1 ? "" : "s"): ok"
        )
      } catch {
        throw CLIError(error.described(file: file), code: .badData)
      }
    }
  }
}

/// A plan as `plan list --json` and `plan show --json` print it.
struct PlanSummary: Encodable {
  struct FlowSummary: Encodable {
    var id: String
    var word: String
    var title: String
    @NullWhenAbsent var slot: String?
    var questions: [String]
  }
  var name: String
  var title: String
  var on: Bool
  @NullWhenAbsent var file: String?
  var flows: [FlowSummary]
  var slots: [String: String]

  init(_ entry: PlanCatalogue.Entry, on: Bool) {
    name = entry.plan.name
    title = entry.plan.title
    self.on = on
    file = entry.file
    flows = entry.plan.flows.map {
      FlowSummary(
        id: $0.id, word: $0.word, title: $0.title, slot: $0.slot, questions: $0.questions.map(\.id))
    }
    slots = Dictionary(uniqueKeysWithValues: entry.plan.slots.map { ($0.id, $0.at) })
  }
}

extension Question.Kind {
  /// How `plan show` names it.
  var described: String {
    switch self {
    case .yesNo: "yes/no"
    case .oneOf(let options): "one of " + options.map(\.id).joined(separator: ", ")
    case .severalOf(let options): "any of " + options.map(\.id).joined(separator: ", ")
    case .text(let max): "text, \(max) characters at most"
    case .number(let unit, let low, let high):
      "a number \(low)-\(high)" + (unit.map { " (\($0))" } ?? "")
    case .timeOfDay: "a time, HH:MM"
    case .challenge: "tonight's challenge, chosen by the plan's rules"
    }
  }
}

extension PlanCatalogue {
  /// The plan named `name`, else a usage error that lists the plans.
  func named(_ name: String) throws -> Entry {
    guard let entry = plan(named: name) else {
      let names = entries.map(\.plan.name)
      throw CLIError(
        "there is no plan named '\(name)' (\(names.joined(separator: ", "))).\(Suggestion.hint(for: name, among: names)) See 'nudge plan list'.",
        code: .usage)
    }
    return entry
  }
}

extension Nudge {
  /// The words of nudge's own commands (a plan's flow cannot take one), and `help`. Written
  /// out: reading them from the commands' configurations initialises all of them, a few
  /// percent of every start that reads the plans; `RootHelpTests` holds the list to them.
  static let commandWords: Set<String> = [
    "today", "prep", "review", "checkin", "need-help", "show", "history", "edit", "delete",
    "undo", "redo", "pause", "resume", "week", "streak", "achievements", "celebrate", "schedule",
    "notify", "log", "open", "doctor", "install", "uninstall", "daemon", "config", "plan",
    "habit", "sync", "export", "import", "help",
  ]
}

extension Context {
  /// The folder of the person's plan files: $XDG_CONFIG_HOME/nudge/plans (an absolute
  /// XDG_CONFIG_HOME only), else ~/.config/nudge/plans.
  var planFolder: String? { Self.planFolder(environment) }

  static func planFolder(_ environment: [String: String]) -> String? {
    if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
      return config + "/nudge/plans"
    }
    guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
    return home + "/.config/nudge/plans"
  }

  /// The built-in plans and the person's `*.plan` files (but `excluding`, a file being checked).
  func planCatalogue(excluding: String? = nil) -> PlanCatalogue {
    Self.planCatalogue(
      environment, files: platform.files, excluding: excluding, timeProblem: planTimeProblem)
  }

  /// The catalogue as `environment` places the person's plan files, read through `files`.
  /// `readingBuiltIn`: which built-in plans are read when the person has no plan files (with
  /// files, every one is: a file is judged against all of them).
  /// `arriving`: plan files an import brings, read beside the folder's as if dropped in.
  static func planCatalogue(
    _ environment: [String: String], files fileSystem: any FileSystem, excluding: String? = nil,
    timeProblem: (String) -> String? = { _ in nil },
    readingBuiltIn: (String) -> Bool = { _ in true },
    arriving: [(path: String, text: String)] = []
  ) -> PlanCatalogue {
    var files: [(path: String, text: String?)] = arriving.map { ($0.path, $0.text) }
    var unreadable: [String: String] = [:]
    if let folder = planFolder(environment) {
      // held to the sync folder's rules: a folder others may change holds no plan of the
      // person's (a file put there runs as their flow)
      let folderProblem = fileSystem.othersMayChange(folder)
      // all the names (up to 10,000), sorted, so the files read are the first by name
      let names = fileSystem.names(in: folder, limit: 10_000) ?? []
      for name in names where name.hasSuffix(".plan") && !name.hasPrefix(".") {
        let path = folder + "/" + name
        if let excluding, fileSystem.isSameFile(path, excluding) { continue }
        if let folderProblem {
          unreadable[path] =
            "not read: the plans folder \(folder) is not yours alone (\(folderProblem)); run chmod go-w \(ShellWord.quoted(folder))"
          files.append((path, nil))
          continue
        }
        switch planFileText(path, files: fileSystem) {
        case .success(let text): files.append((path, text))
        case .failure(let why):
          unreadable[path] = why.message
          files.append((path, nil))
        }
      }
    }
    return PlanCatalogue.load(
      files: files, commandWords: Nudge.commandWords, timeProblem: timeProblem,
      readingBuiltIn: files.isEmpty ? readingBuiltIn : { _ in true }, unreadable: unreadable)
  }

  /// A plan file's text, or why it is not one: a file only its person may change (the sync
  /// folder's rule), a regular file of at most `PlanFile.maxBytes`, UTF-8 throughout (the
  /// first byte that is not, by its offset); a leading byte-order mark is dropped.
  static func planFileText(_ path: String, files: any FileSystem) -> Result<String, InputError> {
    switch files.read(path, limit: PlanFile.maxBytes) {
    case .failure(.tooLarge):
      return .failure(
        InputError(
          "it is larger than \(PlanFile.maxBytes / 1024) KiB, the most a plan file may be"))
    case .failure(.notRegular(let kind)):
      return .failure(InputError("it is \(kind), not a regular file"))
    case .failure(.cannotOpen(let why)):
      return .failure(InputError("it cannot be opened (\(why.lowercased()))"))
    case .success(var bytes):
      if let problem = files.othersMayChange(path) {
        return .failure(
          InputError(
            "not read: \(problem), and a plan file is yours alone to change; make it yours, with chown if need be, and run chmod go-w \(ShellWord.quoted(path))"
          ))
      }
      if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
      if let offset = UTF8Text.firstInvalidByte(bytes) {
        return .failure(
          InputError(
            "byte \(offset) is not UTF-8 text (a plan file is UTF-8); save it as UTF-8 and check again"
          ))
      }
      return .success(String(decoding: bytes, as: UTF8.self))
    }
  }

  /// What is wrong with a plan slot's time (nil: plain words or a calendar expression Nudge
  /// reads).
  func planTimeProblem(_ at: String) -> String? {
    do {
      _ = try planSlotSpec(at)
      return nil
    } catch {
      return
        "'\(at)' is not a time Nudge reads (\(error.message)): write it like '7:30', '9pm', 'weekdays 7:30' or as a systemd calendar expression"
    }
  }
}
