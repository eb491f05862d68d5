// MARK: - Next elapse, as systemd 252's find_next() on top of glibc's mktime.

extension CalendarSpec {
  /// What stepping an expression forward gave.
  public enum Elapse: Equatable, Sendable {
    /// The next elapse, in microseconds since the epoch.
    case at(Int)
    /// It never elapses again ("Next elapse: never").
    case never
    /// systemd's own calculation gives up here (its 1000-iteration safety valve, usually at a
    /// DST change); systemd-analyze fails the same way.
    case unresolvable
    /// The base is past the last time systemd can format (9999-12-30 23:59:59.999999 UTC):
    /// systemd fails ("Failed to determine next elapse").
    case outOfRange
  }

  /// systemd's USEC_TIMESTAMP_FORMATTABLE_MAX on 64-bit machines, in microseconds.
  public static let formattableMaxMicroseconds = 253_402_214_399_999_999

  /// What the C library remembers between `mktime` calls in one process (glibc's static
  /// offset guess): systemd-analyze steps through elapses in one process, so one elapse's
  /// conversions decide how the next one reads an ambiguous or cut-back local time. One memory
  /// serves one local zone (it also keeps the last steady day of that zone).
  public struct MktimeMemory: Sendable {
    var guess = 0
    /// True for a process that has not parsed `TZ` yet (`systemd-analyze calendar`): its
    /// first breakdown of a base time sees glibc's first parse of the zone, every later
    /// conversion the parse its first `mktime` makes. A long-running manager is never fresh.
    public var freshProcess = false
    /// The last steady local day and the zone it was found in: the next elapse is often on it.
    var steady: SteadyDay? = nil
    var steadyZone: String? = nil
    public init() {}
  }

  /// The first elapse strictly after `after` (microseconds since the epoch), computed in the
  /// spec's own zone (`zoneFor`) or in `localZone`, as a fresh process would.
  public func elapse(
    afterMicroseconds after: Int, localZone: ZoneRules, zoneFor: (String) -> ZoneRules?
  ) -> Elapse {
    var memory = MktimeMemory()
    return elapse(afterMicroseconds: after, localZone: localZone, zoneFor: zoneFor, memory: &memory)
  }

  /// The first elapse strictly after `after`, carrying the C library's memory from the
  /// previous elapse of the same process (a spec with its own zone is computed by systemd in a
  /// forked child, so it starts from the parent's memory and leaves it unchanged).
  public func elapse(
    afterMicroseconds after: Int, localZone: ZoneRules, zoneFor: (String) -> ZoneRules?,
    memory: inout MktimeMemory
  ) -> Elapse {
    guard after <= Self.formattableMaxMicroseconds else { return .outOfRange }
    var zone = localZone
    let forked = timezone != nil && !utc
    if let timezone, !utc {
      zone = zoneFor(timezone) ?? .utc
    }
    var clock = CivilClock(zone: zone, utc: utc)
    clock.guess = memory.guess
    if !forked && memory.steadyZone == zone.name { clock.steady = memory.steady }
    defer {
      if !forked && !utc {
        memory.guess = clock.guess
        memory.steady = clock.steady
        memory.steadyZone = zone.name
      }
    }
    let usec = after + 1
    let seconds = floorDiv(usec, Self.usecPerSec)
    var tm =
      memory.freshProcess && !forked
      ? CivilClock(zone: zone.firstParse ?? zone, utc: utc).localtime(seconds)
      : clock.localtime(seconds)
    // (a UTC spec is computed with gmtime and timegm: TZ is not parsed yet)
    if !forked && !utc { memory.freshProcess = false }
    var tmUsec = usec - seconds * Self.usecPerSec
    switch findNext(&tm, &tmUsec, &clock) {
    case .never: return .never
    case .unresolvable, .outOfRange: return .unresolvable
    case .at: break
    }
    guard let t = clock.mktime(&tm) else { return .unresolvable }
    return .at(t * Self.usecPerSec + tmUsec)
  }

  /// The first elapse after `after` in whole seconds; nil when there is none to be had.
  public func nextElapse(after: Int, localZone: ZoneRules, zoneFor: (String) -> ZoneRules?)
    -> Int?
  {
    if case .at(let usec) = elapse(
      afterMicroseconds: after * Self.usecPerSec, localZone: localZone, zoneFor: zoneFor)
    {
      return floorDiv(usec, Self.usecPerSec)
    }
    return nil
  }

