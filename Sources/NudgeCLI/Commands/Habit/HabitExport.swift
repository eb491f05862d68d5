import ArgumentParser
import NudgeCore
import NudgeLinux
import NudgeStore

extension HabitCommand {
  /// `nudge habit export --loop-csv DIR`: every habit and day in the shapes Loop Habit
  /// Tracker's CSV export has (and the HabitBull CSV Loop imports), for going back to a phone.
  struct Export: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "export",
      abstract: "Write your habits and their days as Loop Habit Tracker's CSV files.",
      discussion: """
        --loop-csv DIR writes Habits.csv, a folder a habit with its Checkmarks.csv (Date, \
        Value, Notes) and Checkmarks.csv of all habits, as Loop's Export as CSV does, which \
        'nudge habit import-loop DIR' reads back; and HabitBull.csv, the CSV Loop imports \
        (Settings, Import data), without skips (it has none). DIR must be new or empty. \
        Archived habits come too.
        """)

    @Option(
      name: .customLong("loop-csv"),
      help: ArgumentHelp("The folder to write (new, or empty).", valueName: "dir"),
      completion: .directory)
    var folder: String

    func run(_ ctx: Context) throws {
      let db = try ctx.openDatabase()
      let today = ctx.today(try db.settings()).day
      let files = ctx.platform.files
      let shown = VisibleText.escaped(folder)
      if files.exists(folder) {
        guard let names = files.names(in: folder, limit: 1) else {
          throw CLIError(
            "\(shown) is there and is not a folder; give a new or empty one", code: .cannotCreate)
        }
        guard names.isEmpty else {
          throw CLIError(
            "\(shown) is not empty; give a new or empty folder (nothing was written)",
            code: .cannotCreate)
        }
      }
      let habits = try db.habits(includingArchived: true).map { ($0, try db.habitChecks($0.id)) }
      let written = LoopCSV.write(habits, today: today)
      do throws(AtomicFile.Failure) {
        try files.createDirectory(folder)
        for (name, text) in written.sorted(by: { $0.key < $1.key }) {
          if let slash = name.lastIndex(of: "/") {
            try files.createDirectory(folder + "/" + name[..<slash])
          }
          try files.writeAtomically(Array(text.utf8), to: folder + "/" + name, mode: 0o600)
        }
      } catch {
        throw CLIError(
          "could not write in \(shown): \(error.reason)",
          code: .cannotCreate)
      }
      let days = habits.reduce(0) { $0 + $1.1.count }
      ctx.line(
        ctx.style.green("✓")
          + " Wrote \(habits.count) habit\(habits.count == 1 ? "" : "s") and \(days) day\(days == 1 ? "" : "s") as Loop's CSV in \(shown) (\(written.count) files). "
          + ctx.style.dim("In Loop: Settings, Import data, HabitBull.csv."))
    }
  }
}
