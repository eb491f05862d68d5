import ArgumentParser
import FoundationEssentials
import Glibc
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
    if case .fire(let elapse) = decision,
      try db.isPaused(settings.dayRule.day(of: Instant(seconds: elapse), in: ctx.timeZone))
    {
      decision = .skipPaused(elapse: elapse)
    }
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
    case .skipPaused(let elapse):
      claimed = try db.claimFiring(slot: slot, elapse: elapse, outcome: .skippedPaused, at: at)
    case .fire(let elapse):
      claimed = try db.claimFiring(
        slot: slot, elapse: elapse, outcome: deliverable ? .shown : .undelivered, at: at)
    }
    return (decision, claimed)
  }
}
