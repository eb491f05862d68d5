import ArgumentParser
import Foundation
import NudgeCore
import NudgeDesktop
import NudgeStore

/// A scheduled firing of one slot: the rules of DESIGN §3 against the store and the clock.
struct SlotFiring {
  let ctx: Context
  let db: AppDatabase
  let local: ZoneRules

  /// The slot's parsed expression.
  func spec(_ schedule: SlotSchedule) throws -> CalendarSpec {
    try ctx.parseCalendar(schedule.expression, local: local)
  }

  func next(_ spec: CalendarSpec, after t: Int) -> Int? {
    spec.nextElapse(after: t, localZone: local, zoneFor: ctx.zones.zone(named:))
  }

  /// The elapse a timer firing at `now` is for (nil: nothing due), from the slot's last trigger.
  func dueElapse(_ slot: Slot, _ spec: CalendarSpec, now: Int) throws -> Int? {
    let last = try db.lastTrigger(slot)
    return FiringRule.dueElapse(atOrBefore: now, lastTrigger: last, lookback: 400 * 86400) {
      next(spec, after: $0)
    }
  }

  /// Decides and records what a firing at `now` does; returns the decision and whether this
  /// process won the (slot, elapse) claim.
  func decide(_ slot: Slot, now: Instant, deliverable: Bool = false) throws -> (
    FiringRule.Decision, claimed: Bool
  ) {
    let schedule = try db.schedules().first { $0.slot == slot }!
    let spec = try spec(schedule)
    let settings = try db.settings()
    let nowSeconds = now.seconds
    let window = settings.stalenessSeconds(for: slot)
    var latest = try dueElapse(slot, spec, now: nowSeconds)
    if latest == nil,
      let claimed = FiringRule.latestElapse(
        atOrBefore: nowSeconds, lookback: 400 * 86400, next: { next(spec, after: $0) }),
      try db.isClaimed(slot: slot, elapse: claimed)
    {
      latest = claimed  // a racing firing of an elapse another one claimed: a duplicate
    }
    // the base the next elapse counts from, recorded once this firing has claimed its elapse
    defer { try? db.recordTrigger(slot, at: nowSeconds) }
    let today = settings.dayRule.day(of: now, in: ctx.timeZone)
    let done = slot.offer(done: try db.doneFlows(on: today)) == nil
    var decision = FiringRule.decide(
      latest: latest, now: nowSeconds, window: window, flowDoneToday: done)
    if !schedule.enabled, case .fire(let elapse) = decision { decision = .skipOff(elapse: elapse) }
    let at = InstantFormat.format(now, in: ctx.timeZone)
    let claimed: Bool
    switch decision {
    case .nothingDue: return (decision, false)
    case .skipDone(let elapse):
      claimed = try db.claimFiring(slot: slot, elapse: elapse, outcome: .skippedDone, at: at)
    case .skipStale(let elapse):
      claimed = try db.claimFiring(slot: slot, elapse: elapse, outcome: .skippedStale, at: at)
    case .skipOff(let elapse):
      claimed = try db.claimFiring(slot: slot, elapse: elapse, outcome: .skippedOff, at: at)
    case .fire(let elapse):
      claimed = try db.claimFiring(
        slot: slot, elapse: elapse, outcome: deliverable ? .shown : .undelivered, at: at)
    }
    return (decision, claimed)
  }
}

/// The reminder as one line of text, with the command that opens its flow.
func fallbackText(_ slot: Slot, streak: Int, offering flow: Flow? = nil) -> String {
  let note = DesktopNotification.reminder(slot, streak: 0, offering: flow)
  let body = note.body.split(separator: "\n").first.map(String.init) ?? ""
  let streakText = streak > 0 ? " (streak: \(streak) day\(streak == 1 ? "" : "s"))" : ""
  return "Nudge · \(note.title): \(body)\(streakText) Run: nudge \((flow ?? slot.flow).rawValue)"
}