  private func findEndOfMonth(_ tm: BrokenDownTime, _ day: Int, _ clock: inout CivilClock) -> Int {
    var t = tm
    t.month += 1
    t.day = 1 - day
    guard clock.mktime(&t) != nil, t.month == tm.month else { return -1 }
    return t.day
  }

  /// The earliest value of `chain` at or after `value`; nil when none.
  private func matching(
    _ chain: Chain, isDay: Bool, _ tm: BrokenDownTime, _ value: Int, _ clock: inout CivilClock
  ) -> Int? {
    guard let chain else { return value }
    let eom = endOfMonth && isDay
    var best: Int? = nil
    for c in chain {
      var start = c.start
      var stop = c.stop
      if eom {
        start = findEndOfMonth(tm, c.start, &clock)
        stop = findEndOfMonth(tm, c.stop, &clock)
        if stop > 0 { swap(&start, &stop) }
      }
      if start >= value {
        if best == nil || start < best! { best = start }
      } else if c.step > 0 {
        let k = start + c.step * ((value - start + c.step - 1) / c.step)
        if (best == nil || k < best!) && (stop < 0 || k <= stop) { best = k }
      }
    }
    return best
  }

  /// systemd's tm_within_bounds(): 1 in bounds, 0 normalised forward (tm updated), nil when
  /// out of range or normalisation went backwards.
  private func withinBounds(_ tm: inout BrokenDownTime, _ clock: inout CivilClock) -> Int? {
    if tm.year > Self.maxYear { return nil }
    // fields in range on a day of one offset: mktime would give them back (the usual case)
    if clock.keepsFields(tm) { return 1 }
    var t = tm
    guard clock.mktime(&t) != nil else { return nil }
    guard let level = Self.firstDifferingField(t, tm) else { return 1 }
    if t.field(level) < tm.field(level) { return nil }
    // a higher field moved: restart the next lower one, as systemd does
    switch level {
    case 0: t.month = 0
    case 1: t.day = 1
    case 2: t.hour = 0
    case 3: t.minute = 0
    case 4: t.second = 0
    default: break
    }
    tm = t
    return 0
  }

  /// 0 when `tm`'s weekday is one of the expression's; else how many days on the next day
  /// that is one lies, at most the first day of the next month (1 where normalisation moved
  /// the date, or no weekday is set at all).
  private func daysToMatchingWeekday(_ tm: BrokenDownTime, _ clock: inout CivilClock) -> Int {
    if weekdays < 0 || weekdays >= Self.allWeekdays { return 0 }
    var t = tm
    guard clock.mktime(&t) != nil else { return 1 }
    let date = Day(year: t.year, month: t.month + 1, day: t.day)
    let k = (date.weekday + 6) % 7
    if weekdays & (1 << k) != 0 { return 0 }
    guard weekdays & 0x7f != 0, t.year == tm.year, t.month == tm.month, t.day == tm.day else {
      return 1
    }
    var days = 1
    while weekdays & (1 << ((k + days) % 7)) == 0 { days += 1 }
    return min(days, Day.daysIn(month: tm.month + 1, year: tm.year) - tm.day + 1)
  }

  /// -1, 0 or 1 as `a`'s fields, year first, come before, equal or after `b`'s.
  static func compareFields(_ a: BrokenDownTime, _ b: BrokenDownTime) -> Int {
    guard let level = firstDifferingField(a, b) else { return 0 }
    let (x, y) = (a.field(level), b.field(level))
    return x < y ? -1 : 1
  }

  /// The first of year, month, day, hour, minute, second (0…5) that differs.
  static func firstDifferingField(_ a: BrokenDownTime, _ b: BrokenDownTime) -> Int? {
    (0..<6).first { a.field($0) != b.field($0) }
  }

