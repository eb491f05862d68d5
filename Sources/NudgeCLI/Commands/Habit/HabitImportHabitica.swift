import ArgumentParser
import NudgeCore
import NudgeStore

extension HabitCommand {
  /// `nudge habit import-habitica FILE`: Habitica's user data export, all or nothing.
  struct ImportHabitica: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "import-habitica",
      abstract: "Bring your dailies and habits and their days from Habitica's data export.",
      discussion: """
        FILE is Habitica's user data, JSON (Settings > Site Data > Export Data > User Data: \
        habitica-user-data.json). Each daily comes as a yes/no habit with its days (checked: \
        done; due and missed: a no) and its frequency; a habit with only its plus as a \
        measurable one (plus clicks a day, 1 to meet it), with only its minus as a habit to \
        quit (a minus click: a slip). To-dos and rewards stay. A habit already here by name \
        is the same habit; the same file again changes nothing. All or nothing: what Nudge \
        can't read is named, and nothing is written.
        """)

    @Argument(help: "Habitica's user data export (JSON).", completion: .file(extensions: ["json"]))
    var file: String

    func run(_ ctx: Context) throws {
      let shown = VisibleText.escaped(file)
      let bytes: [UInt8]
      switch ctx.platform.files.read(file, limit: HabiticaExport.maxBytes) {
      case .success(let read): bytes = read
      case .failure(.tooLarge):
        throw CLIError(
          "\(shown) is more than \(HabiticaExport.maxBytes >> 20) MiB; nothing was imported",
          code: .badData)
      case .failure:
        throw CLIError(
          "cannot read \(shown): give the file Habitica's Export Data > User Data (JSON) saved",
          code: .noInput)
      }
      let read: HabiticaExport.Read
      do throws(InputError) {
        read = try HabiticaExport.read(bytes)
      } catch {
        throw CLIError("\(shown): \(error.message); nothing was imported", code: .badData)
      }
      let db = try ctx.openDatabase()
      let now = ctx.today(try db.settings())
      try HabitCommand.bringIn(read.backup, also: read.notes, db: db, now: now, ctx)
    }
  }
}
