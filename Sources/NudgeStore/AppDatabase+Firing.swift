import CSQLite
import NudgeCore

/// The reminder's life in the store: the one write that decides and claims a reminder run, and
/// the reminder log (only `ReminderSession` writes it).
extension AppDatabase {
  /// Decides what `request` does at `now`, in one write transaction: reads the slot's schedule,
  /// the settings, its last trigger, the day's done flows, the days off and the streak once;
  /// applies `FiringRule`; claims the (slot, elapse) pair, logging a skip or a duplicate with its
  /// claim; records the timer's trigger; takes a due snooze. `elapses(schedule)` gives the
  /// schedule's strict next elapse after a time (epoch seconds).
  public func fire(
    _ request: ReminderRequest, at now: Instant, in zone: ZoneRules,
    elapses: (SlotSchedule) throws -> (Int) -> Int?
  ) throws(StoreError) -> ReminderPlan {
    try write { db in
      let settings = try db.settings()
      // the demo: the reminder for this part of the day
      let phase = DayPhase.of(LocalTime(now, in: zone), rolloverHour: settings.rolloverHour)
      let seconds = now.seconds
      let at = InstantFormat.format(now, in: zone)
      let today = settings.dayRule.day(of: now, in: zone)
      let doneToday = try db.doneFlows(on: today)
      let slot = request.slot ?? Slot.demo(phase: phase, done: doneToday)
      let offer = slot.offer(done: doneToday)
      func post(_ elapse: Int?) throws -> ReminderPlan {
        let (done, paused) = try db.streakDays()
        let streak = StreakRule.evaluate(doneDays: done, today: today, paused: paused).current
        return .post(
          ReminderPost(
            slot: slot, isDemo: request == .demo, elapse: elapse, offer: offer, streak: streak,
            settings: settings))
      }
      switch request {
      case .now, .demo:
        return try post(nil)
      case .snoozed:
        guard let snooze = try db.takeDueSnooze(slot, now: seconds) else {
          return .nothingDue(slot)
        }
        // a snooze that comes back on a day off (paused after it was snoozed) stays quiet
        let skipped: ReminderOutcome? =
          try db.isPaused(today) ? .skippedPaused : offer == nil ? .skippedDone : nil
        guard let skipped else { return try post(snooze.elapse) }
        try db.insert(
          ReminderLogEntry(slot: slot, elapse: snooze.elapse, outcome: skipped, at: at))
        return .logged(slot, skipped, elapse: snooze.elapse)
      case .scheduled:
        let schedule = try db.schedule(slot)
        let next = try elapses(schedule)
        let lookback = 400 * 86400
        var latest = FiringRule.dueElapse(
          atOrBefore: seconds, lastTrigger: try db.lastTrigger(slot), lookback: lookback,
          next: next)
        if latest == nil,
          let claimed = FiringRule.latestElapse(
            atOrBefore: seconds, lookback: lookback, next: next),
          try db.isClaimed(slot: slot, elapse: claimed)
        {
          latest = claimed  // a racing firing of an elapse another one claimed: a duplicate
        }
        // the base the next elapse counts from, as systemd records a timer's last trigger
        try db.recordTrigger(slot, at: seconds)
        let decision = FiringRule.decide(
          latest: latest, now: seconds, window: settings.stalenessSeconds(for: slot),
          flowDoneToday: offer == nil, enabled: schedule.enabled,
          elapseIsPaused: try latest.map {
            try db.isPaused(settings.dayRule.day(of: Instant(seconds: $0), in: zone))
          } ?? false)
        guard let elapse = decision.elapse else { return .nothingDue(slot) }
        guard try db.claim(slot: slot, elapse: elapse) else {
          try db.logReminder(
            ReminderLogEntry(slot: slot, elapse: elapse, outcome: .duplicate, at: at))
          return .logged(slot, .duplicate, elapse: elapse)
        }
        guard let skipped = decision.skipOutcome else { return try post(elapse) }
        try db.logReminder(ReminderLogEntry(slot: slot, elapse: elapse, outcome: skipped, at: at))
        return .logged(slot, skipped, elapse: elapse)
      }
    }
  }

  /// Logs what happened to a reminder (shown, clicked, done, snoozed…).
  public func logReminder(_ entry: ReminderLogEntry) throws(StoreError) {
    try write { db in try db.logReminder(entry) }
  }

  /// The reminder log, newest last.
  public func reminderLog(limit: Int) throws(StoreError) -> [ReminderLogEntry] {
    try read { db in
      try db.fetchAll(ReminderLogEntry.self, "ORDER BY id DESC LIMIT ?", [SQLValue(limit)])
        .reversed()
    }
  }

  /// Whether (slot, elapse) has been handled already.
  public func isClaimed(slot: Slot, elapse: Int) throws(StoreError) -> Bool {
    try read { db in try db.isClaimed(slot: slot, elapse: elapse) }
  }
}

extension SQLiteConnection {
  /// Claims (slot, elapse) for one reminder: false when another run claimed it first (refused
  /// by the UNIQUE key, not a check-then-insert).
  fileprivate func claim(slot: Slot, elapse: Int) throws -> Bool {
    do {
      try execute(
        "INSERT INTO reminder_claim (slot, elapse) VALUES (?, ?)",
        [SQLValue(slot), SQLValue(elapse)])
      return true
    } catch let error as SQLiteError where error.code == SQLITE_CONSTRAINT {
      return false
    }
  }

  /// Adds a line to the reminder log.
  func logReminder(_ entry: ReminderLogEntry) throws { try insert(entry) }

  /// Whether (slot, elapse) has been handled already.
  func isClaimed(slot: Slot, elapse: Int) throws -> Bool {
    try integer(
      "SELECT EXISTS (SELECT 1 FROM reminder_claim WHERE slot = ? AND elapse = ?)",
      [SQLValue(slot), SQLValue(elapse)]) == 1
  }

}
