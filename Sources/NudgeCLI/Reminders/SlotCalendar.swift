import NudgeCore
import NudgeUseCases

/// The slots' calendar expressions against the clock, in the local zone the caller read.
struct SlotCalendar: ReminderCalendar {
  let ctx: Context
  let local: ZoneRules

  /// The slot's parsed expression (refused when it is no reminder's time: a database an older
  /// Nudge wrote may hold '*:*:*').
  func spec(_ schedule: SlotSchedule) throws -> CalendarSpec {
    try ctx.reminderCalendar(schedule.expression, local: local)
  }

  /// The expression's strict next elapse after `t` (epoch seconds).
  func next(_ spec: CalendarSpec, after t: Int) -> Int? {
    spec.nextElapse(after: t, localZone: local, zoneFor: ctx.zones.zone(named:))
  }

  /// The schedule's next-elapse function, as `FireReminder` asks for it.
  func elapses(_ schedule: SlotSchedule) throws -> (Int) -> Int? {
    let spec = try spec(schedule)
    return { next(spec, after: $0) }
  }

  /// The elapse a timer firing at `now` is for (nil: nothing due), from the slot's last trigger.
  func dueElapse(_ slot: ReminderSource, _ spec: CalendarSpec, now: Int, lastTrigger: Int?) -> Int?
  {
    FiringRule.dueElapse(atOrBefore: now, lastTrigger: lastTrigger, lookback: FiringRule.lookback) {
      next(spec, after: $0)
    }
  }
}
