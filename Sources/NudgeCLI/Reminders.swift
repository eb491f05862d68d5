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
  func spec(_ schedule: SlotSchedule) throws(CLIError) -> CalendarSpec {
    try ctx.parseCalendar(schedule.expression, local: local)
  }

  func next(_ spec: CalendarSpec, after t: Int) -> Int? {
    spec.nextElapse(after: t, localZone: local, zoneFor: ctx.zones.zone(named:))
  }

  /// Decides and records what a firing at `now` does; returns the decision and whether this
  /// process won the (slot, elapse) claim.
  func decide(_ slot: Slot, now: Date) throws(CLIError) -> (FiringRule.Decision, claimed: Bool) {
    let schedule = try storing(db) { try db.schedules() }.first { $0.slot == slot }!
    let spec = try spec(schedule)
    let settings = try storing(db) { try db.settings() }
    let nowSeconds = Int(now.timeIntervalSince1970.rounded(.down))
    let window = settings.stalenessSeconds(for: slot)
    let latest = FiringRule.latestElapse(atOrBefore: nowSeconds, lookback: 400 * 86400) {
      next(spec, after: $0)
    }
    let today = settings.dayRule.day(of: now, in: ctx.timeZone)
    let done = try storing(db) { try db.isDone(slot.flow, on: today) }
    let decision = FiringRule.decide(
      latest: latest, now: nowSeconds, window: window, flowDoneToday: done)
    let at = InstantFormat.format(now, in: ctx.timeZone)
    let claimed: Bool
    switch decision {
    case .nothingDue: return (decision, false)
    case .skipDone(let elapse):
      claimed = try storing(db) {
        try db.claimFiring(slot: slot, elapse: elapse, outcome: .skippedDone, at: at)
      }
    case .skipStale(let elapse):
      claimed = try storing(db) {
        try db.claimFiring(slot: slot, elapse: elapse, outcome: .skippedStale, at: at)
      }
    case .fire(let elapse):
      claimed = try storing(db) {
        try db.claimFiring(slot: slot, elapse: elapse, outcome: .undelivered, at: at)
      }
    }
    return (decision, claimed)
  }
}

/// The reminder printed where no notification can be shown: the terminal and the journal.
func printFallback(_ ctx: Context, slot: Slot, streak: Int) {
  let command = "nudge \(slot.flow.rawValue)"
  let streakText = streak > 0 ? " (streak: \(streak) day\(streak == 1 ? "" : "s"))" : ""
  let text = "Nudge · \(slot.title): \(slot.body)\(streakText) Run: \(command)"
  ctx.line(text)
  if Journal.stderrIsJournal(environment: ctx.environment) {
    Journal.send(text, priority: .info, fields: ["NUDGE_SLOT": slot.rawValue])
  }
}

/// `nudge notify SLOT`: posts a reminder now, or with `--scheduled` applies the firing rules.
struct NotifyCommand: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "notify", abstract: "Post the reminder for a slot (what the timers run).")

  @Argument(help: "morning, midday, evening, or demo.")
  var slot: String

  @Flag(
    help: "Apply the schedule's rules: latest elapse, once per elapse, skip when done or stale.")
  var scheduled = false

  @Flag(help: "Print what happened as JSON.")
  var json = false

  func run(_ ctx: Context) throws(CLIError) {
    let isDemo = slot == "demo"
    guard let target = isDemo ? Slot.morning : Slot(rawValue: slot) else {
      throw CLIError("'\(slot)' is not a slot: use morning, midday, evening or demo.", code: .usage)
    }
    if isDemo && scheduled {
      throw CLIError("'demo' posts now; it takes no --scheduled.", code: .usage)
    }
    let db = try ctx.database()
    let local = ctx.zones.local(tz: ctx.environment["TZ"])
    let settings = try storing(db) { try db.settings() }
    let today = settings.dayRule.day(of: ctx.now, in: ctx.timeZone)
    let streak = StreakRule.evaluate(doneDays: try storing(db) { try db.doneDays() }, today: today)
    let at = InstantFormat.format(ctx.now, in: ctx.timeZone)
    var elapse: Int? = nil
    if scheduled {
      let (decision, claimed) = try SlotFiring(ctx: ctx, db: db, local: local).decide(
        target, now: ctx.now)
      let report: (String, Int?)
      switch decision {
      case .nothingDue: report = ("nothing-due", nil)
      case .skipDone(let e): report = (claimed ? "skipped-done" : "duplicate", e)
      case .skipStale(let e): report = (claimed ? "skipped-stale" : "duplicate", e)
      case .fire(let e): report = (claimed ? "undelivered" : "duplicate", e)
      }
      elapse = report.1
      if json {
        ctx.line(
          jsonText(
            NotifyReport(slot: target, elapse: report.1.map { local.iso($0) }, outcome: report.0)))
      } else if report.0 != "undelivered" {
        let when = report.1.map { " (elapse \(local.iso($0)))" } ?? ""
        ctx.line("\(target.rawValue): \(report.0)\(when)")
      }
      guard report.0 == "undelivered" else { return }
    } else {
      try storing(db) {
        try db.logReminder(
          ReminderLogEntry(
            slot: target, elapse: nil, outcome: isDemo ? .demo : .undelivered, at: at))
      }
    }
    _ = elapse
    if !json { printFallback(ctx, slot: target, streak: streak.current) }
    throw CLIError(
      "no desktop notification could be shown yet; the reminder was printed above. Run the command it names.",
      code: .unavailable)
  }
}

/// What `nudge notify --json` prints.
struct NotifyReport: Encodable {
  var slot: Slot
  var elapse: String?
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
    var elapse: String?
    var outcome: ReminderOutcome
    var at: String

    func encode(to encoder: any Encoder) throws {
      enum Keys: String, CodingKey { case slot, elapse, outcome, at }
      var c = encoder.container(keyedBy: Keys.self)
      try c.encode(slot, forKey: .slot)
      try c.encode(elapse, forKey: .elapse)
      try c.encode(outcome, forKey: .outcome)
      try c.encode(at, forKey: .at)
    }
  }

  func run(_ ctx: Context) throws(CLIError) {
    let db = try ctx.database()
    let local = ctx.zones.local(tz: ctx.environment["TZ"])
    let rows = try storing(db) { try db.reminderLog(limit: max(1, limit)) }.map {
      Row(slot: $0.slot, elapse: $0.elapse.map { local.iso($0) }, outcome: $0.outcome, at: $0.at)
    }
    if json {
      ctx.line(jsonText(rows))
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
