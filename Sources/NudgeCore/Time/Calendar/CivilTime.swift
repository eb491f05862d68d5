/// A C `struct tm`: fields that may be out of range until normalised, `year` as a full year,
/// `month` from 0.
struct BrokenDownTime: Equatable {
  var year: Int
  var month: Int
  var day: Int
  var hour: Int
  var minute: Int
  var second: Int
  /// -1 unknown, 0 standard, 1 daylight saving.
  var isDST: Int = -1

  /// Year, month, day, hour, minute, second by position (0…5).
  func field(_ level: Int) -> Int {
    switch level {
    case 0: year
    case 1: month
    case 2: day
    case 3: hour
    case 4: minute
    default: second
    }
  }

  /// The fields read as if they were UTC: seconds since the epoch, normalising overflow.
  var naiveSeconds: Int {
    let y = year + floorDiv(month, 12)
    let m = month - 12 * floorDiv(month, 12)
    let days = Day(year: y, month: m + 1, day: 1).ordinal + day - 1
    return days * 86400 + hour * 3600 + minute * 60 + second
  }

  init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, isDST: Int = -1) {
    self.year = year
    self.month = month
    self.day = day
    self.hour = hour
    self.minute = minute
    self.second = second
    self.isDST = isDST
  }

  init(naive seconds: Int, isDST: Int) {
    let days = floorDiv(seconds, 86400)
    let rest = seconds - days * 86400
    let date = Day(ordinal: days)
    self.init(
      year: date.year, month: date.month - 1, day: date.day, hour: rest / 3600,
      minute: rest % 3600 / 60, second: rest % 60, isDST: isDST)
  }
}

/// Division rounded toward minus infinity: the day of a second before 1970 is -1, not 0.
public func floorDiv(_ a: Int, _ b: Int) -> Int { a >= 0 ? a / b : -((-a + b - 1) / b) }

/// A local date on which the zone keeps one offset, from two days before to two days after:
/// `mktime` and `localtime` of its times need no search of the zone's transitions, and give
/// what the full emulation gives (the elapse loop asks about the same day many times).
struct SteadyDay: Sendable, Equatable {
  /// The date as days since the epoch.
  var naiveDay: Int
  /// Its local midnight, with the day's DST flag.
  var midnight: BrokenDownTime
  var offset: Int

  /// The day's fields at `naive` seconds (local time read as UTC) on this day.
  func time(naive: Int) -> BrokenDownTime {
    let rest = naive - naiveDay * 86400
    var tm = midnight
    (tm.hour, tm.minute, tm.second) = (rest / 3600, rest % 3600 / 60, rest % 60)
    return tm
  }
}

/// The C library's conversions in one zone: `localtime_r`, and `mktime` as glibc 2.36 does it,
/// including its remembered offset guess, which decides ambiguous local times.
struct CivilClock {
  let zone: ZoneRules
  let utc: Bool
  /// glibc's static `localtime_offset`: t minus local seconds of the last result.
  var guess = 0
  /// The last steady local day `mktime` met.
  var steady: SteadyDay? = nil
  /// Off: every call searches the zone (the reference the steady-day path is tested against).
  var usesSteadyDays = true
  /// Off: every call computes (the reference the replay is tested against).
  var remembersLastCall = true
  /// The last call: its fields and guess, and what it gave. The elapse loop asks about the
  /// same fields several times in a row (each bound check normalises a copy).
  private var last:
    (
      input: BrokenDownTime, guess: Int, output: BrokenDownTime, t: Int?,
      guessAfter: Int
    )? = nil

  init(zone: ZoneRules, utc: Bool) {
    self.zone = zone
    self.utc = utc
  }

  func localtime(_ t: Int) -> BrokenDownTime {
    if utc { return BrokenDownTime(naive: t, isDST: 0) }
    if let steady, floorDiv(t + steady.offset, 86400) == steady.naiveDay {
      return steady.time(naive: t + steady.offset)
    }
    let type = zone.localType(at: t)
    let leap = zone.leapCorrection(at: t)
    var tm = BrokenDownTime(naive: t + type.offset - leap.correction, isDST: type.isDST ? 1 : 0)
    tm.second += leap.hit
    return tm
  }

