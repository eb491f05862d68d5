import ArgumentParser
import NudgeUseCases

extension SyncCommand {
  /// `nudge sync leave`.
  struct Leave: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "leave",
      abstract: "Stop syncing this computer (the folder keeps its files; your entries stay).")

    func run(_ ctx: Context) throws {
      let db = try ctx.openDatabase()
      guard let me = try db.syncDevice() else { throw SyncCommand.notOn }
      // what changed here last goes out first, so the others have it
      if (try? SyncRunner.exchange(ctx, db, me).writeOut()) == nil, try db.syncPending() > 0 {
        ctx.output.writeError(
          "nudge: sync: \(try db.syncPending()) changes could not be written to \(me.folder); they stay here only.\n"
        )
      }
      try SyncMembership(db: db).leave()
      ctx.line(
        ctx.style.green("✓")
          + " This computer no longer syncs. \(me.folder) keeps its files (nudge-\(me.device).*): a computer that joins later takes what this one did from them, so leave them there."
      )
    }
  }
}
