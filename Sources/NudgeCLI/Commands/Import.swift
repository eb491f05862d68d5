import ArgumentParser
import FoundationEssentials
import NudgeCore
import NudgeLinux
import NudgeUseCases

/// `nudge import FILE`: merge an export, all or nothing.
struct ImportCommand: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "import",
    abstract: "Merge a 'nudge export' file: idempotent, all or nothing.",
    discussion: "Days you already have keep whichever save is newer; notes are kept by id.")

  @Argument(help: "The export file ('-' for stdin).", completion: .file(extensions: ["json"]))
  var file: String

  @Flag(help: "Print what changed as JSON.")
  var json = false

  func run(_ ctx: Context) throws {
    let data: Data
    let limit = ExportDocument.maxBytes
    let tooLarge = CLIError(
      "\(file == "-" ? "standard input" : file) holds more than \(limit >> 20) MiB, more than any Nudge export; pass a file written by 'nudge export'. Nothing was imported.",
      code: .badData)
    if file == "-" {
      if ctx.input.isTerminal {
        throw CLIError(
          "'nudge import -' reads a document from standard input, which is a terminal here; pipe one in (nudge import - < backup.json) or name the file.",
          code: .usage)
      }
      guard let read = ctx.input.readAll(limit: limit) else { throw tooLarge }
      data = read
    } else {
      switch ctx.platform.readFile(file, limit: limit) {
      case .success(let bytes): data = Data(bytes)
      case .failure(.tooLarge): throw tooLarge
      case .failure(.notRegular(let kind)):
        throw CLIError(
          "Cannot import \(VisibleText.escaped(file)): it is \(kind), not a file written by 'nudge export'.",
          code: .noInput)
      case .failure(.cannotOpen(let reason)):
        throw CLIError(
          "Cannot read \(VisibleText.escaped(file)): \(reason.lowercased()).", code: .noInput)
      }
    }
    let document: ExportDocument
    do throws(InputError) {
      document = try ExportDocument.decode(data)
      // nothing a flow could not have saved yet: no day after today (a day's slack for a
      // device in a zone ahead, or a rollover hour of its own), no time after now
      let today = ctx.today(Settings()).day
      try document.checkNotAfter(day: today, now: ctx.clock.started)
    } catch {
      throw CLIError(
        "\(file == "-" ? "standard input" : VisibleText.escaped(file)): \(error.message) Nothing was imported.",
        code: .badData)
    }
    let source = file == "-" ? "standard input" : file
    for (i, schedule) in document.schedule.enumerated() {
      do { _ = try ctx.reminderCalendar(schedule.expression, local: ctx.timeZone) } catch let error
        as CLIError
      {
        throw CLIError(
          "\(source): schedule[\(i)].expression: \(error.message) Nothing was imported.",
          code: .badData)
      }
    }
    // the plan files it carries, those this person lacks, held to every rule a file dropped
    // into the plans folder is (one that breaks one refuses the import: its entries would be
    // of flows no plan defines); a file of the same name here is kept as it is
    let arriving = try Self.arrivingPlanFiles(document, ctx, source: source)
    let catalogue = Context.planCatalogue(
      ctx.environment, files: ctx.platform.files, builtIn: ctx.builtInPlans,
      timeProblem: ctx.planTimeProblem, arriving: arriving.map { ($0.path, $0.file.text) })
    for (path, file, index) in arriving {
      if let problem = catalogue.problems.first(where: { $0.file == path }) {
        throw CLIError(
          "\(VisibleText.escaped(source)): plan_files[\(index)] (\(file.name)): \(VisibleText.escaped(problem.described)). Nothing was imported.",
          code: .badData)
      }
    }
    // an entry of a defined flow is held to its definition here: a flow some plan defines,
    // answers its questions take, enough to count
    let plans = PlanSet(catalogue: catalogue, choices: [:])
    for (i, entry) in document.flows.enumerated() {
      switch plans.verdict(on: entry) {
      case .taken: continue
      case .undefined:
        throw CLIError(
          "\(VisibleText.escaped(source)): flows[\(i)].flow '\(entry.flow)' is a flow no plan here defines; add its plan file (nudge plan list) and import again. Nothing was imported.",
          code: .badData)
      case .refused(let why):
        throw CLIError(
          "\(VisibleText.escaped(source)): flows[\(i)]: \(VisibleText.escaped(why)). Nothing was imported.",
          code: .badData)
      }
    }
    // a habit is held to what `nudge habit add` and `done` take
    var habits: [(habit: Habit, checks: [HabitCheck])] = []
    for (i, habit) in document.habits.enumerated() {
      do throws(InputError) {
        let checked = try habit.checked(
          reserved: HabitCommand.reservedNames, timeProblem: ctx.planTimeProblem)
        habits.append((checked.habit, checked.days))
      } catch {
        throw CLIError(
          "\(VisibleText.escaped(source)): habits[\(i)]: \(VisibleText.escaped(error.message)). Nothing was imported.",
          code: .badData)
      }
    }
    let db = try ctx.openDatabase()
    let summary = try ImportDocument(db: db)(
      document, habits: habits, at: ctx.today(try db.settings()).savedAt)
    // the plan files go in once what they define is stored (a file that cannot be written is
    // said; the entries are in, and the file can be added by hand)
    var placed: [String] = []
    for (path, file, _) in arriving {
      do {
        if let folder = ctx.planFolder { try ctx.platform.files.createDirectory(folder) }
        try ctx.platform.files.writeAtomically(Array(file.text.utf8), to: path, mode: 0o600)
        placed.append(file.name)
      } catch {
        ctx.output.writeError(
          "nudge: could not write the plan file \(VisibleText.escaped(path)) (\(error.reason)); its entries are imported: copy the file there by hand.\n"
        )
      }
    }
    if !habits.isEmpty { try HabitReminders.update(ctx, db) }
    if summary.scheduleChanged {
      try UserUnits(ctx: ctx, dryRun: false).update(try ctx.allSchedules(db), db: db)
    }
    try ctx.render(ImportReport(summary), json: json) {
      ctx.line(
        ctx.style.green("✓")
          + " Imported \(VisibleText.escaped(source)): \(summary.added) added, \(summary.updated) updated, \(summary.unchanged) already here."
      )
      for line in Self.changes(summary, title: ctx.achievementTitle) {
        ctx.wrappedLine("  " + line, indent: 4)
      }
      if !placed.isEmpty {
        ctx.wrappedLine(
          "  Plan files added to \(VisibleText.escaped(ctx.planFolder ?? "")): "
            + placed.joined(separator: ", ") + " (nudge plan list shows them).", indent: 4)
      }
    }
  }

  /// The plan files `document` carries that this person has none of by that name, each with
  /// the path it would take in the plans folder and its place in the document. Refused when
  /// there is no plans folder, or one others may change (nothing is put where another user
  /// could have written it).
  static func arrivingPlanFiles(_ document: ExportDocument, _ ctx: Context, source: String)
    throws -> [(path: String, file: ExportPlanFile, index: Int)]
  {
    guard !document.planFiles.isEmpty else { return [] }
    guard let folder = ctx.planFolder else {
      throw CLIError(
        "\(VisibleText.escaped(source)) carries plan files, and there is no plans folder (HOME is not set); set HOME and import again. Nothing was imported.",
        code: .badData)
    }
    let files = ctx.platform.files
    if files.exists(folder), let problem = files.othersMayChange(folder) {
      throw CLIError(
        "\(VisibleText.escaped(source)) carries plan files, and the plans folder \(VisibleText.escaped(folder)) is not yours alone (\(problem)); run chmod go-w \(ShellWord.quoted(folder)) and import again. Nothing was imported.",
        code: .badData)
    }
    return document.planFiles.enumerated().compactMap { index, file in
      let path = folder + "/" + file.name
      return files.exists(path) ? nil : (path, file, index)
    }
  }

  /// Every change beyond the entries, one line each, and what was skipped and why.
  static func changes(
    _ s: ImportDocument.Summary, title: (Achievement) -> String = \.title
  ) -> [String] {
    var lines: [String] = []
    if !s.replaced.isEmpty {
      lines.append(
        "Replaced by the file's newer saves: " + s.replaced.joined(separator: ", ") + ".")
    }
    if !s.keptFuller.isEmpty {
      lines.append(
        "Kept yours (the file's newer save answers less): " + s.keptFuller.joined(separator: ", ")
          + ".")
    }
    if !s.settingsAdded.isEmpty {
      lines.append("Settings taken: " + s.settingsAdded.joined(separator: ", ") + ".")
    }
    if !s.settingsSkipped.isEmpty {
      lines.append(
        "Skipped " + s.settingsSkipped.joined(separator: ", ")
          + ": it names a program on a computer, so it is only set here, with 'nudge config set'.")
    }
    if !s.schedulesAdded.isEmpty {
      lines.append(
        "Reminder times taken for " + s.schedulesAdded.map(\.rawValue).joined(separator: ", ")
          + ".")
    }
    if !s.plansChosen.isEmpty {
      lines.append(
        "Plans turned as the file had them: " + s.plansChosen.joined(separator: ", ") + ".")
    }
    if s.habitsAdded > 0 || s.habitDaysAdded > 0 || s.habitDaysKept > 0 {
      lines.append(
        "Habits: \(s.habitsAdded) new, \(s.habitDaysAdded) day\(s.habitDaysAdded == 1 ? "" : "s") added"
          + (s.habitDaysKept > 0
            ? ", \(s.habitDaysKept) kept as recorded here (the file has them otherwise)" : "")
          + ".")
    }
    if !s.pausesAdded.isEmpty {
      lines.append("Pauses added: " + s.pausesAdded.joined(separator: ", ") + ".")
    }
    if !s.newAchievements.isEmpty {
      lines.append(
        "Achievements earned by these entries: "
          + s.newAchievements.map(title).joined(separator: ", ") + ".")
    }
    if !s.lostAchievements.isEmpty {
      lines.append(
        "Achievements no entry supports, taken back: "
          + s.lostAchievements.map(title).joined(separator: ", ") + ".")
    }
    return lines
  }
}

/// The JSON `nudge import --json` prints: counts, and every other change named.
struct ImportReport: Encodable {
  var added: Int
  var updated: Int
  var unchanged: Int
  var replaced: [String]
  var keptFuller: [String]
  var newAchievements: [Achievement]
  var lostAchievements: [Achievement]
  var settingsAdded: [String]
  var settingsSkipped: [String]
  var schedulesAdded: [ReminderSource]
  var pausesAdded: [String]

  init(_ s: ImportDocument.Summary) {
    added = s.added
    updated = s.updated
    unchanged = s.unchanged
    replaced = s.replaced
    keptFuller = s.keptFuller
    newAchievements = s.newAchievements
    lostAchievements = s.lostAchievements
    settingsAdded = s.settingsAdded
    settingsSkipped = s.settingsSkipped
    schedulesAdded = s.schedulesAdded
    pausesAdded = s.pausesAdded
  }
}
