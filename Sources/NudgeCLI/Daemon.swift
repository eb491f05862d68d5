import ArgumentParser
import Foundation
import Logging
import NudgeCore
import NudgeDesktop
import NudgeStore
import ServiceLifecycle

/// `nudge daemon`: the reminder scheduler for machines without a systemd user instance.
struct DaemonCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "daemon",
    abstract: "Run the reminder schedule in the foreground (containers, WSL, CI).",
    discussion: "Same rules and notifications as the systemd timers. Stops on SIGTERM or SIGINT.")

  @Option(help: "Stop after this many seconds (for tests); default: run until stopped.")
  var exitAfter: Double?

  func run() async throws {
    let ctx = try Context.live()
    let logger = Self.makeLogger(ctx)
    let service = ReminderScheduler(ctx: ctx, logger: logger, exitAfter: exitAfter)
    let group = ServiceGroup(
      configuration: .init(
        services: [.init(service: service, successTerminationBehavior: .gracefullyShutdownGroup)],
        gracefulShutdownSignals: [.sigterm, .sigint],
        logger: logger))
    try await group.run()
  }

  static func makeLogger(_ ctx: Context) -> Logger {
    if Journal.stderrIsJournal(environment: ctx.environment) {
      return Logger(label: "nudge") { JournalLogHandler(label: $0) }
    }
    var logger = Logger(label: "nudge") { StreamLogHandler.standardError(label: $0) }
    logger.logLevel = .info
    return logger
  }
}

/// Sleeps until the next elapse of any enabled slot (waking at least once a minute, so clock
/// jumps, time-zone changes and suspend are noticed) and fires each slot by the same rules as
/// `nudge notify SLOT --scheduled`.
struct ReminderScheduler: Service, @unchecked Sendable {
  let ctx: Context
  let logger: Logger
  let exitAfter: Double?

  func run() async throws {
    let db: AppDatabase
    do { db = try ctx.openDatabase() } catch {
      logger.error("\(error.message)")
      throw CLIError(error)
    }
    ServiceNotifier.notify("READY=1\nSTATUS=Waiting for the next reminder")
    logger.info("nudge daemon started")
    let started = ContinuousClock.now
    let watchdog = ServiceNotifier.watchdogInterval
    while !Task.isCancelled && !Task.isShuttingDownGracefully {
      if let exitAfter, ContinuousClock.now - started >= .seconds(exitAfter) { break }
      let now = ctx.clock()
      let local = ctx.zones.local(tz: ctx.environment["TZ"])
      var wake = Int(now.timeIntervalSince1970.rounded(.down)) + 60
      do {
        let firing = SlotFiring(ctx: ctx, db: db, local: local)
        for schedule in try db.schedules() where schedule.enabled {
          try fireIfDue(schedule.slot, firing: firing, db: db, now: now)
          let spec = try firing.spec(schedule)
          if let next = firing.next(spec, after: Int(now.timeIntervalSince1970.rounded(.down))) {
            wake = min(wake, next)
          }
        }
      } catch {
        logger.error("\(error)")
      }
      ServiceNotifier.notify("WATCHDOG=1")
      var delay = Double(wake) - ctx.clock().timeIntervalSince1970
      delay = min(max(delay, 0.01), 60)
      if let watchdog { delay = min(delay, Double(watchdog.components.seconds) + 0.5) }
      if let exitAfter {
        delay = min(delay, max(0.01, exitAfter - (ContinuousClock.now - started).seconds))
      }
      let pause = delay
      _ = try? await cancelWhenGracefulShutdown { try await Task.sleep(for: .seconds(pause)) }
    }
    ServiceNotifier.notify("STOPPING=1")
    logger.info("nudge daemon stopped")
  }

  private func fireIfDue(_ slot: Slot, firing: SlotFiring, db: AppDatabase, now: Date) throws {
    let schedule = try db.schedules().first { $0.slot == slot }!
    let spec = try firing.spec(schedule)
    let seconds = Int(now.timeIntervalSince1970.rounded(.down))
    guard
      let latest = FiringRule.latestElapse(
        atOrBefore: seconds, lookback: 400 * 86400, next: { firing.next(spec, after: $0) }),
      !(try db.isClaimed(slot: slot, elapse: latest))
    else { return }
    let (decision, claimed) = try firing.decide(slot, now: now)
    guard claimed else { return }
    switch decision {
    case .fire(let elapse):
      logger.info(
        "reminder \(slot.rawValue) for \(firing.local.iso(elapse))",
        metadata: ["slot": "\(slot.rawValue)"])
      printFallback(ctx, slot: slot, streak: 0)
    case .skipDone(let elapse):
      logger.info("skipped \(slot.rawValue) for \(firing.local.iso(elapse)): already done today")
    case .skipStale(let elapse):
      logger.info("skipped \(slot.rawValue) for \(firing.local.iso(elapse)): stale")
    case .nothingDue: break
    }
  }
}

extension Duration {
  var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
