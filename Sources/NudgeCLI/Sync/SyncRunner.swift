import NudgeCore
import NudgeLinux
import NudgeStore
import Synchronization

/// Where sync runs by itself: when a command opens the database (take in what arrived, when a
/// device file changed: a reminder's decision comes after it), after each write (write it
/// out), and while a reminder waits (a device file changed).
/// Quiet unless something was skipped; a folder that can't be used is `doctor`'s and `nudge
/// sync`'s to say, never a reason for another command to fail.
enum SyncRunner {
  static func exchange(_ ctx: Context, _ db: AppDatabase, _ me: SyncSelf) -> SyncExchange {
    let now = ctx.clock.now()
    // the plans are read once, when a defined flow's entry first arrives
    let plans = LazyPlans { PlanSet(catalogue: ctx.planCatalogue(), choices: [:]) }
    return SyncExchange(
      db: db, me: me, now: SyncClock.milliseconds(now),
      at: InstantFormat.format(now, in: ctx.timeZone), definedEntry: { plans.set.verdict(on: $0) },
      habitRefusal: { habit in
        do throws(InputError) {
          _ = try habit.checked(
            reserved: HabitCommand.reservedNames, timeProblem: ctx.planTimeProblem)
          return nil
        } catch {
          return VisibleText.escaped(error.message)
        }
      },
      planFileRefusal: { PlanFilesTravel.refusal(ctx, name: $0, text: $1) },
      planFilesHere: { PlanFilesTravel.here(ctx) })
  }

  /// After a take-in: the plan files that arrived are written into the plans folder (and the
  /// entries of their flows that waited for them are taken, read against them); the timers
  /// follow a schedule, a habit or a plan that arrived.
  static func after(_ ctx: Context, _ db: AppDatabase, _ report: SyncExchange.Report) throws {
    var report = report
    // (every file that waits, not only those of this take-in: one the folder could not take
    // before is written once it can)
    if !PlanFilesTravel.place(ctx, db).isEmpty, let me = try db.syncDevice() {
      _ = try? exchange(ctx, db, me).takeIn(later: true)
      // its own reminder times, when it has any
      report.slotsChanged = true
    }
    if report.slotsChanged {
      try UserUnits(ctx: ctx, dryRun: false).update(try ctx.allSchedules(db), db: db)
    }
  }

  /// Once the database is open: when this device syncs, writes what waits, takes in what
  /// arrived, and from then on writes each change as it is committed.
  static func attach(_ ctx: Context, _ db: AppDatabase) {
    guard !db.isReadOnly, let look = try? db.syncLook() else { return }
    takeIn(ctx, db, look: look)
    db.afterEachWrite { [ctx] in
      guard (try? db.syncHasPending()) == true, let me = try? db.syncDevice() else { return }
      _ = try? exchange(ctx, db, me).writeOut()
    }
  }

  /// What the take-ins this process made by themselves brought, for `nudge sync` to say with
  /// its own.
  static let takenIn = Mutex<[SyncExchange.Report]>([])

  /// Writes what waits and takes in what arrived, saying only what was skipped.
  @discardableResult
  static func takeIn(
    _ ctx: Context, _ db: AppDatabase,
    look known: SyncLook? = nil
  ) -> Bool {
    guard let look = known ?? (try? db.syncLook()) else { return false }
    let exchange = exchange(ctx, db, look.me)
    // a plan file new or changed in the folder since is written as any change here is
    let mirrored = (try? exchange.mirrorPlanFiles()) ?? false
    let written =
      look.pending || mirrored ? ((try? exchange.writeOut(mirroring: false)) ?? 0) : 0
    guard var report = try? exchange.takeIn(peers: look.peers, later: look.later) else {
      return false
    }
    report.written += written
    try? after(ctx, db, report)
    for line in report.skipped { ctx.output.writeError("nudge: sync: \(line)\n") }
    var kept = report
    kept.skipped = []
    // (a long-lived process keeps only the latest few: only `nudge sync` reads them)
    if !kept.arrived.isEmpty || !kept.waiting.isEmpty || kept.written > 0 || !kept.found.isEmpty
      || kept.rewroteOwn
    {
      takenIn.withLock { reports in
        reports.append(kept)
        if reports.count > 16 { reports.removeFirst(reports.count - 16) }
      }
    }
    return report.changedHere
  }

  /// This machine's name (the default device name), else "this computer".
  static func hostname(_ platform: any Platform) -> String {
    guard let name = platform.hostname(), SyncDevice.isName(name) else { return "this computer" }
    return name
  }
}

/// A plan set read on first use.
final class LazyPlans {
  private let read: () -> PlanSet
  private(set) lazy var set: PlanSet = read()
  init(_ read: @escaping () -> PlanSet) { self.read = read }
}
