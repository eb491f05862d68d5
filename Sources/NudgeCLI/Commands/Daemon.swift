import ArgumentParser
import FoundationEssentials
import Logging
import NudgeLinux

/// `nudge daemon`: the reminder scheduler for machines without a systemd user instance. It runs
/// on the main thread alone, with no concurrency runtime or Dispatch queue: their worker pool
/// brings libdispatch's pool monitor, a timer that wakes the process every second for good.
struct DaemonCommand: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "daemon",
    abstract: "Run the reminder schedule in the foreground (containers, WSL, CI).",
    discussion: "Same rules and notifications as the systemd timers. Stops on SIGTERM or SIGINT.")

  @Option(
    parsing: .unconditional,
    help: "Stop after this many seconds (for tests); default: run until stopped.")
  var exitAfter: Double?

  func validate() throws {
    if let exitAfter, !(0...31_536_000).contains(exitAfter) {
      throw outOfRange("--exit-after", exitAfter, 0...31_536_000, unit: "seconds", note: "a year")
    }
  }

  func run(_ ctx: Context) throws {
    let logger = Self.makeLogger(ctx)
    let watch = ctx.platform.wakeWatch(
      zonePaths: ReminderScheduler.zoneFiles(tz: ctx.environment["TZ"]))
    // SIGTERM and SIGINT end the wait at once; the loop then stops as it would between passes
    watch.stopOnTermination()
    try ReminderScheduler(ctx: ctx, logger: logger, exitAfter: exitAfter).run(watch)
  }

  static func makeLogger(_ ctx: Context) -> Logger {
    if ctx.platform.writesToJournal(environment: ctx.environment) {
      return Logger(label: "nudge") { JournalLogHandler(label: $0) }
    }
    var logger = Logger(label: "nudge") { StreamLogHandler.standardError(label: $0) }
    logger.logLevel = .info
    return logger
  }
}