  private func findNext(
    _ tm: inout BrokenDownTime, _ usec: inout Int, _ clock: inout CivilClock
  ) -> Elapse {
    var c = tm
    var tmUsec = usec
    var invalidateDST = false
    var turns = 0
    while turns < 1000 {
      turns += 1
      _ = clock.mktime(&c)
      if !invalidateDST { c.isDST = dst }

      guard let y = matching(year, isDay: false, c, c.year, &clock) else { return .never }
      if y != c.year {
        c.year = y
        (c.month, c.day, c.hour, c.minute, c.second, tmUsec) = (0, 1, 0, 0, 0, 0)
      }
      guard let r0 = withinBounds(&c, &clock), r0 > 0 else { return .never }

      let m = matching(month, isDay: false, c, c.month + 1, &clock)
      if let m, m != c.month + 1 {
        c.month = m - 1
        (c.day, c.hour, c.minute, c.second, tmUsec) = (1, 0, 0, 0, 0)
      }
      var r = m == nil ? nil : withinBounds(&c, &clock)
      if r == nil {
        c.year += 1
        (c.month, c.day, c.hour, c.minute, c.second, tmUsec) = (0, 1, 0, 0, 0, 0)
        continue
      }
      if r == 0 { continue }

      let d = matching(day, isDay: true, c, c.day, &clock)
      if let d, d != c.day {
        c.day = d
        (c.hour, c.minute, c.second, tmUsec) = (0, 0, 0, 0)
      }
      r = d == nil ? nil : withinBounds(&c, &clock)
      if r == nil {
        c.month += 1
        (c.day, c.hour, c.minute, c.second, tmUsec) = (1, 0, 0, 0, 0)
        continue
      }
      if r == 0 { continue }

      let skipped = daysToMatchingWeekday(c, &clock)
      if skipped > 0 {
        if clock.utc && skipped > 1 {
          // systemd steps one day at a time, a turn of this loop for each day of the day's
          // chain, whose weekday then fails again (a day off the chain is passed over by the
          // day's match within a turn). In UTC nothing normalises a day's midnight, so the
          // jump lands where those turns would, and counts them: the same elapse, and the same
          // turn where systemd gives up.
          // A jump stopped at the month's end passes over one more turn when the month's last
          // day is off the chain: systemd's step to the day after the chain's last finds no
          // day, and that turn moves on to the next month.
          let daysInMonth = Day.daysIn(month: c.month + 1, year: c.year)
          let passesMonthEnd = c.day + skipped > daysInMonth
          let monthEndOffChain = matching(day, isDay: true, c, daysInMonth, &clock) != daysInMonth
          turns += (c.day + 1..<c.day + skipped).count {
            matching(day, isDay: true, c, $0, &clock) == $0
          }
          if passesMonthEnd && monthEndOffChain { turns += 1 }
          c.day += skipped
        } else {
          c.day += 1
        }
        (c.hour, c.minute, c.second, tmUsec) = (0, 0, 0, 0)
        continue
      }

      let h = matching(hour, isDay: false, c, c.hour, &clock)
      if let h, h != c.hour {
        c.hour = h
        (c.minute, c.second, tmUsec) = (0, 0, 0)
      }
      r = h == nil ? nil : withinBounds(&c, &clock)
      if r == nil {
        c.day += 1
        (c.hour, c.minute, c.second, tmUsec) = (0, 0, 0, 0)
        continue
      }
      if r == 0 { continue }

      let mi = matching(minute, isDay: false, c, c.minute, &clock)
      if let mi, mi != c.minute {
        c.minute = mi
        (c.second, tmUsec) = (0, 0)
      }
      r = mi == nil ? nil : withinBounds(&c, &clock)
      if r == nil {
        c.hour += 1
        (c.minute, c.second, tmUsec) = (0, 0, 0)
        continue
      }
      if r == 0 { continue }

      let combined = c.second * Self.usecPerSec + tmUsec
      let s = matching(microsecond, isDay: false, c, combined, &clock)
      if let s {
        tmUsec = s % Self.usecPerSec
        c.second = s / Self.usecPerSec
      } else {
        tmUsec = combined % Self.usecPerSec
        c.second = combined / Self.usecPerSec
      }
      r = s == nil ? nil : withinBounds(&c, &clock)
      if r == nil {
        c.minute += 1
        (c.second, tmUsec) = (0, 0)
        continue
      }
      if r == 0 { continue }

      var order = Self.compareFields(tm, c)
      if order == 0 { order = usec < tmUsec + 1 ? -1 : (usec > tmUsec + 1 ? 1 : 0) }
      if order >= 0 {
        // stuck: advance and let mktime settle the DST change (systemd 252.39)
        invalidateDST = true
        c.hour += 1
        continue
      }
      tm = c
      usec = tmUsec
      return .at(0)
    }
    return .unresolvable
  }
}
