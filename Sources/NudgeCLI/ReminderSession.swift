import ArgumentParser
import FoundationEssentials
import Glibc
import NudgeCore
import NudgeDesktop
import NudgeStore

/// One posted reminder and what its buttons do: open the flow, log "All prepped" and
/// celebrate, or snooze (stored, so it comes back even if this process does not).
struct ReminderSession {
  let ctx: Context
  let db: AppDatabase
  let slot: Slot
  let elapse: Int?
  let wait: Double
  let serverWait: Double
  let snoozeSeconds: Int
  /// The settings the command read (the day's rule, the streak's).
  let settings: Settings
  /// False for `--json`: an undelivered reminder is journaled, not printed on stdout.
  var printsFallback = true
  /// What to log once a reminder is left on the screen (`--wait 0` logs after posting, once);
  /// nil when the caller logged it before posting.
  var leftOutcome: ReminderOutcome? = nil

  func log(_ outcome: ReminderOutcome) {
    let at = InstantFormat.format(ctx.clock(), in: ctx.timeZone)
    try? db.logReminder(ReminderLogEntry(slot: slot, elapse: elapse, outcome: outcome, at: at))
  }

  /// Posts until a click, a dismissal, a withdrawal or a snooze; returns the last outcome. A
  /// wait of 0 posts the reminder without buttons, leaves it on the screen and returns.
  func run() throws -> ReminderOutcome {
    let (clock, zone, rule) = (ctx.clock, ctx.timeZone, settings.dayRule)
    let started = ctx.clock()
    while true {
      let today = rule.day(of: ctx.clock(), in: zone)
      // what is left to offer today (the evening: the prep, then the check-in)
      guard let offered = slot.offer(done: (try? db.doneFlows(on: today)) ?? []) else {
        log(.doneElsewhere)
        return .doneElsewhere
      }
      let note = DesktopNotification.reminder(
        slot, streak: currentStreak(ctx, db, settings), snoozeSeconds: snoozeSeconds,
        offering: offered)
      let left = wait <= 0 ? 0 : max(1, wait - ctx.clock().seconds(since: started))
      let outcome = ctx.notifier.post(
        wait <= 0 ? note.withoutButtons(command: "nudge \(offered.command)") : note,
        wait: NotificationWait(
          seconds: left, serverSeconds: serverWait,
          watchDirectory: parentDirectory(of: db.path),
          isDoneElsewhere: {
            guard case .flow(let flow) = offered else { return false }
            return (try? db.isDone(flow, on: rule.day(of: clock(), in: zone))) ?? false
          }))
      switch outcome {
      case .undelivered(let reason):
        log(.undelivered)
        if printsFallback {
          printFallback(
            ctx, slot: slot, streak: currentStreak(ctx, db, settings), offering: offered)
        }
        throw CLIError("\(reason); the reminder was printed instead.", code: .unavailable)
      case .left:
        // nobody waits (`--wait 0`)
        guard let leftOutcome else { return .shown }
        log(leftOutcome)
        return leftOutcome
      case .withdrawn(.doneElsewhere):
        log(.doneElsewhere)
        return .doneElsewhere
      case .withdrawn:
        log(.withdrawn)
        return .withdrawn
      case .closed:
        log(.dismissed)
        return .dismissed
      case .action(.snooze):
        guard try snooze() else { return .snoozed }
      case .action(.done) where offered == .flow(.prep):
        try allPrepped(settings)
        return .done
      case .action:
        log(.clicked)
        try ctx.launcher.open(offered.deepLink.url, in: ctx)
        return .clicked
      }
    }
  }

  /// Stores the snooze and hands it to a transient systemd timer when a user manager runs (or
  /// to `nudge daemon`, which watches stored snoozes): false, this process is done. Without a
  /// manager it also waits here and returns true when this process took the due snooze.
  func snooze() throws -> Bool {
    let due = ctx.clock().seconds + snoozeSeconds
    try db.saveSnooze(Snooze(slot: slot, due: due, elapse: elapse))
    log(.snoozed)
    if SnoozeTimer(ctx: ctx, db: db).start(slot: slot, due: due, afterSeconds: snoozeSeconds) {
      return false
    }
    ctx.pause(Double(snoozeSeconds))
    let now = ctx.clock().adding(seconds: 0.999_999).seconds
    return try db.takeDueSnooze(slot, now: now) != nil
  }

  /// "All prepped": saves the whole checklist (its awards and celebration in the same write),
  /// posts the celebration, whose Replay button replays that same draw.
  func allPrepped(_ settings: Settings) throws {
    let (day, savedAt) = ctx.today(settings, at: ctx.clock())
    let completed = try db.complete(day: day, savedAt: savedAt, reward: ctx.reward) {
      (entry: inout PrepEntry) in entry.markAllReady()
    }
    log(.done)
    guard let drawn = completed.celebration else { return }
    let note = DesktopNotification.celebration(drawn.celebration)
    let outcome = ctx.notifier.post(
      note, wait: NotificationWait(seconds: min(wait, 120), serverSeconds: 2))
    if case .action = outcome {
      try ctx.launcher.open(DeepLink.replay(drawn.number).url, in: ctx)
    }
  }
}

/// A snooze handed to the systemd user manager: a transient timer that runs
/// `nudge notify SLOT --snoozed` when it is due, even after this process has ended.
struct SnoozeTimer {
  let ctx: Context
  let db: AppDatabase

  /// True when the timer was created.
  func start(slot: Slot, due: Int, afterSeconds: Int) -> Bool {
    guard UserUnits(ctx: ctx, dryRun: false).hasUserManager,
      let systemdRun = Spawn.which("systemd-run", path: ctx.environment["PATH"])
    else { return false }
    var argv = [
      systemdRun, "--user", "--quiet", "--collect", "--unit=nudge-snooze-\(slot.rawValue)-\(due)",
      "--description=Nudge snoozed \(slot.rawValue) reminder", "--on-active=\(afterSeconds)s",
      "--timer-property=AccuracySec=1s", "--property=RuntimeMaxSec=\(Int(UnitFiles.maxWait))s",
      "--setenv=NUDGE_DB=\(db.path)",
    ]
    if let tz = ctx.environment["TZ"] { argv.append("--setenv=TZ=\(tz)") }
    argv += ["--", UserUnits.binaryPath, "notify", slot.rawValue, "--snoozed"]
    return (try? ctx.spawner.run(argv, environment: ctx.environment)) == 0
  }
}
