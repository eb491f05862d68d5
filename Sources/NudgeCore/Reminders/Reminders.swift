/// A reminder, the names of its life: the request that fires it, the decision the firing
/// rules make, the posting a session shows, what it offers, its buttons, the outcome logged
/// and the log entry.
public enum Reminder {}

extension Reminder {
  /// What a reminder offers: a flow to do, or the weekly look back to read.
  public enum Offer: Equatable, Sendable {
    case flow(Flow)
    case week
    /// One of the person's own habits, not done yet today (or this period).
    case habit(HabitOffer)

    /// The link a click opens.
    public var deepLink: DeepLink {
      switch self {
      case .flow(let flow): flow.deepLink
      case .week: .week
      case .habit(let habit): .habit(habit.name)
      }
    }

    /// The `nudge` subcommand that opens it ("prep", "week", "habit done Stretch").
    public var command: String {
      switch self {
      case .flow(let flow): flow.rawValue
      case .week: "week"
      case .habit(let habit): "habit done " + habit.argument
      }
    }
  }
}

/// What each reminder slot says and opens (DESIGN §3, §4).
extension ReminderSource {
  /// The time a slot starts with, as a calendar expression.
  public var defaultExpression: String {
    switch self {
    case .morning: "*-*-* 07:00:00"
    case .midday: "*-*-* 12:30:00"
    case .evening: "*-*-* 21:30:00"
    case .weekly: "Sun *-*-* 18:00:00"
    case .plan, .habit: "*-*-* 12:00:00"  // (never used: a plan slot's schedule is its plan's `at`)
    }
  }

  public var enabledByDefault: Bool {
    switch self {
    case .morning, .evening, .plan, .habit: true
    case .midday, .weekly: false
    }
  }

  /// The flow the reminder opens, whose completion today makes the reminder unnecessary; nil
  /// for the weekly look back, which is read, not done.
  public var flow: Flow? {
    switch self {
    case .plan, .habit: nil
    default: CoachPlan.flow(offeredBy: rawValue).flatMap { Flow(rawValue: $0.id) }
    }
  }

  /// What the reminder offers before anything is done today (a plan's slot: its flows, which
  /// the caller knows; the week stands in).
  public var firstOffer: Reminder.Offer { flow.map(Reminder.Offer.flow) ?? .week }

  public var title: String {
    switch self {
    case .morning: "Review your prep"
    case .midday: "I need help?"
    case .evening: "Prep tonight (for tomorrow)"
    case .weekly: "Your week"
    case .plan, .habit: "Nudge"
    }
  }

  /// The body as posted at local `hour` (nil: at its usual time): the morning's "before the day
  /// gets busy" only before noon.
  public func body(hour: Int?) -> String {
    if self == .morning, let hour, hour >= 12 {
      return "Glance at your Why + Swap: one minute for the rest of the day."
    }
    return body
  }

  public var body: String {
    switch self {
    case .morning: "Glance at your Why + Swap before the day gets busy."
    case .midday: "Need a quick assist? Open the mini-coach."
    case .evening: "30 seconds now makes tomorrow easier."
    case .weekly: "A look back at your week, and what to change."
    case .plan, .habit: "One minute, then it counts."
    }
  }

  /// What the today view and the "missed" notice say of this slot's reminder when Do Not
  /// Disturb held it back until its window ended.
  public var heldBackSentence: String {
    switch self {
    case .morning: "This morning's reminder was held back by Do Not Disturb."
    case .midday: "The midday reminder was held back by Do Not Disturb."
    case .evening: "This evening's reminder was held back by Do Not Disturb."
    case .weekly: "The weekly look back was held back by Do Not Disturb."
    case .plan, .habit: "A reminder was held back by Do Not Disturb."
    }
  }

  /// The link a click on the slot's reminder opens: its flow, or the week.
  public var deepLink: DeepLink { firstOffer.deepLink }

  /// What this slot's reminder offers when `done` are the flows finished today, or nil when it
  /// has nothing left to offer: the evening offers the prep, then the check-in; the weekly
  /// look back is always there to read.
  /// `also`: the flows other plans that are on give this slot, offered once the coach's are
  /// done (one reminder offers them all).
  public func offer(done: Set<Flow>, also: [Flow] = []) -> Reminder.Offer? {
    if hasOwnTimer { return also.first { !done.contains($0) }.map(Reminder.Offer.flow) }
    guard let flow else { return .week }
    if !done.contains(flow) { return .flow(flow) }
    if self == .evening && !done.contains(.checkin) { return .flow(.checkin) }
    return also.first { !done.contains($0) }.map(Reminder.Offer.flow)
  }

