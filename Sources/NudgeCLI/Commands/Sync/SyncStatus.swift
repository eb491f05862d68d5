import ArgumentParser
import NudgeCore
import NudgeLinux
import NudgeStore

extension SyncCommand {
  /// `nudge sync status [--json]`.
  struct Status: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "status", abstract: "The devices seen, what is pending, the conflicts kept.")

    @Flag(help: "Print it as JSON.")
    var json = false

    func run(_ ctx: Context) throws {
      let db = try ctx.openDatabase()
      guard let me = try db.syncDevice() else {
        try ctx.render(SyncStatus(on: false), json: json) {
          ctx.line(
            "Sync is off. 'nudge sync init DIR' joins this computer through a shared folder.")
        }
        return
      }
      let status = try SyncStatus.of(ctx, db, me)
      try ctx.render(status, json: json) {
        status.say(ctx)
      }
    }
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
