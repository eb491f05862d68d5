import FoundationEssentials
import NudgeCore
import NudgeLinux
import NudgeStore
import NudgeUseCases
import Synchronization

extension Reminder {
  /// How a reminder session waits and reports, as `nudge notify`'s flags say.
  struct Options: Sendable {
    /// Seconds to wait for a click; nil: as long as the reminder is relevant. 0 posts it without
    /// buttons, leaves it on the screen and returns at once.
    var wait: Double?
    /// Seconds to wait for a notification server that is not there yet.
    var serverWait: Double = 0
    /// The snooze's length; nil: the `snooze` setting.
    var snoozeSeconds: Int?
    /// `--json`: an undelivered reminder is journaled, not printed on stdout.
    var json = false
  }
}

extension Reminder {
  /// What a reminder run did, for `notify` to print.
  struct RunReport: Equatable {
    /// The slot's reminder it was, or the demo.
    var slot: Reminder.LoggedSlot
    var elapse: Int?
    /// What it logged; nil when nothing was due (printed "nothing-due").
    var outcome: Reminder.Outcome?
    /// The reminder could not be shown and was printed instead: `notify` ends with this.
    var failure: CLIError? = nil
    /// False when the printed reminder says it all (the demo without `--json`).
    var printsOutcome = true
  }
}

extension Reminder {
  /// A reminder's whole life, from the claim to its last outcome: `FireReminder` decides and
  /// claims, then this posts, waits, acts on the click — open the flow, "All prepped" and its
  /// celebration, or a snooze that comes back even if this process does not — and logs each
  /// outcome of the posting (a skip or a duplicate is logged by `FireReminder`, with its claim).
  struct Session: Sendable {
    let ctx: Context
    let db: AppDatabase
    let request: Reminder.Request
    var options = Reminder.Options()

    /// Decides, posts and waits; returns what happened. Throws only when the store fails.
    func run() throws -> Reminder.RunReport {
      // (what another device did came in when the database was opened, before deciding: a
      // review done on the laptop skips this morning's reminder here)
      let plans = try ctx.plansOn(db)
      let planSchedules = try ctx.allSchedules(db, plans: plans).filter(\.slot.hasOwnTimer)
      var planFlows: [ReminderSource: [Flow]] = [:]
      for slot in ReminderSource.allCases + planSchedules.map(\.slot) {
        planFlows[slot] = plans.flowsOn(slot).map { .defined($0.word) }
      }
      switch try FireReminder(
        db: db, localeWeekStart: LocaleWeek.start(environment: ctx.environment) ?? .monday)(
          request, at: ctx.clock.started, in: ctx.timeZone,
          calendar: SlotCalendar(ctx: ctx, local: ctx.timeZone), planFlows: planFlows,
          planSchedules: planSchedules)
      {
      case .nothingDue(let slot):
        return Reminder.RunReport(slot: .slot(slot), elapse: nil, outcome: nil)
      case .logged(let slot, let outcome, let elapse):
        return Reminder.RunReport(slot: .slot(slot), elapse: elapse, outcome: outcome)
      case .post(let post):
        return try OnScreen(session: self, post: post, plans: plans).run()
      }
    }
  }
}

/// One claimed reminder on the screen: what `Reminder.Session` does once there is one to post.
struct OnScreen: Sendable {
  let session: Reminder.Session
  let post: Reminder.Posting
  /// The person's plans, read once for the reminder's whole life.
  let plans: PlanSet

  var ctx: Context { session.ctx }
  var db: AppDatabase { session.db }
  var slot: ReminderSource { post.slot }
  var options: Reminder.Options { session.options }
  var snoozeSeconds: Int { options.snoozeSeconds ?? post.settings.snoozeSeconds }

  func log(_ outcome: Reminder.Outcome, detail: String? = nil) throws {
    let at = InstantFormat.format(ctx.clock.now(), in: ctx.timeZone)
    try ReminderLog(db: db).log(
      Reminder.LogEntry(
        slot: post.logged, elapse: post.elapse, outcome: outcome, at: at, detail: detail))
  }

  /// The flows other plans give this slot not done yet (of `done`, the flows done today: the
  /// decision's, or those read again after a snooze), and a plan slot's title.
  func planTexts(done: Set<Flow>) -> (pending: [FlowDefinition], slotTitle: String?) {
    (
      plans.flowsOn(slot).filter { !done.contains(.defined($0.word)) },
      plans.title(of: slot)
    )
  }

  func report(_ outcome: Reminder.Outcome) -> Reminder.RunReport {
    Reminder.RunReport(slot: post.logged, elapse: post.elapse, outcome: outcome)
  }

