import ArgumentParser
import NudgeCore
import NudgeUseCases

extension SyncCommand {
  /// `nudge sync take ID`.
  struct Take: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "take", abstract: "Take a conflict's kept version instead of the one that won.")

    @Argument(help: "The conflict's number, as 'nudge sync status' shows it.")
    var id: Int

    func run(_ ctx: Context) throws {
      let db = try ctx.openDatabase()
      guard let me = try db.syncDevice() else { throw SyncCommand.notOn }
      let (day, at) = ctx.today(try db.settings())
      // what the take changes, said before it is gone from the listing
      let status = try SyncStatus.of(ctx, db, me)
      // a kept removal is no listing's, but is taken as any other
      let conflict = status.conflicts.first { $0.id == id }
      guard let kept = try db.syncConflicts().first(where: { $0.id == id }),
        let settled = try TakeConflict(db: db)(id, madeOn: day, at: at)
      else { throw SyncCommand.noConflict(id) }
      // what the take brings: a plan file into the folder (before a write takes the folder's
      // as this computer's), timers for a time, a habit or a plan
      var brought = SyncExchange.Report()
      brought.slotsChanged = true
      try SyncRunner.after(ctx, db, brought)
      _ = try? SyncRunner.exchange(ctx, db, me).writeOut()
      ctx.line(
        ctx.style.green("✓")
          + " Took \(VisibleText.escaped(conflict?.keptFrom ?? "the other computer"))'s \(conflict.map { SyncStatus.spoken($0.key) } ?? "removal of \(SyncStatus.spoken(kept.key.description))") (conflict \(id)): it wins on every computer once they sync. 'nudge undo' takes an entry's back (today)."
      )
      for difference in conflict?.differs ?? [] {
        ctx.wrappedLine(
          "  \(difference.label): now \(difference.kept.map { "'\($0)'" } ?? "nothing") (was \(difference.won.map { "'\($0)'" } ?? "nothing"))",
          indent: 4)
      }
      ctx.sayAchievements(
        lost: settled.lost, new: settled.new,
        lostBecause:
          "the version taken does not reach it; the other computers take it back as they sync")
    }
  }
}
