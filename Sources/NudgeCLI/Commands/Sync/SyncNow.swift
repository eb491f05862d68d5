import ArgumentParser
import NudgeCore

extension SyncCommand {
  /// `nudge sync` (`nudge sync now`): exchange now and say what arrived.
  struct Now: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "now", abstract: "Exchange now: write what changed here, take in what arrived.")

    func run(_ ctx: Context) throws {
      let db = try ctx.openDatabase()
      guard let me = try db.syncDevice() else { throw SyncCommand.notOn }
      let exchange = SyncRunner.exchange(ctx, db, me)
      let written = try exchange.writeOut()
      // with what the command's own start took in
      let report = SyncRunner.takenIn.withLock { $0 }.reduce(try exchange.takeIn()) {
        $0.adding($1)
      }
      try SyncRunner.after(ctx, db, report)
      if report.rewroteOwn {
        ctx.line(
          "This computer's files were missing from \(me.folder): wrote everything it knows again (a snapshot)."
        )
      }
      if written + report.written > 0 {
        ctx.line("Wrote \(Self.changes(written + report.written)) to \(me.folder).")
      }
      for name in report.found {
        ctx.line("Found \(VisibleText.escaped(name)) in the folder.")
      }
      var arrived: [(name: String, count: Int)] = []
      for (name, count) in report.arrived {
        if let at = arrived.firstIndex(where: { $0.name == name }) {
          arrived[at].count += count
        } else {
          arrived.append((name, count))
        }
      }
      for (name, count) in arrived {
        ctx.line("From \(VisibleText.escaped(name)): \(Self.changes(count)).")
      }
      if report.arrived.isEmpty && written + report.written == 0 && report.found.isEmpty
        && !report.rewroteOwn
      {
        ctx.line("Nothing new.")
      }
      for achievement in report.earned {
        ctx.line("🏆 \(ctx.achievementTitle(achievement)) (earned by what arrived).")
      }
      for achievement in report.lost {
        ctx.line(
          ctx.style.yellow(
            "Achievement taken back: \(ctx.achievementTitle(achievement)) (what arrived no longer reaches it)."
          ))
      }
      if report.conflicts > 0 {
        ctx.line(
          "\(report.conflicts == 1 ? "1 conflict" : "\(report.conflicts) conflicts") kept: the later change won; 'nudge sync status' shows the other and how to take it instead."
        )
      }
      for line in report.waiting { ctx.line(ctx.style.dim(line)) }
      for line in report.skipped { ctx.output.writeError("nudge: sync: \(line)\n") }
    }

    static func changes(_ count: Int) -> String { count == 1 ? "1 change" : "\(count) changes" }
  }
}