  /// The reminder printed instead of shown: logged `undelivered`, printed on the terminal and
  /// journaled (unless `--json`), and the failure `notify` ends with.
  func undelivered(
    _ failure: String, offering offer: Reminder.Offer?, printsOutcome: Bool,
    readiness: String? = nil
  ) throws -> Reminder.RunReport {
    try log(.undelivered)
    if !options.json {
      let (pending, slotTitle) = planTexts(done: post.doneToday)
      printFallback(
        ctx, slot: slot, streak: post.streak, offering: offer, pending: pending,
        slotTitle: slotTitle, readiness: readiness)
    }
    var report = report(.undelivered)
    report.failure = CLIError(failure, code: .unavailable)
    report.printsOutcome = printsOutcome
    return report
  }

  func run() throws -> Reminder.RunReport {
    // a server that stops answering mid-call: print the reminder, log it, leave with 69 (on
    // the watchdog thread, while this one is blocked in the call; a failed log is not retried)
    let (pending, slotTitle) = planTexts(done: post.doneToday)
    // the morning's words say last night when a watch measured it (its folders taken in first)
    let readiness = slot == .morning ? ctx.morningReadiness() : nil
    let fallback = fallbackText(
      slot, streak: post.streak, offering: post.offer, pending: pending, slotTitle: slotTitle,
      hour: LocalTime(ctx.clock.now(), in: ctx.timeZone).hour, readiness: readiness)
    ctx.notifier.whenServerHangs { [self] in
      ctx.output.write(fallback + "\n")
      _ = try? log(.undelivered)
      ctx.output.writeError("nudge: the notification server did not answer within 3 seconds.\n")
      ctx.platform.exitImmediately(69)
    }
    // the handler holds this reminder, and so the database: once the reminder's life is over
    // a hang only ends the process, so the database closes when the command ends (its WAL
    // folded back into the file; left open, the next process read the whole WAL again)
    defer {
      ctx.notifier.whenServerHangs { [output = ctx.output, platform = ctx.platform] in
        output.writeError("nudge: the notification server did not answer within 3 seconds.\n")
        platform.exitImmediately(69)
      }
    }
    // `--wait 0` posts without buttons, so it needs no server check before: the post says
    let leftOnScreen = options.wait == 0
    if !leftOnScreen || session.request == .scheduled(slot),
      let problem = ctx.notifier.unavailableReason(waitingForServer: options.serverWait)
    {
      // the demo says it once: the printed reminder, then the one line of why
      return try undelivered(
        "\(problem); the reminder was printed instead. Run the command it names.",
        offering: post.offer, printsOutcome: options.json || !post.isDemo, readiness: readiness)
    }
    let wait = options.wait ?? post.relevantSeconds(now: ctx.clock.started.seconds)
    if ctx.output.isTerminal && !options.json && !leftOnScreen {
      ctx.line(
        ctx.style.dim(
          "Waiting for a click on the reminder (\(DurationText.spoken(seconds: Int(wait))) at most; Ctrl-C takes it down)."
        ))
    }
    let (clock, zone, rule) = (ctx.clock, ctx.timeZone, post.settings.dayRule)
    let syncFolder = [(try? db.syncDevice())??.folder].compactMap { $0 }
    let started = ctx.clock.now()
    var offered = post.offer
    // the day's done flows: the decision's, read again only after a snooze
    var doneToday = post.doneToday
    // what the server last said of the reminder: on the screen, or held back (Do Not Disturb)
    let seen = Mutex<Visibility?>(nil)
    while true {
      // what is left to offer today (the evening: the prep, then the check-in)
      guard let offer = offered else {
        try log(.doneElsewhere)
        return report(.doneElsewhere)
      }
      let (pending, slotTitle) = planTexts(done: doneToday)
      let note = DesktopNotification.reminder(
        slot, streak: post.streak, snoozeSeconds: snoozeSeconds, offering: offer,
        pending: pending, slotTitle: slotTitle,
        hour: LocalTime(ctx.clock.now(), in: ctx.timeZone).hour, readiness: readiness)
      let left = leftOnScreen ? 0 : max(1, wait - ctx.clock.now().seconds(since: started))
      // logged once the server has it, and once more if Do Not Disturb lets it through later
      // (a failed log is not retried: the reminder is up)
      let shown = Reminder.Outcome.shown
      let outcome = ctx.notifier.post(
        leftOnScreen ? note.withoutButtons(command: "nudge \(offer.command)") : note,
        wait: DesktopNotification.Wait(
          seconds: left, serverSeconds: options.serverWait,
          watchDirectories: [parentDirectory(of: db.path)] + syncFolder,
          isDoneElsewhere: { [db, slot, ctx] in
            // what another device wrote to the sync folder comes in first
            if !syncFolder.isEmpty { SyncRunner.takeIn(ctx, db) }
            let today = rule.day(of: clock.now(), in: zone)
            if case .habit = offer {
              // done, skipped or removed in a terminal: nothing is left to offer
              return
                (try? HabitReminderOffer(db: db, weekStart: ctx.weekStart(try db.settings()))(
                  slot, today: today)) == .some(nil)
            }
            guard case .flow(let flow) = offer else { return false }
            return (try? db.isDone(flow, on: today)) ?? false
          },
          onVisibility: { [self] visibility in
            let before = seen.withLock { seen in
              defer { seen = visibility }
              return seen
            }
            guard before != visibility, before != .shown else { return }
            _ = try? log(visibility == .held ? .held : shown)
          }))
      switch outcome {
      case .undelivered(let reason):
        return try undelivered(
          "\(reason); the reminder was printed instead.", offering: offer,
          printsOutcome: options.json, readiness: readiness)
      case .left:
        // nobody waits (`--wait 0`): as the server had it, on the screen or held back
        return report(seen.withLock { $0 } == .held ? .held : shown)
      case .withdrawn(.doneElsewhere):
        try log(.doneElsewhere)
        return report(.doneElsewhere)
      case .withdrawn(.expired) where seen.withLock({ $0 }) == .held:
        // the person never saw it: a notice without buttons stays in the server's history
        _ = ctx.notifier.post(
          .missed(slot, offering: offer), wait: DesktopNotification.Wait(seconds: 0))
        try log(.missedDND)
        return report(.missedDND)
      case .withdrawn:
        try log(.withdrawn)
        return report(.withdrawn)
      case .closed(let reason):
        let outcome: Reminder.Outcome = reason == .expired ? .expired : .dismissed
        try log(outcome)
        return report(outcome)
      case .action(.snooze, _):
        guard try snooze() else { return report(.snoozed) }
        let today = rule.day(of: ctx.clock.now(), in: zone)
        doneToday = try db.doneFlows(on: today)
        offered =
          slot.habitID != nil
          ? try HabitReminderOffer(db: db, weekStart: ctx.weekStart(try db.settings()))(
            slot, today: today)
          : slot.offer(done: doneToday, also: plans.flowsOn(slot).map { .defined($0.word) })
      case .action(.done, _) where offer == .flow(.prep):
        try allPrepped(wait: wait)
        return report(.done)
      case .action(let action, let token) where [.skip, .done, .no].contains(action):
        // a habit's Done (a yes/no one: a measurable one opens the terminal to ask the amount),
        // Skip or No
        guard case .habit(let habit) = offer, action != .done || !habit.isMeasurable else {
          try log(.clicked)
          return try open(offer.deepLink.url, activationToken: token, offering: offer)
        }
        return try record(
          habit, as: action == .done ? .done : action == .no ? .failed : .skipped)
      case .action(_, let token):
        try log(.clicked)
        return try open(offer.deepLink.url, activationToken: token, offering: offer)
      }
    }
  }

