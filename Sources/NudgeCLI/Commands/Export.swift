import ArgumentParser
import FoundationEssentials
import NudgeCore

/// `nudge export`: everything as one versioned JSON document, or (`--csv`) the entries as a
/// spreadsheet.
struct ExportCommand: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "export",
    abstract: "Write everything Nudge stores as versioned JSON, or the entries as CSV.")

  @Flag(
    help: ArgumentHelp(
      "Write the entries as CSV for a spreadsheet instead: one row per entry and per habit day (day, flow, saved_at, then a column per answer, FLOW.ID where two flows ask an ID, and habit, habit_state, habit_amount, habit_unit), UTF-8 with CRLF line ends; a cell that starts with = + - or @ gets a ' before it."
    ))
  var csv = false

  @Option(
    name: .shortAndLong,
    help: ArgumentHelp(
      "Write to FILE (mode 0600, replaced atomically) instead of stdout ('-': stdout).",
      valueName: "file"))
  var output: String?

  /// `nudge export [--csv] [-o FILE]` read without the argument parser (`PlainWords`; its
  /// first use was a twentieth of a ten-year export). Anything else is nil, for the parser to
  /// read: `-o=FILE` among it (a short option's `=` is the parser's to read).
  static func quickParse(_ arguments: [String]) -> Self? {
    guard arguments.first == "export",
      !arguments.contains(where: { $0.hasPrefix("-o=") }),
      let words = PlainWords(
        arguments.dropFirst(), options: ["-o", "--output"], flags: ["--csv"]),
      words.positionals.isEmpty,
      words.options.count <= 1
    else { return nil }
    var command = Self()
    command.csv = words.flags.contains("--csv")
    command.output = words.options["-o"] ?? words.options["--output"]
    return command
  }

  func run(_ ctx: Context) throws {
    let db = try ctx.openDatabase()
    let data =
      csv
      ? Data(
        EntriesSpreadsheet.csv(
          try db.storedEntries(), questions: ctx.planCatalogue().questionsAsked,
          habitDays: try db.habits(includingArchived: true).flatMap { habit in
            try db.habitChecks(habit.id).map {
              EntriesSpreadsheet.HabitDay(habit: habit.name, unit: habit.unit, check: $0)
            }
          }
        ).utf8)
      : try Self.withPlanFiles(try db.exportDocument(), ctx).encoded()
    // never a backup that `import` would refuse (the limits keep everything well under it)
    if !csv && data.count > ExportDocument.maxBytes {
      throw CLIError(
        "the export would be \(data.count / 1_048_576) MiB, more than the \(ExportDocument.maxBytes / 1_048_576) MiB import takes, so it could not be restored; nothing was written. Remove habits you no longer keep (nudge habit remove NAME), then export again.",
        code: .badData)
    }
    guard let output, output != "-" else {
      ctx.output.write(String(decoding: data, as: UTF8.self))
      return
    }
    do {
      try ctx.platform.files.writeAtomically([UInt8](data), to: output, mode: 0o600)
    } catch {
      throw CLIError(
        "Cannot write \(VisibleText.escaped(output)): \(error.reason). Choose a writable path, or '-' for stdout.",
        code: .cannotCreate)
    }
    ctx.output.writeError("Exported to \(VisibleText.escaped(output)).\n")
  }
}

extension ExportCommand {
  /// `document` with the person's plan files as text (those read as plans: a file set aside
  /// stays out), so a backup restores the flows its entries are of.
  static func withPlanFiles(_ document: ExportDocument, _ ctx: Context) -> ExportDocument {
    var document = document
    document.planFiles = ctx.planCatalogue().entries.compactMap { entry in
      guard let path = entry.file,
        case let name = String(path.split(separator: "/").last ?? ""),
        ExportPlanFile.isFileName(name),
        case .success(let text) = Context.planFileText(path, files: ctx.platform.files)
      else { return nil }
      return ExportPlanFile(name: name, text: text)
    }.sorted { $0.name < $1.name }
    return document
  }
}