  /// The slot whose reminder `nudge notify demo` shows in `phase`: this part of the day's, else
  /// the first that still offers something today (never "Review your prep" once the Morning
  /// Focus is done); the week's look back when every flow is done.
  public static func demo(phase: DayPhase, done: Set<Flow>) -> ReminderSource {
    let order: [ReminderSource] =
      phase == .morning ? [.morning, .midday, .evening] : [.evening, .midday]
    return order.first { $0.offer(done: done) != nil } ?? .weekly
  }
}

/// A slot's schedule: its calendar expression (normalised) and whether it is on.
public struct SlotSchedule: Equatable, Sendable, Codable {
  public var slot: ReminderSource
  public var expression: String
  public var enabled: Bool

  public init(slot: ReminderSource, expression: String, enabled: Bool) {
    self.slot = slot
    self.expression = expression
    self.enabled = enabled
  }

  public static func defaults(_ slot: ReminderSource) -> SlotSchedule {
    SlotSchedule(slot: slot, expression: slot.defaultExpression, enabled: slot.enabledByDefault)
  }
}

extension Reminder {
  /// What a reminder firing did; every one is logged.
  public enum Outcome: String, Codable, Sendable, CaseIterable {
    case shown, clicked, done, snoozed, dismissed, undelivered
    /// A demo on the screen, as an older Nudge logged it (now: `shown`, under the slot "demo").
    case demo
    /// The server has it but holds it back: Do Not Disturb (instead of `shown`, or `demo`).
    case held
    /// Its window ended while Do Not Disturb still held it back: replaced by a "missed" notice.
    case missedDND = "missed-dnd"
    /// The server took it off the screen when its own time for it ran out (close reason 1).
    case expired
    /// A click asked for the flow, but no terminal could be started (the entry says why).
    case openFailed = "open-failed"
    /// Taken off the screen by Nudge: its window ended or its process was stopped.
    case withdrawn
    /// Taken off the screen because its flow was finished in a terminal.
    case doneElsewhere = "done-elsewhere"
    /// Fired by a timer while the slot is turned off.
    case skippedOff = "skipped-off"
    case skippedDone = "skipped-done"
    case skippedStale = "skipped-stale"
    /// A day off (`nudge pause`).
    case skippedPaused = "skipped-paused"
    case duplicate
    /// A habit's reminder whose Skip was pressed: the day is marked skipped.
    case skipped
    /// A habit's reminder whose No was pressed: the day is marked failed.
    case failed
  }
}

/// The rules of a scheduled firing (DESIGN §3), as pure functions of the clock.
public enum FiringRule {
  /// What a firing at `now` should do with the slot's latest elapse.
  public enum Verdict: Equatable, Sendable {
    case fire(elapse: Int)
    case skipDone(elapse: Int)
    case skipStale(elapse: Int)
    /// The slot is turned off (its timer fired anyway).
    case skipOff(elapse: Int)
    /// Today is a day off (`nudge pause`).
    case skipPaused(elapse: Int)
    /// No elapse at or before now that could matter.
    case nothingDue
  }

  /// How far back a firing looks for its slot's latest elapse (a catch-up after a long
  /// downtime): 400 days, a year's schedule and more.
  public static let lookback = 400 * 86400

  /// The latest elapse at or before `now` (seconds), looking back up to `lookback` seconds.
  /// `next(after)` is the expression's strict next elapse.
  public static func latestElapse(
    atOrBefore now: Int, lookback: Int, next: (Int) -> Int?
  ) -> Int? {
    var span = 3600
    while true {
      let from = now - span
      if let t = next(from - 1), t <= now {
        return lastElapse(from: t, atOrBefore: now, next: next)
      }
      if span >= lookback { return nil }
      span = min(lookback, span * 4)
    }
  }

  /// The most elapses a firing steps through to find its latest (an hour of once-a-minute
  /// elapses is 60; 400 days of them would be 576,000): past it a binary search finds the
  /// latest, so no expression can keep a firing stepping.
  static let maxSteps = 2048

  /// The latest elapse at or before `now`, stepping on from `start` (an elapse at or before
  /// it): bounded whatever `next` does — an elapse that is not strictly later than the one
  /// before ends the walk, and after `maxSteps` the rest is a binary search over the seconds
  /// up to `now` (`next` never goes back as its start goes on), some 40 calls.
  static func lastElapse(from start: Int, atOrBefore now: Int, next: (Int) -> Int?) -> Int {
    var t = start
    for _ in 0..<maxSteps {
      guard let n = next(t), n <= now, n > t else { return t }
      t = n
    }
    // the largest x in [t, now) whose next elapse is still at or before now: that elapse is
    // the latest (none after it up to now)
    guard let first = next(t), first <= now, first > t else { return t }
    var (low, high) = (t, now)  // next(low) <= now; next(x) > now (or none) for x >= high
    while high - low > 1 {
      let middle = low + (high - low) / 2
      if let n = next(middle), n <= now { low = middle } else { high = middle }
    }
    guard let latest = next(low), latest <= now, latest > t else { return t }
    return latest
  }

