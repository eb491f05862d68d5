import ArgumentParser
import FoundationEssentials
import NudgeCore
import NudgeDesktop
import NudgeStore

/// `nudge export`: everything as one versioned JSON document.
struct ExportCommand: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "export", abstract: "Write everything Nudge stores as versioned JSON.")

  @Option(name: .shortAndLong, help: "Write to FILE (mode 0600) instead of stdout.")
  var output: String?

  func run(_ ctx: Context) throws {
    let db = try ctx.openDatabase()
    let data = try db.exportDocument().encoded()
    guard let output else {
      ctx.output.write(String(decoding: data, as: UTF8.self))
      return
    }
    do {
      try AtomicFile.write([UInt8](data), to: output, mode: 0o600)
    } catch {
      throw CLIError(
        "Cannot write \(output): \(error.reason). Choose a writable path.", code: .cannotCreate)
    }
    ctx.output.writeError("Exported to \(output).\n")
  }
}

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
    if file == "-" {
      data = ctx.input.readAll()
    } else {
      guard let read = FileManager.default.contents(atPath: file) else {
        throw CLIError("Cannot read \(file): no such readable file.", code: .noInput)
      }
      data = read
    }
    let document: ExportDocument
    do {
      document = try ExportDocument.decode(data)
    } catch {
      throw CLIError(
        "\(file == "-" ? "standard input" : file): \(error.message) Nothing was imported.",
        code: .badData)
    }
    let source = file == "-" ? "standard input" : file
    for (i, schedule) in document.schedule.enumerated() {
      do { _ = try ctx.parseCalendar(schedule.expression, local: ctx.timeZone) } catch let error
        as CLIError
      {
        throw CLIError(
          "\(source): schedule[\(i)].expression: \(error.message) Nothing was imported.",
          code: .badData)
      }
    }
    let db = try ctx.openDatabase()
    let summary = try db.importDocument(document)
    if summary.scheduleChanged {
      try UserUnits(ctx: ctx, dryRun: false).update(try db.schedules(), db: db)
    }
    if json {
      ctx.line(try jsonText(ImportReport(summary)))
    } else {
      ctx.line(
        ctx.style.green("✓")
          + " Imported \(source): \(summary.added) added, \(summary.updated) updated, \(summary.unchanged) already here."
      )
    }
  }
}

/// The JSON `nudge import --json` prints.
struct ImportReport: Encodable {
  var added: Int
  var updated: Int
  var unchanged: Int
  var newAchievements: [Achievement]

  init(_ s: AppDatabase.ImportSummary) {
    added = s.added
    updated = s.updated
    unchanged = s.unchanged
    newAchievements = s.newAchievements
  }
}