/// The reminder printed where no notification can be shown: the terminal and the journal.
func printFallback(_ ctx: Context, slot: Slot, streak: Int, offering flow: Flow? = nil) {
  let text = fallbackText(slot, streak: streak, offering: flow)
  ctx.line(text)
  if Journal.stderrIsJournal(environment: ctx.environment) {
    Journal.send(text, priority: .info, fields: ["NUDGE_SLOT": slot.rawValue])
  }
}

/// `nudge notify SLOT`: posts a reminder now, or with `--scheduled` applies the firing rules.
struct NotifyCommand: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "notify", abstract: "Post the reminder for a slot (what the timers run).",
    discussion: """
      The reminder stays clickable while it is relevant: until it is clicked or dismissed, its \
      flow is done elsewhere, or the slot's staleness window ends; then (or on SIGTERM, SIGINT, \
      SIGHUP) it is taken off the screen. Exit status: 0 shown or skipped, 69 no notification \
      server (the reminder was printed), 64 usage.
      """)

  @Argument(
    help: "morning, midday, evening, or demo (the reminder for this time of day, now).",
    completion: .list(Slot.allCases.map(\.rawValue) + ["demo"]))
  var slot: String

  @Flag(
    help: "Apply the schedule's rules: latest elapse, once per elapse, skip when done or stale.")
  var scheduled = false

  @Flag(help: "Post the slot's stored snooze when it is due (what a snooze timer runs).")
  var snoozed = false

  @Option(
    help: "Seconds to wait for a click (default: until the slot's staleness window ends; demo 600)."
  )
  var wait: Double?

  @Option(
    help:
      "Seconds to wait for a notification server that is not there yet (default: 120 with --scheduled or --snoozed, else 0)."
  )
  var serverWait: Double?

  @Option(help: .hidden)
  var snoozeSeconds: Int?

  @Flag(help: "Print what happened as JSON.")
  var json = false

  func run(_ ctx: Context) throws {
    let isDemo = slot == "demo"
    let db = try ctx.openDatabase()
    let settings = try db.settings()
    var target: Slot
    if isDemo {
      let phase = DayPhase.of(
        LocalTime(ctx.now, in: ctx.timeZone), rolloverHour: settings.rolloverHour)
      target = phase == .morning ? .morning : .evening
    } else {
      guard let named = Slot(rawValue: slot) else {
        throw CLIError(
          "'\(slot)' is not a slot: use morning, midday, evening or demo.", code: .usage)
      }
      target = named
    }
    if isDemo && (scheduled || snoozed) {
      throw CLIError("'demo' posts now; it takes no --scheduled or --snoozed.", code: .usage)
    }
    if scheduled && snoozed {
      throw CLIError("use --scheduled or --snoozed, not both.", code: .usage)
    }
    let local = ctx.timeZone
    let at = InstantFormat.format(ctx.now, in: ctx.timeZone)
    let offered = target.offer(
      done: try db.doneFlows(on: settings.dayRule.day(of: ctx.now, in: ctx.timeZone)))
    let nowSeconds = ctx.now.seconds
    // a server that stops answering mid-call: print the reminder, log it, leave with 69
    let fallback =
      fallbackText(target, streak: currentStreak(ctx, db, settings), offering: offered) + "\n"
    // (the handler runs on a watchdog thread while this one is blocked in the call, so the
    // output it writes to is not shared with anything still running)
    nonisolated(unsafe) let output = ctx.output
    let (slotToLog, hangAt) = (target, at)
    ctx.notifier.whenServerHangs {
      output.write(fallback)
      try? db.logReminder(
        ReminderLogEntry(slot: slotToLog, elapse: nil, outcome: .undelivered, at: hangAt))
      output.writeError("nudge: the notification server did not answer within 3 seconds.\n")
      _exit(69)
    }
    let serverWait = self.serverWait ?? (scheduled || snoozed ? 120 : 0)
    var elapse: Int? = nil
    if snoozed {
      guard let snooze = try db.takeDueSnooze(target, now: nowSeconds) else {
        try report(ctx, target, nil, .nothingDue)
        return
      }
      elapse = snooze.elapse
      let today = settings.dayRule.day(of: ctx.now, in: ctx.timeZone)
      if target.offer(done: try db.doneFlows(on: today)) == nil {
        try db.logReminder(
          ReminderLogEntry(slot: target, elapse: elapse, outcome: .skippedDone, at: at))
        try report(ctx, target, elapse.map { local.iso($0) }, .logged(.skippedDone))
        return
      }
    }
    let problem = ctx.notifier.unavailableReason(waitingForServer: serverWait)
    if scheduled {
      let (decision, claimed) = try SlotFiring(ctx: ctx, db: db, local: local).decide(
        target, now: ctx.now, deliverable: problem == nil)
      let logged: ReminderOutcome
      switch decision {
      case .nothingDue:
        try report(ctx, target, nil, .nothingDue)
        return
      case .skipOff(let e): (logged, elapse) = (.skippedOff, e)
      case .skipDone(let e): (logged, elapse) = (.skippedDone, e)
      case .skipStale(let e): (logged, elapse) = (.skippedStale, e)
      case .fire(let e): (logged, elapse) = (problem == nil ? .shown : .undelivered, e)
      }
      guard claimed, logged == .shown || logged == .undelivered else {
        try report(
          ctx, target, elapse.map { local.iso($0) }, .logged(claimed ? logged : .duplicate))
        return
      }
    } else {
      let first: ReminderOutcome = problem != nil ? .undelivered : (isDemo ? .demo : .shown)
      try db.logReminder(ReminderLogEntry(slot: target, elapse: elapse, outcome: first, at: at))
    }
    if let problem {
      if !json {
        printFallback(
          ctx, slot: target, streak: currentStreak(ctx, db, settings), offering: offered)
      }
      try report(ctx, target, elapse.map { local.iso($0) }, .logged(.undelivered))
      throw CLIError(
        "\(problem); the reminder was printed instead. Run the command it names.",
        code: .unavailable)
    }
    // relevant until the slot's staleness window (from its elapse) ends
    let window = settings.stalenessSeconds(for: target)
    let relevantFor =
      isDemo ? 600 : Double(max(60, (elapse ?? nowSeconds) + window - nowSeconds))
    if ctx.output.isTerminal && !json {
      ctx.line(
        ctx.style.dim(
          "Waiting for a click on the reminder (\(DurationText.spoken(seconds: Int(wait ?? relevantFor))) at most; Ctrl-C takes it down)."
        ))
    }
    let final = try ReminderSession(
      ctx: ctx, db: db, slot: target, elapse: elapse, wait: wait ?? relevantFor,
      serverWait: serverWait,
      snoozeSeconds: snoozeSeconds ?? settings.snoozeSeconds
    ).run()
    try report(ctx, target, elapse.map { local.iso($0) }, .logged(final))
  }

  func report(_ ctx: Context, _ slot: Slot, _ elapse: String?, _ outcome: NotifyOutcome) throws {
    if json {
      ctx.line(try jsonText(NotifyReport(slot: slot, elapse: elapse, outcome: outcome.text)))
    } else {
      ctx.line("\(slot.rawValue): \(outcome.text)" + (elapse.map { " (elapse \($0))" } ?? ""))
    }
  }
}

