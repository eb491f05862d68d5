import ArgumentParser
import NudgeCore
import NudgeLinux
import NudgeUseCases

extension SyncCommand {
  /// `nudge sync init DIR [--name NAME]`.
  struct Init: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "init", abstract: "Join this computer to sync through a folder.")

    @Argument(help: "The shared folder (this computer's copy of it).", completion: .directory)
    var folder: String

    @Option(help: "This computer's name as the others show it (default: its hostname).")
    var name: String?

    func run(_ ctx: Context) throws {
      let db = try ctx.openDatabase()
      guard !folder.isEmpty else {
        throw CLIError(
          "sync: give the shared folder: nudge sync init ~/Sync/nudge", code: .usage)
      }
      if folder.hasPrefix("~") {
        throw CLIError(
          "sync: '\(VisibleText.escaped(folder))' starts with a ~ the shell did not expand (it was quoted); write it without quotes, or as \"$HOME/\(VisibleText.escaped(String(folder.dropFirst(2))))\".",
          code: .usage)
      }
      let files = ctx.platform.files
      guard let path = files.resolvedPath(folder) else {
        throw CLIError(
          "sync: the folder \(VisibleText.escaped(folder)) is not there; create it (mkdir -m 700 \(ShellWord.quoted(folder))) or give your synced folder.",
          code: .noInput)
      }
      if !files.isDirectory(path) {
        throw CLIError(
          "sync: \(VisibleText.escaped(path)) is a file, not a folder; give the folder your file sync shares.",
          code: .usage)
      }
      if let problem = SyncFolder(path: path).problem() {
        throw CLIError("sync: \(problem). Nothing was changed.", code: .cannotCreate)
      }
      let deviceName = name ?? SyncRunner.hostname(ctx.platform)
      guard SyncDevice.isName(deviceName) else {
        throw CLIError(
          "sync: the name must be 1 to 64 characters on one line, with no surrounding spaces (--name laptop).",
          code: .usage)
      }
      if let me = try db.syncDevice() {
        if me.folder == path && (name == nil || name == me.name) {
          ctx.line(
            "This computer already syncs as '\(VisibleText.escaped(me.name))' through \(path); 'nudge sync' exchanges now."
          )
          return
        }
        throw CLIError(
          "sync: this computer already syncs through \(me.folder) as '\(VisibleText.escaped(me.name))'; 'nudge sync leave' first to change it.",
          code: .usage)
      }
      let at = InstantFormat.format(ctx.clock.started, in: ctx.timeZone)
      // the id it had before, if it synced before: the others know it by it
      guard let me = try SyncMembership(db: db).join(name: deviceName, folder: path, at: at)
      else { return }
      let exchange = SyncRunner.exchange(ctx, db, me)
      // a computer joining again knows what it wrote before (and the conflicts it settled)
      let own = try exchange.takeInOwn()
      for refused in own.refused { ctx.output.writeError("nudge: sync: \(refused)\n") }
      let written = try exchange.writeOut(joining: true)
      // its own files were not its own: written anew from this database, before any other
      // computer reads them as this one's
      if own.distrusted { try exchange.snapshot() }
      let report = try exchange.takeIn()
      try SyncRunner.after(ctx, db, report)
      ctx.line(
        ctx.style.green("✓")
          + " This computer syncs as '\(VisibleText.escaped(deviceName))' through \(path) (wrote \(Now.changes(written)))."
      )
      for (name, count) in report.arrived {
        ctx.line("From \(VisibleText.escaped(name)): \(Now.changes(count)).")
      }
      if report.conflicts > 0 {
        ctx.line("\(report.conflicts) kept as conflicts: 'nudge sync status' shows them.")
      }
      for line in report.skipped { ctx.output.writeError("nudge: sync: \(line)\n") }
      let alone = try report.arrived.isEmpty && db.syncPeers().isEmpty
      ctx.wrappedLine(
        ctx.style.dim(
          (alone
            ? "On your other computer, run 'nudge sync init' with its copy of this folder. " : "")
            + "Every nudge command exchanges by itself; 'nudge sync' does it now."
        ))
    }
  }
}
