import ArgumentParser
import NudgeCore
import NudgeLinux
import NudgeStore
import NudgeUseCases

/// `nudge sync`: one person's devices agreeing through a folder a file-sync tool carries
/// (Syncthing, Nextcloud, a USB stick): each device writes only its own files there.
struct SyncCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "sync",
    abstract: "Keep your computers agreeing through a folder Syncthing (or any file sync) carries.",
    discussion: """
      'nudge sync init DIR' joins this computer; do the same on the other one with its copy of \
      the folder. Each computer writes only its own files there (nudge-ID.log and \
      nudge-ID.snapshot), so the file sync never sees two writers of one file. Entries, help \
      notes, pauses, reminder times and the celebrations setting travel; the terminal setting \
      and anything of one machine never do. Changes made apart are merged: the later wins on \
      both, the other is kept as a conflict ('nudge sync status'). Every command takes in what \
      arrived (nothing is read while no file changed) and writes what it changed.
      """,
    subcommands: [Now.self, Init.self, Status.self, Leave.self, Take.self, Drop.self],
    defaultSubcommand: Now.self)

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
      try db.joinSync(
        device: try db.syncIdentity() ?? SyncDevice.newID(), name: deviceName, folder: path,
        at: at)
      guard let me = try db.syncDevice() else { return }
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

  /// `nudge sync status [--json]`.
  struct Status: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "status", abstract: "The devices seen, what is pending, the conflicts kept.")

    @Flag(help: "Print it as JSON.")
    var json = false

    func run(_ ctx: Context) throws {
      let db = try ctx.openDatabase()
      guard let me = try db.syncDevice() else {
        if json {
          ctx.line(try jsonText(SyncStatus(on: false)))
          return
        }
        ctx.line("Sync is off. 'nudge sync init DIR' joins this computer through a shared folder.")
        return
      }
      let status = try SyncStatus.of(ctx, db, me)
      if json {
        ctx.line(try jsonText(status))
        return
      }
      status.say(ctx)
    }
  }

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
      try db.leaveSync()
      ctx.line(
        ctx.style.green("✓")
          + " This computer no longer syncs. \(me.folder) keeps its files (nudge-\(me.device).*): a computer that joins later takes what this one did from them, so leave them there."
      )
    }
  }

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

  /// `nudge sync drop ID`.
  struct Drop: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "drop", abstract: "Forget a conflict's kept version (the one that won stays).")

    @Argument(help: "The conflict's number, as 'nudge sync status' shows it.")
    var id: Int

    func run(_ ctx: Context) throws {
      let db = try ctx.openDatabase()
      guard try db.syncDevice() != nil else { throw SyncCommand.notOn }
      guard try db.dropSyncConflict(id) else { throw SyncCommand.noConflict(id) }
      ctx.line(
        ctx.style.green("✓")
          + " Forgot conflict \(id) on this computer; the version that won stays. Another computer keeps its own copy of it (under its own number)."
      )
    }
  }

  static let notOn = CLIError(
    "sync is off on this computer: 'nudge sync init DIR' joins it through a shared folder.",
    code: .usage)

  static func noConflict(_ id: Int) -> CLIError {
    CLIError("sync: there is no conflict \(id); 'nudge sync status' lists them.", code: .usage)
  }
}

/// What `nudge sync status` shows (and prints as JSON).
struct SyncStatus: Encodable {
  struct Device: Encodable {
    var id: String
    var name: String
    var lastWrote: String?
    var heardAt: String?
    /// Lines or files of it skipped, and the latest reason.
    var skipped: Int = 0
    var skippedWhy: String? = nil
  }
  struct Conflict: Encodable {
    var id: Int
    var key: String
    var keptFrom: String
    var keptMadeAt: String
    var kept: SyncValue
    var wonFrom: String
    var wonMadeAt: String
    var won: SyncValue?
    /// The fields the two differ in, in the flow's words (only those: taking the kept
    /// version changes these and no other).
    var differs: [ConflictWords.Difference] = []
  }
  var on: Bool
  var device: Device? = nil
  var folder: String? = nil
  /// Why the folder can't be used now (nil when it can).
  var folderProblem: String? = nil
  var joinedAt: String? = nil
  var pending: Int = 0
  var devices: [Device] = []
  var conflicts: [Conflict] = []

