import NudgeCore
import NudgeLinux
import NudgeStore

/// The loop `nudge status --follow` and `nudge tray` share: it reads today (`PanelDay`), then
/// sleeps, with no other wake-up, until something could change what the panel shows — a file
/// written in the database's folder or the sync folder (another computer's change is taken in
/// first), the part of the day or the day turning, the wall clock set, the time zone changed
/// (read again) — or a peer calls, or the output's reader goes, or a stop signal comes.
struct PanelWatch {
  /// Why a wait ended.
  enum Wake: Equatable {
    /// What the panel shows may have changed: read the day again.
    case changed
    /// The descriptor given to `next` has something to read (a panel's call on the bus).
    case peerCalled
    /// A stop signal came, or the output's reader went: the loop ends.
    case stopped
  }

  /// The run's context; its zone follows a change of the system's.
  private(set) var ctx: Context
  let db: AppDatabase
  private let watch: WakeWatch
  private let syncFolder: String?
  /// When the day read last can next change with nothing written; nil before a read, or
  /// after one that failed (then a minute).
  private var nextChange: Instant? = nil

  /// Watches `db`'s folder, the sync folder (when this computer syncs) and the zone's files;
  /// SIGTERM and SIGINT stop it.
  init(_ ctx: Context, _ db: AppDatabase) {
    self.ctx = ctx
    self.db = db
    syncFolder = (try? db.syncDevice())??.folder
    watch = WakeWatch(
      zonePaths: ReminderScheduler.zoneFiles(tz: ctx.environment["TZ"]),
      directories: [parentDirectory(of: db.path)] + [syncFolder].compactMap { $0 })
    watch.stopOnTermination()
  }

  /// Today as it stands now. What the read itself stirs in the database's folder is forgotten
  /// before it, so a write landing during it still wakes the next wait; what arrived in the
  /// sync folder meanwhile (during a take-in, a terminal opening) and a zone change are not.
  mutating func read() throws -> PanelDay {
    // (what arrived in the sync folder, or a zone change, is kept for the next wait)
    watch.forgetChanges(keeping: [syncFolder].compactMap { $0 })
    nextChange = nil
    let day = try PanelDay.read(ctx, db, at: ctx.clock.now())
    nextChange = day.nextChange
    return day
  }

  /// Waits for the next wake: `peer` readable, `output`'s reader gone, or a change.
  mutating func next(peer: Int32? = nil, output: Int32? = nil) -> Wake {
    let seconds = nextChange.map { max(0.001, $0.seconds(since: ctx.clock.now())) } ?? 60
    switch watch.wait(seconds: seconds, readable: peer, hangUp: output) {
    case .stopped, .hungUp: return .stopped
    case .readable: return .peerCalled
    case .changed:
      // a write is several events: let it finish; what another computer wrote comes in
      switch watch.wait(seconds: 0.05) {
      case .stopped: return .stopped
      case .zoneChanged: ctx.timeZone = ctx.zones.local(tz: ctx.environment["TZ"])
      default: break
      }
      if syncFolder != nil { _ = SyncRunner.takeIn(ctx, db) }
      return .changed
    case .zoneChanged:
      ctx.timeZone = ctx.zones.local(tz: ctx.environment["TZ"])
      return .changed
    case .deadline, .clockSet: return .changed
    }
  }
}