  /// The elapse a firing at `now` is for, counted as a systemd timer counts: its next elapse is
  /// computed from its last trigger (so a slot in the repeated hour of a fall-back night fires
  /// once, and a slot moved earlier after firing today waits for tomorrow); a catch-up of
  /// several missed elapses is for the latest of them. Without a known last trigger, one more
  /// than `exactSpan` seconds ago, or one in the future (the clock was set back; systemd then
  /// rewinds its own) it is the latest elapse at or before `now`.
  public static func dueElapse(
    atOrBefore now: Int, lastTrigger: Int?, lookback: Int, exactSpan: Int = 8 * 86400,
    next: (Int) -> Int?
  ) -> Int? {
    guard let lastTrigger, lastTrigger <= now, now - lastTrigger <= exactSpan else {
      return latestElapse(atOrBefore: now, lookback: lookback, next: next)
    }
    guard let t = next(lastTrigger), t <= now else { return nil }
    return lastElapse(from: t, atOrBefore: now, next: next)
  }

  /// Stale after the window; skipped when the slot's flow is already done today; then skipped
  /// when the slot is off, or when the elapse falls on a day off (`elapseIsPaused`).
  public static func decide(
    latest: Int?, now: Int, window: Int, flowDoneToday: Bool, enabled: Bool = true,
    elapseIsPaused: Bool = false
  ) -> Verdict {
    guard let latest else { return .nothingDue }
    if now > latest + window { return .skipStale(elapse: latest) }
    if flowDoneToday { return .skipDone(elapse: latest) }
    if !enabled { return .skipOff(elapse: latest) }
    if elapseIsPaused { return .skipPaused(elapse: latest) }
    return .fire(elapse: latest)
  }
}

extension FiringRule.Verdict {
  /// The elapse the decision is about; nil when nothing is due.
  public var elapse: Int? {
    switch self {
    case .fire(let e), .skipDone(let e), .skipStale(let e), .skipOff(let e), .skipPaused(let e): e
    case .nothingDue: nil
    }
  }

  /// What a skip logs (`skipped-done`…); nil for a firing and for nothing due.
  public var skipOutcome: Reminder.Outcome? {
    switch self {
    case .skipDone: .skippedDone
    case .skipStale: .skippedStale
    case .skipOff: .skippedOff
    case .skipPaused: .skippedPaused
    case .fire, .nothingDue: nil
    }
  }
}

extension Reminder {
  /// Whose reminder a log entry is about: a slot's, or the demo's (`nudge notify demo`),
  /// logged as "demo" whatever part of the day's reminder it showed, so it never counts as
  /// that slot's (an older Nudge logged the demo under its slot, with the outcome `demo`).
  public enum LoggedSlot: Hashable, Sendable, Codable, RawRepresentable {
    case slot(ReminderSource)
    case demo

    public var rawValue: String {
      switch self {
      case .slot(let slot): slot.rawValue
      case .demo: "demo"
      }
    }

    /// "demo", or a slot's name ("demo" is never one).
    public init?(rawValue: String) {
      if rawValue == "demo" {
        self = .demo
      } else if let slot = ReminderSource(rawValue: rawValue) {
        self = .slot(slot)
      } else {
        return nil
      }
    }
  }

  /// One line of the reminder log (`nudge log`).
  public struct LogEntry: Codable, Equatable, Sendable {
    public var slot: LoggedSlot
    /// The elapse (seconds since the epoch) the firing was for; nil for a demo.
    public var elapse: Int?
    public var outcome: Reminder.Outcome
    public var at: String
    /// Why, where the outcome has a reason (`open-failed`: "konsole exited 1").
    public var detail: String?

    public init(
      slot: LoggedSlot, elapse: Int?, outcome: Reminder.Outcome, at: String,
      detail: String? = nil
    ) {
      self.slot = slot
      self.elapse = elapse
      self.outcome = outcome
      self.at = at
      self.detail = detail
    }

    /// An entry of a slot's reminder.
    public init(
      slot: ReminderSource, elapse: Int?, outcome: Reminder.Outcome, at: String,
      detail: String? = nil
    ) {
      self.init(slot: .slot(slot), elapse: elapse, outcome: outcome, at: at, detail: detail)
    }
  }
}

/// A snoozed reminder, stored so it comes back even when the process that snoozed it is gone.
public struct Snooze: Codable, Equatable, Sendable {
  public var slot: ReminderSource
  /// When it is due again (epoch seconds).
  public var due: Int
  /// The elapse it belongs to (nil for a reminder posted by hand).
  public var elapse: Int?

  public init(slot: ReminderSource, due: Int, elapse: Int?) {
    self.slot = slot
    self.due = due
    self.elapse = elapse
  }
}
