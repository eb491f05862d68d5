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
        || (try? HealthExportFile(path: path)).map { file in
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
      } catch let failure as HealthExportFile.Failure {
        throw CLIError(
          "\(shown): \(failure.message); give Loop's CSV export (its zip or folder) or its backup",
          code: failure.unavailable ? .unavailable : .badData)
      }
      do throws(InputError) { return try LoopCSV.read(files) } catch {
        throw CLIError("\(shown): \(error.message); nothing was imported", code: .badData)
      }
    }
  }

  /// Maps `backup` (Loop's, or another tracker's read as one) and writes it, all or nothing,
  /// then says what came: habits, checks, noes and skips, and what was brought near.
  static func bringIn(
    _ backup: LoopBackup, also: [String] = [], db: AppDatabase, now: (day: Day, savedAt: String),
    _ ctx: Context
  ) throws {
    let mapped: LoopImport
    do throws(InputError) {
      mapped = try LoopImport.of(backup, today: now.day, reserved: HabitCommand.reservedNames)
    } catch {
      throw CLIError(error.message, code: .badData)
    }
    for habit in mapped.habits where habit.habit.at != nil {
      if let problem = ctx.planTimeProblem(habit.habit.at!) {
        throw CLIError(problem, code: .badData)
      }
    }
    let (count, settled) = try HabitChanges(db: db).importHabits(mapped.habits, at: now.savedAt)
    try HabitReminders.update(ctx, db)
    let checks = mapped.habits.flatMap(\.checks)
    let skips = checks.filter(\.isSkip).count
    let noes = checks.filter(\.failed).count
    let done = checks.count - skips - noes
    let noWords = noes == 0 ? "" : ", \(noes) no\(noes == 1 ? "" : "s")"
    ctx.line(
      ctx.style.green("✓")
        + " From \(backup.source): \(mapped.habits.count) habit\(mapped.habits.count == 1 ? "" : "s") (\(count.newHabits) new, \(count.sameHabits) here already), \(done) check\(done == 1 ? "" : "s")\(noWords) and \(skips) skip\(skips == 1 ? "" : "s"): \(count.newChecks) new, \(count.sameChecks) the same, \(count.keptChecks) kept as recorded here."
    )
    for note in also + mapped.notes { ctx.line(ctx.style.dim("  " + note + ".")) }
    ctx.line(ctx.style.dim("  (an import is not taken back by nudge undo)"))
    if !settled.newAchievements.isEmpty {
      ctx.line("Earned: " + settled.newAchievements.map(\.title).joined(separator: ", ") + ".")
    }
  }
}
