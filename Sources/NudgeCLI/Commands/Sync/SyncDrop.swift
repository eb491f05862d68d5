import ArgumentParser
import NudgeUseCases

extension SyncCommand {
  /// `nudge sync drop ID`.
  struct Drop: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "drop", abstract: "Forget a conflict's kept version (the one that won stays).")

    @Argument(help: "The conflict's number, as 'nudge sync status' shows it.")
    var id: Int

    func run(_ ctx: Context) throws {
      let db = try ctx.openDatabase()
      guard try db.syncDevice() != nil else { throw SyncCommand.notOn }
      guard try DropConflict(db: db)(id) else { throw SyncCommand.noConflict(id) }
      ctx.line(
        ctx.style.green("✓")
          + " Forgot conflict \(id) on this computer; the version that won stays. Another computer keeps its own copy of it (under its own number)."
      )
    }
  }
}