  /// Whether `mktime` would give `tm`'s fields back as they are, known without converting:
  /// each field in its range, in UTC or on the steady day last met (with its DST flag, or
  /// none asked). It then sets the guess as that `mktime` would (the bound checks of the elapse
  /// loop ask this of fields already in range, several times an elapse).
  mutating func keepsFields(_ tm: BrokenDownTime) -> Bool {
    guard usesSteadyDays, (0...11).contains(tm.month), tm.day >= 1,
      tm.day <= 28 || tm.day <= Day.daysIn(month: tm.month + 1, year: tm.year),
      (0...23).contains(tm.hour), (0...59).contains(tm.minute), (0...59).contains(tm.second)
    else { return false }
    if utc { return true }
    guard let steady, tm.day == steady.midnight.day, tm.month == steady.midnight.month,
      tm.year == steady.midnight.year, tm.isDST < 0 || tm.isDST == steady.midnight.isDST
    else { return false }
    guess = -steady.offset
    return true
  }

  /// The local day `naiveDay` when it is steady (remembered for the next call).
  private mutating func steadyDay(_ naiveDay: Int) -> SteadyDay? {
    if let steady, steady.naiveDay == naiveDay { return steady }
    guard
      let type = zone.steadyType(from: (naiveDay - 2) * 86400, to: (naiveDay + 3) * 86400)
    else { return nil }
    let day = SteadyDay(
      naiveDay: naiveDay,
      midnight: BrokenDownTime(naive: naiveDay * 86400, isDST: type.isDST ? 1 : 0),
      offset: type.offset)
    steady = day
    return day
  }

  /// Normalises `tm` and returns its instant; nil where glibc returns -1. The answer depends
  /// only on the fields and the guess (glibc's `localtime_offset`), so a repeated call replays
  /// the last one.
  mutating func mktime(_ tm: inout BrokenDownTime) -> Int? {
    if remembersLastCall, let last, last.input == tm, last.guess == guess {
      tm = last.output
      guess = last.guessAfter
      return last.t
    }
    let (input, guessBefore) = (tm, guess)
    let t = searchingMktime(&tm)
    last = (input, guessBefore, tm, t, guess)
    return t
  }

  private mutating func searchingMktime(_ tm: inout BrokenDownTime) -> Int? {
    if utc {
      let t = tm.naiveSeconds
      tm = BrokenDownTime(naive: t, isDST: 0)
      return t
    }
    let isdst = tm.isDST
    let requestedSecond = tm.second
    var clamped = tm
    clamped.second = min(max(tm.second, 0), 59)
    let wanted = clamped.naiveSeconds
    // a steady day: the search below would land on `wanted - offset` and remember that offset
    if usesSteadyDays, clamped.second == requestedSecond,
      let day = steadyDay(floorDiv(wanted, 86400)),
      isdst < 0 || isdst == day.midnight.isDST
    {
      guess = -day.offset
      tm = day.time(naive: wanted)
      return wanted - day.offset
    }
    let t0 = wanted + guess
    var t = t0
    var t1 = t0
    var t2 = t0
    var dst2 = 0
    var remaining = 6
    var found = localtime(t)
    var matched = true
    while true {
      found = localtime(t)
      let dt = wanted - found.naiveSeconds
      if dt == 0 { break }
      if t == t1 && t != t2
        && (isdst < 0 ? dst2 <= (found.isDST != 0 ? 1 : 0) : (isdst != 0) != (found.isDST != 0))
      {
        matched = false
        break
      }
      remaining -= 1
      if remaining == 0 { return nil }
      t1 = t2
      t2 = t
      t += dt
      dst2 = found.isDST != 0 ? 1 : 0
    }
    if matched && isdst >= 0 && (isdst != 0) != (found.isDST != 0) {
      let stride = 601_200
      let bound = 536_454_000 / 2 + stride
      var delta = stride
      var located = false
      search: while delta < bound {
        for direction in [-1, 1] {
          let ot = t + delta * direction
          let other = localtime(ot)
          if (other.isDST != 0) == (isdst != 0) {
            t = ot + (wanted - other.naiveSeconds)
            found = localtime(t)
            located = true
            break search
          }
        }
        delta += stride
      }
      if !located { return nil }
    }
    guess = t - t0 + guess
    if requestedSecond != found.second {
      // the requested second, not the clamped one; and a false match of :00 on a leap second
      // (:60, which every minute-based comparison takes for the next :00) moves one on
      let falseLeapMatch = clamped.second == 0 && found.second == 60 ? 1 : 0
      t += falseLeapMatch - clamped.second + requestedSecond
      found = localtime(t)
    }
    tm = found
    return t
  }
}