  /// Opens the flow a click asked for; when no terminal starts, the person is told on the
  /// desktop they are looking at (a notice without buttons) and it is logged `open-failed`.
  func open(_ url: String, activationToken: String?, offering offer: Reminder.Offer) throws
    -> Reminder.RunReport
  {
    do {
      try ctx.launcher.open(url, in: ctx, activationToken: activationToken)
      return report(.clicked)
    } catch let failure as TerminalOpenFailure {
      _ = ctx.notifier.post(
        .openFailed(failure.reason, offering: offer), wait: DesktopNotification.Wait(seconds: 0))
      try log(.openFailed, detail: failure.reason)
      var report = report(.openFailed)
      report.failure = CLIError(failure.message, code: .unavailable)
      return report
    }
  }

  /// Stores the snooze and hands it to a transient systemd timer when a user manager runs (or
  /// to `nudge daemon`, which watches stored snoozes): false, this process is done. Without a
  /// manager it also waits here and returns true when this process took the due snooze.
  func snooze() throws -> Bool {
    let seconds = snoozeSeconds
    if try Reminder.Session.snooze(
      ctx, db, slot, elapse: post.elapse, seconds: seconds, loggedAs: post.logged)
    {
      return false
    }
    ctx.pause(Double(seconds))
    let now = ctx.clock.now().adding(seconds: 0.999_999).seconds
    return try ReminderLog(db: db).takeDueSnooze(slot, now: now) != nil
  }