/// What one `nudge notify` run did: nothing was due, or the outcome it logged.
enum NotifyOutcome: Equatable {
  case nothingDue
  case logged(ReminderOutcome)

  /// As printed and in `--json`: "nothing-due", or the logged outcome ("shown", "duplicate"…).
  var text: String {
    switch self {
    case .nothingDue: "nothing-due"
    case .logged(let outcome): outcome.rawValue
    }
  }
}

func currentStreak(_ ctx: Context, _ db: AppDatabase, _ settings: Settings) -> Int {
  let today = settings.dayRule.day(of: ctx.now, in: ctx.timeZone)
  return StreakRule.evaluate(doneDays: (try? db.doneDays()) ?? [], today: today).current
}

/// Asks the store whether a slot's flow is done today (from the GLib loop's callbacks).
final class FlowDoneCheck: @unchecked Sendable {
  private let db: AppDatabase
  private let flow: Flow
  private let today: () -> Day

  init(db: AppDatabase, flow: Flow, today: @escaping () -> Day) {
    (self.db, self.flow, self.today) = (db, flow, today)
  }

  func isDone() -> Bool { (try? db.isDone(flow, on: today())) ?? false }
}

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

  func log(_ outcome: ReminderOutcome) {
    let at = InstantFormat.format(ctx.clock(), in: ctx.timeZone)
    try? db.logReminder(ReminderLogEntry(slot: slot, elapse: elapse, outcome: outcome, at: at))
  }

  /// Posts until a click, a dismissal, a withdrawal or a snooze; returns the last outcome.
  func run() throws -> ReminderOutcome {
    let settings = try db.settings()
    let (clock, zone, rule) = (ctx.clock, ctx.timeZone, settings.dayRule)
    let started = ctx.clock()
    while true {
      let today = rule.day(of: ctx.clock(), in: zone)
      // what is left to offer today (the evening: the prep, then the check-in)
      guard let offered = slot.offer(done: (try? db.doneFlows(on: today)) ?? []) else {
        log(.doneElsewhere)
        return .doneElsewhere
      }
      let done = FlowDoneCheck(db: db, flow: offered) { rule.day(of: clock(), in: zone) }
      let note = DesktopNotification.reminder(
        slot, streak: currentStreak(ctx, db, settings), snoozeSeconds: snoozeSeconds,
        offering: offered)
      let left = wait - ctx.clock().seconds(since: started)
      let outcome = ctx.notifier.post(
        note,
        wait: NotificationWait(
          seconds: max(1, left), serverSeconds: serverWait,
          watchDirectory: (db.path as NSString).deletingLastPathComponent,
          isDoneElsewhere: { done.isDone() }))
      switch outcome {
      case .undelivered(let reason):
        log(.undelivered)
        printFallback(
          ctx, slot: slot, streak: currentStreak(ctx, db, settings), offering: offered)
        throw CLIError("\(reason); the reminder was printed instead.", code: .unavailable)
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
      case .action(.done) where offered == .prep:
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

/// What `nudge notify --json` prints.
struct NotifyReport: Encodable {
  var slot: Slot
  @NullWhenAbsent var elapse: String?
  var outcome: String
}

/// `nudge log`: the reminder log.
struct LogCommand: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "log", abstract: "What happened to each reminder (shown, skipped, clicked…).")

  @Option(help: "How many entries, newest last.")
  var limit: Int = 50

  @Flag(help: "Print the log as JSON.")
  var json = false

  struct Row: Encodable {
    var slot: Slot
    @NullWhenAbsent var elapse: String?
    var outcome: ReminderOutcome
    var at: String
  }

  func run(_ ctx: Context) throws {
    let db = try ctx.openDatabase()
    let local = ctx.timeZone
    let rows = try db.reminderLog(limit: max(1, limit)).map {
      Row(slot: $0.slot, elapse: $0.elapse.map { local.iso($0) }, outcome: $0.outcome, at: $0.at)
    }
    if json {
      ctx.line(try jsonText(rows))
      return
    }
    if rows.isEmpty { ctx.line(ctx.style.dim("No reminders yet.")) }
    for row in rows {
      ctx.line(
        "\(row.at)  \(row.slot.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)) \(row.outcome.rawValue.padding(toLength: 14, withPad: " ", startingAt: 0))"
          + (row.elapse.map { ctx.style.dim(" for \($0)") } ?? ""))
    }
  }
}