  static func of(_ ctx: Context, _ db: AppDatabase, _ me: SyncSelf) throws -> SyncStatus {
    let peers = try db.syncPeers()
    let names = Dictionary(uniqueKeysWithValues: peers.map { ($0.device, $0.name) })
    let words = ConflictWords(plans: try ctx.plans(db), me: me, peers: names)
    // the devices whose files are in the folder now (one that left and took its files, a file
    // refused before it said whose it was: not listed)
    let present = Set(SyncFolder(path: me.folder).deviceFiles().map(\.device))
    let winners = try db.syncWinners(of: try db.syncConflicts().map(\.key))
    func name(_ device: String) -> String {
      device == me.device ? me.name : names[device] ?? device
    }
    func time(_ clock: SyncClock) -> String {
      InstantFormat.format(Instant(microseconds: clock.wall * 1000), in: ctx.timeZone)
    }
    return SyncStatus(
      on: true, device: Device(id: me.device, name: me.name, lastWrote: me.wroteAt, heardAt: nil),
      folder: me.folder, folderProblem: SyncFolder(path: me.folder).problem(),
      joinedAt: me.joinedAt, pending: try db.syncPending(),
      devices: peers.filter { present.contains($0.device) && $0.name != $0.device }.map {
        Device(
          id: $0.device, name: $0.name, lastWrote: $0.latest.map(time), heardAt: $0.heardAt,
          skipped: $0.skipped, skippedWhy: $0.skippedWhy)
      },
      conflicts: try db.syncConflicts().compactMap { conflict in
        guard let value = conflict.kept.value else { return nil }
        let won = winners[conflict.key.description] ?? nil
        return Conflict(
          id: conflict.id, key: conflict.key.description,
          keptFrom: name(conflict.kept.clock.device), keptMadeAt: time(conflict.kept.clock),
          kept: value, wonFrom: name(conflict.winner.device), wonMadeAt: time(conflict.winner),
          won: won, differs: words.differences(conflict.key, kept: value, won: won))
      })
  }

  func say(_ ctx: Context) {
    guard let device, let folder else { return }
    ctx.line(
      "This computer: \(VisibleText.escaped(device.name)) (\(device.id)), syncing through \(folder)."
    )
    if let folderProblem {
      ctx.line("The folder can't be used now: \(VisibleText.escaped(folderProblem)).")
    }
    ctx.line(
      pending == 0
        ? "Nothing waits to be written."
        : "\(pending == 1 ? "1 change waits" : "\(pending) changes wait") to be written (the folder could not be used); 'nudge sync' tries again."
    )
    if let wrote = device.lastWrote { ctx.line("Last wrote: \(SyncStatus.shown(wrote)).") }
    if devices.isEmpty {
      ctx.line(
        folderProblem == nil
          ? "No other computer has written to the folder yet."
          : "No other computer's files are there to read.")
    } else {
      ctx.line("Other computers:")
      for other in devices {
        ctx.line(
          "  \(VisibleText.escaped(other.name)) (\(other.id)): "
            + (other.lastWrote.map { "last change \(SyncStatus.shown($0))" } ?? "no change yet")
            + (other.heardAt.map { ", taken in \(SyncStatus.shown($0))" } ?? ""))
        if other.skipped > 0 {
          ctx.line(
            "    \(other.skipped == 1 ? "1 line or file" : "\(other.skipped) lines or files") of it skipped; the latest: \(other.skippedWhy ?? "")"
          )
        }
      }
    }
    if conflicts.isEmpty {
      ctx.line("No conflicts.")
      return
    }
    ctx.line("Conflicts (the later change won on every computer; the other is kept here):")
    for conflict in conflicts {
      ctx.line(
        "  \(conflict.id). \(SyncStatus.spoken(conflict.key)): kept \(VisibleText.escaped(conflict.keptFrom))'s of \(SyncStatus.shown(conflict.keptMadeAt)); \(VisibleText.escaped(conflict.wonFrom))'s of \(SyncStatus.shown(conflict.wonMadeAt)) won."
      )
      for line in ConflictWords.lines(conflict.differs) {
        ctx.wrappedLine("       " + line, indent: 9, style: ctx.style.dim)
      }
      ctx.line(
        "     Take it instead: nudge sync take \(conflict.id)   Forget it: nudge sync drop \(conflict.id)"
      )
    }
  }

  /// "2026-11-25T21:40:03+01:00" as "2026-11-25 21:40".
  static func shown(_ at: String) -> String {
    let chars = Array(at)
    guard chars.count >= 16 else { return at }
    return String(chars[0..<10]) + " " + String(chars[11..<16])
  }

  /// A key in words: "review on 2026-11-25", "the pause from 2026-11-20".
  static func spoken(_ key: String) -> String {
    guard case .success(let parsed) = SyncKey.parse(key) else { return key }
    switch parsed {
    case .entry(let day, let flow, let id):
      return id == nil ? "\(flow) on \(day)" : "a help note of \(day)"
    case .pause(let day): return "the pause from \(day)"
    case .slot(let slot): return "the \(slot.rawValue) reminder's time"
    case .celebrations: return "the celebrations setting"
    case .habit: return "a habit's definition"
    case .habitDay(_, let day): return "a habit's \(day)"
    case .planChoice(let name): return "whether the \(name) plan is on"
    case .planFile(let name): return "the plan file \(name).plan"
    }
  }
}
