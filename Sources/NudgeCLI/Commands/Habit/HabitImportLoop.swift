import ArgumentParser
import NudgeCore
import NudgeLinux
import NudgeStore
import NudgeUseCases

extension HabitCommand {
  /// `nudge habit import-loop FILE`: Loop Habit Tracker's full backup or its CSV export (the
  /// zip, or the folder it was unpacked into), all or nothing.
  struct ImportLoop: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "import-loop",
      abstract: "Bring your habits and their days from Loop Habit Tracker (backup or CSV).",
      discussion: """
        In Loop: Settings, Export full backup; copy the .db file here. Names, questions, \
        frequencies, reminder times, targets and units come, and every check, amount, skip, \
        no and note. Loop's Export as CSV (its zip, or the folder it was unpacked into) \
        works too; it lacks reminders, targets and units. A habit already here by name is \
        the same habit; the same file again changes nothing. All or nothing: a file Nudge \
        can't take changes nothing.
        """)

    @Argument(
      help: "The backup file (Loop's SQLite database), or its CSV export (zip or folder).",
      completion: .file())
    var file: String

    func run(_ ctx: Context) throws {
      let db = try ctx.openDatabase()
      let now = ctx.today(try db.settings())
      let today = now.day
      // a file not there, or not readable: no input (66), as `import` says it
      guard ctx.platform.files.isReadable(file) else {
        throw CLIError(
          "cannot read \(VisibleText.escaped(file)): give the file Loop Habit Tracker writes with Settings, Export full backup",
          code: .noInput)
      }
      let backup = try Self.read(file, today: today)
      try HabitCommand.bringIn(backup, db: db, now: now, ctx)
    }

    /// The backup at `path`: Loop's SQLite file, or its CSV export (a zip, or a folder).
    static func read(_ path: String, today: Day) throws -> LoopBackup {
      let shown = VisibleText.escaped(path)
      let isCSV =
        TrackerExportFiles.isFolder(path)
        || (try? ExportFile(path: path)).map { file in
          defer { file.close() }
          return file.kind() == .zip
        } ?? false
      guard isCSV else {
        do throws(LoopBackupError) { return try LoopBackup.read(path: path, today: today) } catch {
          throw CLIError(error.message, code: .badData)
        }
      }
      let files: [String: String]
      do {
        // Habits.csv and each habit's days: never Scores.csv, nor anything else in the zip
        files = try TrackerExportFiles.csvFiles(at: path, limit: LoopCSV.maxFileBytes) {
          $0 == "Habits.csv" || $0.hasSuffix("/Checkmarks.csv")
        }
      } catch let failure as ExportFile.Failure {
        throw CLIError(
          "\(shown): \(failure.message); give Loop's CSV export (its zip or folder) or its backup",
          code: failure.unavailable ? .unavailable : .badData)
      }
      do throws(InputError) { return try LoopCSV.read(files) } catch {
        throw CLIError("\(shown): \(error.message); nothing was imported", code: .badData)
      }
    }
  }
}
