import NudgeCore
import NudgeStore

/// Fires a reminder: decides what a request (`notify SLOT --scheduled`, `--snoozed`, now, or
/// the demo) does at `now` and makes its writes, in one transaction. It reads the slot's
/// schedule, the settings, its last trigger, the day's done flows, the days off and the streak;
/// applies the core's `FiringRule`; claims the (slot, elapse) pair (a racing firing of the same
/// elapse is a duplicate), logging a skip or a duplicate with its claim; records the timer's
/// trigger; takes a due snooze. The store only persists; this decides.
public struct FireReminder: Sendable {
  public let db: AppDatabase
  /// The day a week begins on when the person chose none (their locale's).
  public let localeWeekStart: WeekStart

  public init(db: AppDatabase, localeWeekStart: WeekStart = .monday) {
    self.db = db
    self.localeWeekStart = localeWeekStart
  }

  /// What to do: post (with what), or what was logged instead. `calendar` gives a schedule's
  /// strict next elapse after a time (epoch seconds); `planFlows`, the flows the plans that are
  /// on give each slot (after the coach's); `planSchedules`, their own reminder times. A
  /// habit's slot offers the habit while today (or its period) still wants it.
  public func callAsFunction(
    _ request: Reminder.Request, at now: Instant, in zone: ZoneRules,
    calendar: some ReminderCalendar, planFlows: [ReminderSource: [Flow]] = [:],
    planSchedules: [SlotSchedule] = []
  ) throws(StoreError) -> Reminder.Decision {
    try db.inTransaction {
      let settings = try db.settings()
      // the demo: the reminder for this part of the day
      let phase = DayPhase.of(LocalTime(now, in: zone), rolloverHour: settings.rolloverHour)
      let seconds = now.seconds
      let at = InstantFormat.format(now, in: zone)
      let today = settings.dayRule.day(of: now, in: zone)
      let doneToday = try db.doneFlows(on: today)
      let slot = request.slot ?? ReminderSource.demo(phase: phase, done: doneToday)
      // a habit's slot offers the habit while today (or its period) still wants it
      let offer =
        slot.habitID != nil
        ? try HabitReminderOffer(db: db, weekStart: settings.weekStart ?? localeWeekStart)(
          slot, today: today)
        : slot.offer(done: doneToday, also: planFlows[slot] ?? [])
      func post(_ elapse: Int?) throws -> Reminder.Decision {
        let streak = try db.streakDays(today: today).summary(today: today).current
        return .post(
          Reminder.Posting(
            slot: slot, isDemo: request == .demo, elapse: elapse, offer: offer, streak: streak,
            settings: settings, doneToday: doneToday))
      }
      func logged(_ outcome: Reminder.Outcome, _ elapse: Int?) throws -> Reminder.Decision {
        try db.logReminder(Reminder.LogEntry(slot: slot, elapse: elapse, outcome: outcome, at: at))
        return .logged(slot, outcome, elapse: elapse)
      }
      switch request {
      case .now, .demo:
        return try post(nil)
      case .snoozed:
        guard let snooze = try db.takeDueSnooze(slot, now: seconds) else {
          return .nothingDue(slot)
        }
        // a snooze that comes back on a day off (paused after it was snoozed) stays quiet
        let skipped: Reminder.Outcome? =
          try db.isPaused(today) ? .skippedPaused : offer == nil ? .skippedDone : nil
        guard let skipped else { return try post(snooze.elapse) }
        return try logged(skipped, snooze.elapse)
      case .scheduled:
        // a plan's own slot: its plan's schedule (off when no plan that is on has it)
        let schedule: SlotSchedule
        if slot.hasOwnTimer {
          schedule =
            planSchedules.first { $0.slot == slot }
            ?? SlotSchedule(slot: slot, expression: "*-*-* 00:00:00", enabled: false)
        } else {
          schedule = try db.schedule(slot)
        }
        let next = try calendar.elapses(schedule)
        var latest = FiringRule.dueElapse(
          atOrBefore: seconds, lastTrigger: try db.lastTrigger(slot),
          lookback: FiringRule.lookback, next: next)
        if latest == nil,
          let claimed = FiringRule.latestElapse(
            atOrBefore: seconds, lookback: FiringRule.lookback, next: next),
          try db.isClaimed(slot: slot, elapse: claimed)
        {
          latest = claimed  // a racing firing of an elapse another one claimed: a duplicate
        }
        // the base the next elapse counts from, as systemd records a timer's last trigger
        try db.recordTrigger(slot, at: seconds)
        let decision = FiringRule.decide(
          latest: latest, now: seconds, window: settings.stalenessSeconds(for: slot),
          // (a plan's slot whose plan is off has nothing to offer: it is off, not done)
          flowDoneToday: offer == nil && (schedule.enabled || !slot.hasOwnTimer),
          enabled: schedule.enabled,
          elapseIsPaused: try latest.map {
            try db.isPaused(settings.dayRule.day(of: Instant(seconds: $0), in: zone))
          } ?? false)
        guard let elapse = decision.elapse else { return .nothingDue(slot) }
        guard try db.claimFiring(slot: slot, elapse: elapse) else {
          return try logged(.duplicate, elapse)
        }
        guard let skipped = decision.skipOutcome else { return try post(elapse) }
        return try logged(skipped, elapse)
      }
    }
  }
}

/// A reminder calendar: a schedule's expression read against the zones, as the strict next
/// elapse after a time (epoch seconds). The CLI's reads the zone files through the platform.
public protocol ReminderCalendar {
  func elapses(_ schedule: SlotSchedule) throws -> (Int) -> Int?
}

/// What a habit's reminder offers `today`: the habit, while today (or its period) wants it
/// and it was neither done nor skipped today (the core's `HabitProgress.state`); nil
/// otherwise, or when no habit that is not archived has that slot.
public struct HabitReminderOffer: Sendable {
  public let db: AppDatabase
  /// The day an N-a-week habit's weeks begin on.
  public let weekStart: WeekStart

  public init(db: AppDatabase, weekStart: WeekStart) {
    self.db = db
    self.weekStart = weekStart
  }

  public func callAsFunction(_ slot: ReminderSource, today: Day) throws(StoreError)
    -> Reminder.Offer?
  {
    // (reads only: asked again whenever the database's folder changes while the reminder
    // waits, it never takes the write lock; inside FireReminder it joins its transaction)
    guard let id = slot.habitID,
      let habit = try db.habits(includingArchived: false).first(where: { $0.id == id }),
      // a further reminder it no longer has (its timer outlived an edit) offers nothing
      slot == habit.slot || habit.reminderSlots.contains(slot)
    else { return nil }
    let paused = try db.pausedDays(through: today)
    let progress = HabitProgress(
      habit, checks: try db.habitChecks(habit.id), paused: paused, today: today, scoring: false,
      weekStart: weekStart)
    guard progress.state(of: habit, on: today) == .due else { return nil }
    return .habit(Reminder.HabitOffer(habit, streak: progress.streak))
  }
}
