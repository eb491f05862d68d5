import ArgumentParser
import NudgeCore
import NudgeLinux
import NudgeStore

extension HabitCommand {
  /// `nudge habit import-harsh [DIR]`: harsh's `habits` and `log` files, all or nothing.
  struct ImportHarsh: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "import-harsh",
      abstract: "Bring your habits and their days from harsh (its habits and log files).",
      discussion: """
        DIR is harsh's folder (default: $HARSHPATH, else ~/.config/harsh). Each habit's name \
        and frequency come, and every day's y (done), n (a no) and s (skip), with its \
        comment as the day's note and its amount (a habit with amounts is measurable). A \
        habit already here by name is the same habit; the same files again change nothing. \
        All or nothing: a line Nudge can't read is named, and nothing is written.
        """)

    @Argument(help: "harsh's folder, holding habits and log.", completion: .directory)
    var folder: String?

    /// The most bytes of either file read.
    static let maxBytes = 64 << 20

    func run(_ ctx: Context) throws {
      let folder =
        self.folder ?? ctx.environment["HARSHPATH"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        ?? ctx.environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 + "/.config/harsh" : nil }
        ?? ""
      let shown = VisibleText.escaped(folder)
      func text(_ name: String) throws -> String {
        let path = folder + "/" + name
        switch ctx.platform.files.read(path, limit: Self.maxBytes) {
        case .success(let bytes):
          guard let text = String(validating: bytes, as: UTF8.self) else {
            throw CLIError(
              "\(shown)/\(name) is not UTF-8 text; nothing was imported", code: .badData)
          }
          return text
        case .failure(.tooLarge):
          throw CLIError(
            "\(shown)/\(name) is more than \(Self.maxBytes >> 20) MiB; nothing was imported",
            code: .badData)
        case .failure:
          throw CLIError(
            "cannot read \(shown)/\(name): give harsh's folder (it holds habits and log)",
            code: .noInput)
        }
      }
      let read: HarshFiles.Read
      let (habits, log) = (try text("habits"), try text("log"))
      do throws(InputError) {
        read = try HarshFiles.read(habits: habits, log: log)
      } catch {
        throw CLIError("\(shown)/\(error.message); nothing was imported", code: .badData)
      }
      let db = try ctx.openDatabase()
      let now = ctx.today(try db.settings())
      let leftOut =
        read.leftOut == 0
        ? []
        : [
          "\(read.leftOut) log line\(read.leftOut == 1 ? " is" : "s are") of habits the habits file no longer lists; left out"
        ]
      try HabitCommand.bringIn(read.backup, also: read.notes + leftOut, db: db, now: now, ctx)
    }
  }
}