  /// "All prepped": saves the whole checklist (its awards and celebration in the same write),
  /// posts the celebration, whose Replay button replays that same draw.
  func allPrepped(wait: Double) throws {
    let (day, savedAt) = ctx.today(post.settings, at: ctx.clock.now())
    let completed = try FinishFlow(db: db)(day: day, savedAt: savedAt, reward: ctx.reward) {
      (entry: inout PrepEntry) in entry.markAllReady()
    }
    try log(.done)
    guard let drawn = completed.celebration else { return }
    let note = DesktopNotification.celebration(drawn.celebration)
    let outcome = ctx.notifier.post(
      note, wait: DesktopNotification.Wait(seconds: min(wait, 120), serverSeconds: 2))
    if case .action(_, let token) = outcome {
      try ctx.launcher.open(DeepLink.replay(drawn.number).url, in: ctx, activationToken: token)
    }
  }
}

/// The reminder as one line of text, with the command that opens its flow.
func fallbackText(
  _ slot: ReminderSource, streak: Int, offering: Reminder.Offer? = nil,
  pending: [FlowDefinition] = [],
  slotTitle: String? = nil, hour: Int? = nil, readiness: String? = nil
) -> String {
  if case .habit(let habit)? = offering {
    // the person's words, escaped for a terminal (not for markup), and the habit's own streak
    let unit = habit.streak == 1 ? String(habit.streakUnit.dropLast()) : habit.streakUnit
    return "Nudge · \(VisibleText.escaped(habit.name)): \(VisibleText.escaped(habit.question))"
      + (habit.streak > 0 ? " (streak: \(habit.streak) \(unit))" : "")
      + " Run: nudge \(habit.argument.isEmpty ? "habit list" : "habit done " + habit.argument)"
  }
  let note = DesktopNotification.reminder(
    slot, streak: 0, offering: offering, pending: pending, slotTitle: slotTitle, hour: hour)
  // the body is markup for a notification server; a terminal shows its text
  let body = VisibleText.markupAsPlain(
    note.body.split(separator: "\n").first.map(String.init) ?? "")
  let streakText = streak > 0 ? " (streak: \(streak) day\(streak == 1 ? "" : "s"))" : ""
  let health = readiness.map { " " + VisibleText.escaped($0) } ?? ""
  return
    "Nudge · \(note.title): \(body)\(health)\(streakText) Run: nudge \((offering ?? slot.firstOffer).command)"
}

/// The reminder printed where no notification can be shown: the terminal and the journal.
func printFallback(
  _ ctx: Context, slot: ReminderSource, streak: Int, offering: Reminder.Offer? = nil,
  pending: [FlowDefinition] = [], slotTitle: String? = nil, readiness: String? = nil
) {
  let text = fallbackText(
    slot, streak: streak, offering: offering, pending: pending, slotTitle: slotTitle,
    hour: LocalTime(ctx.clock.now(), in: ctx.timeZone).hour, readiness: readiness)
  ctx.line(text)
  if ctx.platform.writesToJournal(environment: ctx.environment) {
    ctx.platform.sendToJournal(text, priority: .info, fields: ["NUDGE_SLOT": slot.rawValue])
  }
}

extension Reminder.Session {
  /// Snoozes the slot's reminder for `seconds`: stored (so it comes back even when this process
  /// does not), logged, and handed to a transient systemd timer that runs
  /// `nudge notify SLOT --snoozed` when it is due. False when there is no user manager to take
  /// it: `nudge daemon`, which watches stored snoozes, or the caller brings it back.
  /// `loggedAs`: whose reminder the log says was snoozed (the demo's comes back as its slot's).
  static func snooze(
    _ ctx: Context, _ db: AppDatabase, _ slot: ReminderSource, elapse: Int?, seconds: Int,
    loggedAs: Reminder.LoggedSlot? = nil
  ) throws -> Bool {
    let due = ctx.clock.now().seconds + seconds
    let at = InstantFormat.format(ctx.clock.now(), in: ctx.timeZone)
    try ReminderLog(db: db).snooze(
      Snooze(slot: slot, due: due, elapse: elapse),
      loggedAs: Reminder.LogEntry(
        slot: loggedAs ?? .slot(slot), elapse: elapse, outcome: .snoozed, at: at))
    var environment = ["NUDGE_DB": db.path]
    environment["TZ"] = ctx.environment["TZ"]
    let timer = TransientTimer(
      unit: "nudge-snooze-\(slot.rawValue)-\(due)",
      description: "Nudge snoozed \(slot.rawValue) reminder", afterSeconds: seconds,
      runtimeMaxSeconds: Int(UnitFiles.maxWait), environment: environment,
      argv: [UserUnits.binaryPath, "notify", slot.rawValue, "--snoozed"])
    return ctx.platform.startTransientTimer(timer, environment: ctx.environment)
  }
}
