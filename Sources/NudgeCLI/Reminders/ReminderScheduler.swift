import Logging
import NudgeCore
import NudgeLinux
import NudgeStore
import Synchronization

/// Sleeps until the next elapse of any enabled slot (at once when the clock is set or the zone
/// file is replaced, and at least once a minute, so suspend is noticed too) and fires each slot
/// by the same rules as `nudge notify SLOT --scheduled`, until its wake watch is stopped.
struct ReminderScheduler: Sendable {
  let ctx: Context
  let logger: Logger
  let exitAfter: Double?
  let spawned = SpawnedFirings()

  /// Runs the schedule until `watch` is stopped (a stop signal, `WakeWatch.stop()`) or
  /// `exitAfter` seconds have passed.
  func run(_ watch: WakeWatch) throws {
    let db: AppDatabase
    do { db = try ctx.openDatabase() } catch {
      logger.error("\(error.message)")
      throw CLIError(error)
    }
    // the today view and `schedule` see a daemon reminding for this database by its lock
    if !ctx.platform.holdDaemonLock(
      databasePath: DatabaseLocation.path(environment: ctx.environment))
    {
      logger.warning(
        "another nudge daemon reminds for this database too: each reminder may come twice; stop one of them"
      )
    }
    ctx.serviceManager.notify("READY=1\nSTATUS=Waiting for the next reminder")
    logger.info("nudge daemon started")
    let started = ContinuousClock.now
    let watchdog = ctx.serviceManager.watchdogInterval
    // a time no longer taken is said once, not at every pass
    var refusedSaid = Swift.Set<String>()
    while true {
      if let exitAfter, ContinuousClock.now - started >= .seconds(exitAfter) { break }
      let now = ctx.clock.now()
      let local = ctx.zones.local(tz: ctx.environment["TZ"])
      var wake = now.seconds + 60
      do {
        let calendar = SlotCalendar(ctx: ctx, local: local)
        for schedule in try ctx.allSchedules(db) where schedule.enabled {
          // a time no longer taken (an older Nudge's '*:*:*') is said, the others still fire
          let spec: CalendarSpec
          do { spec = try calendar.spec(schedule) } catch {
            if refusedSaid.insert("\(schedule.slot.rawValue) \(schedule.expression)").inserted {
              logger.error("\(CLIError.from(error)?.message ?? "\(error)")")
            }
            continue
          }
          try fireIfDue(schedule.slot, spec: spec, calendar: calendar, db: db, now: now)
          if let next = calendar.next(spec, after: now.seconds) {
            wake = min(wake, next)
          }
        }
        for snooze in try db.snoozes() {
          try repostIfDue(snooze, now: now)
          wake = min(wake, snooze.due)
        }
      } catch {
        logger.error("\(CLIError.from(error)?.message ?? "\(error)")")
      }
      ctx.platform.reapFinished()
      ctx.serviceManager.notify("WATCHDOG=1")
      var delay = Instant(seconds: wake).seconds(since: ctx.clock.now())
      delay = min(max(delay, 0.01), 60)
      if let watchdog { delay = min(delay, Double(watchdog.components.seconds) + 0.5) }
      if let exitAfter {
        delay = min(delay, max(0.01, exitAfter - (ContinuousClock.now - started).seconds))
      }
      let reason = watch.wait(seconds: delay)
      if reason == .stopped { break }
      if reason == .clockSet || reason == .zoneChanged {
        logger.info(
          "the \(reason == .clockSet ? "clock was set" : "time zone changed"): rechecking")
      }
    }
    ctx.serviceManager.notify("STOPPING=1")
    logger.info("nudge daemon stopped")
  }

  /// Variables that exist for tests (a fixed now, a fixed reward seed): the daemon's own run
  /// may take them, the reminders it starts never do, so a flow opened from one saves at the
  /// real time.
  static let testOnlyVariables = ["NUDGE_NOW", "NUDGE_SEED"]

  /// The environment of a firing the daemon starts: its own, less the test-only variables.
  static func childEnvironment(_ environment: [String: String]) -> [String: String] {
    environment.filter { !testOnlyVariables.contains($0.key) }
  }

  /// The files whose replacement changes the local zone: `/etc/localtime`, or the file a
  /// `TZ=:/path` names (a `TZ` naming a zone changes only with the environment).
  static func zoneFiles(tz: String?) -> [String] {
    guard var name = tz else { return ["/etc/localtime"] }
    if name.hasPrefix(":") { name.removeFirst() }
    return name.hasPrefix("/") ? [name] : []
  }

  /// Runs `nudge notify SLOT --scheduled` (the same command the timers run) for a due,
  /// unclaimed elapse; the child claims it, posts and waits for the click.
  private func fireIfDue(
    _ slot: ReminderSource, spec: CalendarSpec, calendar: SlotCalendar, db: AppDatabase,
    now: Instant
  ) throws {
    let seconds = now.seconds
    guard
      let latest = calendar.dueElapse(
        slot, spec, now: seconds, lastTrigger: try db.lastTrigger(slot)),
      !(try db.isClaimed(slot: slot, elapse: latest)),
      spawned.claim(slot, latest)
    else { return }
    logger.info(
      "firing \(slot.rawValue) for \(calendar.local.iso(latest))",
      metadata: ["slot": "\(slot.rawValue)"])
    _ = try ctx.platform.start(
      [UserUnits.binaryPath, "notify", slot.rawValue, "--scheduled"],
      environment: Self.childEnvironment(ctx.environment))
  }
}

extension ReminderScheduler {
  /// Runs `nudge notify SLOT --snoozed` for a stored snooze that is due (the child takes it, so
  /// a snooze whose own process or transient timer already posted it is not posted twice).
  fileprivate func repostIfDue(_ snooze: Snooze, now: Instant) throws {
    guard snooze.due <= now.seconds,
      spawned.claim(snooze.slot, -snooze.due)
    else { return }
    logger.info("re-posting the snoozed \(snooze.slot.rawValue) reminder")
    _ = try ctx.platform.start(
      [UserUnits.binaryPath, "notify", snooze.slot.rawValue, "--snoozed"],
      environment: Self.childEnvironment(ctx.environment))
  }
}

/// The (slot, elapse) pairs this daemon has already started a firing for.
final class SpawnedFirings: Sendable {
  private let seen = Mutex<Set<String>>([])

  /// True the first time a pair is seen.
  func claim(_ slot: ReminderSource, _ elapse: Int) -> Bool {
    seen.withLock { $0.insert("\(slot.rawValue)@\(elapse)").inserted }
  }
}

extension Duration {
  var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
