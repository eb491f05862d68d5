import ArgumentParser
import FoundationEssentials
import Glibc
import NudgeCore
import NudgeDesktop
import NudgeStore

/// The reminder as one line of text, with the command that opens its flow.
func fallbackText(_ slot: Slot, streak: Int, offering: ReminderOffer? = nil) -> String {
  let note = DesktopNotification.reminder(slot, streak: 0, offering: offering)
  let body = note.body.split(separator: "\n").first.map(String.init) ?? ""
  let streakText = streak > 0 ? " (streak: \(streak) day\(streak == 1 ? "" : "s"))" : ""
  return
    "Nudge · \(note.title): \(body)\(streakText) Run: nudge \((offering ?? slot.firstOffer).command)"
}

/// The reminder printed where no notification can be shown: the terminal and the journal.
func printFallback(
  _ ctx: Context, slot: Slot, streak: Int, offering: ReminderOffer? = nil
) {
  let text = fallbackText(slot, streak: streak, offering: offering)
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
    help: "morning, midday, evening, weekly, or demo (the reminder for this time of day, now).",
    completion: .list(Slot.allCases.map(\.rawValue) + ["demo"]))
  var slot: String

  @Flag(
    help: "Apply the schedule's rules: latest elapse, once per elapse, skip when done or stale.")
  var scheduled = false

  @Flag(help: "Post the slot's stored snooze when it is due (what a snooze timer runs).")
  var snoozed = false

  @Option(
    help:
      "Seconds to wait for a click (default: until the slot's staleness window ends; demo 600). 0 posts it without buttons, leaves it on the screen and returns at once."
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

  func validate() throws {
    if let wait, !(wait >= 0) || !wait.isFinite {
      throw ValidationError("--wait must be 0 or more seconds (0: post it and do not wait).")
    }
  }

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
          "'\(slot)' is not a slot: use morning, midday, evening, weekly or demo.", code: .usage)
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
    // a server that stops answering mid-call: print the reminder, log it, leave with 69 (on
    // the watchdog thread, while this one is blocked in the call)
    ctx.notifier.whenServerHangs { [target] in
      ctx.output.write(
        fallbackText(target, streak: currentStreak(ctx, db, settings), offering: offered) + "\n")
      try? db.logReminder(
        ReminderLogEntry(slot: target, elapse: nil, outcome: .undelivered, at: at))
      ctx.output.writeError("nudge: the notification server did not answer within 3 seconds.\n")
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
      // a snooze that comes back on a day off (paused after it was snoozed) stays quiet
      let skipped: ReminderOutcome? =
        try db.isPaused(today)
        ? .skippedPaused
        : target.offer(done: try db.doneFlows(on: today)) == nil ? .skippedDone : nil
      if let skipped {
        try db.logReminder(
          ReminderLogEntry(slot: target, elapse: elapse, outcome: skipped, at: at))
        try report(ctx, target, elapse.map { local.iso($0) }, .logged(skipped))
        return
      }
    }
    // `--wait 0` posts without buttons, so it needs no server check before: the post says
    let problem =
      wait == 0 && !scheduled ? nil : ctx.notifier.unavailableReason(waitingForServer: serverWait)
    if scheduled {
      let (decision, claimed) = try SlotFiring(ctx: ctx, db: db, local: local).decide(
        target, now: ctx.now, deliverable: problem == nil)
      let logged: ReminderOutcome
      switch decision {
      case .nothingDue:
        try report(ctx, target, nil, .nothingDue)
        return
      case .skipOff(let e): (logged, elapse) = (.skippedOff, e)
      case .skipPaused(let e): (logged, elapse) = (.skippedPaused, e)
      case .skipDone(let e): (logged, elapse) = (.skippedDone, e)
      case .skipStale(let e): (logged, elapse) = (.skippedStale, e)
      case .fire(let e): (logged, elapse) = (problem == nil ? .shown : .undelivered, e)
      }
      guard claimed, logged == .shown || logged == .undelivered else {
        try report(
          ctx, target, elapse.map { local.iso($0) }, .logged(claimed ? logged : .duplicate))
        return
      }
    } else if wait != 0 || problem != nil {
      // (`--wait 0` logs once it knows: one commit per post)
      let first: ReminderOutcome = problem != nil ? .undelivered : (isDemo ? .demo : .shown)
      try db.logReminder(ReminderLogEntry(slot: target, elapse: elapse, outcome: first, at: at))
    }
    if let problem {
      if !json {
        printFallback(
          ctx, slot: target, streak: currentStreak(ctx, db, settings), offering: offered)
      }
      // the demo says it once: the printed reminder, then the one line of why
      if json || !isDemo {
        try report(ctx, target, elapse.map { local.iso($0) }, .logged(.undelivered))
      }
      throw CLIError(
        "\(problem); the reminder was printed instead. Run the command it names.",
        code: .unavailable)
    }
    // relevant until the slot's staleness window (from its elapse) ends
    let window = settings.stalenessSeconds(for: target)
    let relevantFor =
      isDemo ? 600 : Double(max(60, (elapse ?? nowSeconds) + window - nowSeconds))
    if ctx.output.isTerminal && !json && wait != 0 {
      ctx.line(
        ctx.style.dim(
          "Waiting for a click on the reminder (\(DurationText.spoken(seconds: Int(wait ?? relevantFor))) at most; Ctrl-C takes it down)."
        ))
    }
    let session = ReminderSession(
      ctx: ctx, db: db, slot: target, elapse: elapse, wait: wait ?? relevantFor,
      serverWait: serverWait,
      snoozeSeconds: snoozeSeconds ?? settings.snoozeSeconds, settings: settings,
      printsFallback: !json,
      leftOutcome: wait == 0 && !scheduled ? (isDemo ? .demo : .shown) : nil)
    let final: ReminderOutcome
    do {
      final = try session.run()
    } catch let error as CLIError where json && error.code == .unavailable {
      try report(ctx, target, elapse.map { local.iso($0) }, .logged(.undelivered))
      throw error
    }
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
  let days = try? db.streakDays()
  return StreakRule.evaluate(
    doneDays: days?.done ?? [], today: today, paused: days?.paused ?? []
  ).current
}

/// What `nudge notify --json` prints.
struct NotifyReport: Encodable {
  var slot: Slot
  @NullWhenAbsent var elapse: String?
  var outcome: String
}
