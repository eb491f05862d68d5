import FoundationEssentials

/// A point in time, in microseconds since the Unix epoch (UTC): Nudge's one instant type, from
/// the clock through days, firing, the calendar (which counts microseconds, as systemd does),
/// the store and the log. Time zones apply only when an instant is read or written.
public struct Instant: Comparable, Hashable, Sendable {
  public var microseconds: Int

  public init(microseconds: Int) { self.microseconds = microseconds }
  public init(seconds: Int) { microseconds = seconds * 1_000_000 }

  /// Whole seconds since the epoch (rounded down).
  public var seconds: Int { floorDiv(microseconds, 1_000_000) }

  /// Seconds from `earlier` to this instant.
  public func seconds(since earlier: Instant) -> Double {
    Double(microseconds - earlier.microseconds) / 1e6
  }

  public func adding(seconds: Double) -> Instant {
    Instant(microseconds: microseconds + Int((seconds * 1e6).rounded()))
  }

  public static func < (a: Instant, b: Instant) -> Bool { a.microseconds < b.microseconds }

  /// Before any instant Nudge reads (an unreadable saved-at time sorts first).
  public static let distantPast = Instant(microseconds: Int.min)
}

/// Reading and writing instants as the scriptable interface spells them.
public enum InstantFormat {
  /// Parses ISO 8601 with an explicit offset (`2026-03-29T06:59:00+02:00`, `…Z`) or `@EPOCH`.
  public static func parse(_ text: String) -> Instant? { parseWithOffset(text)?.instant }

  /// The UTC offset `text` was written with (0 for `Z` and `@EPOCH`).
  public static func offset(of text: String) -> Int? { parseWithOffset(text)?.offset }

  static func parseWithOffset(_ text: String) -> (instant: Instant, offset: Int)? {
    if text.hasPrefix("@") {
      let digits = text.dropFirst()
      // checked as a range, never through abs(): Int.min has no magnitude (it trapped)
      guard !digits.isEmpty, digits.utf8.count <= 20, let seconds = Int(digits),
        seconds > -(1 << 40), seconds < 1 << 40
      else { return nil }
      return (Instant(seconds: seconds), 0)
    }
    // read in place (it is read for every saved entry an import checks): no copies
    var text = text
    return text.withUTF8 { parseISO($0) }
  }

  /// The number the `count` ASCII digits at `from` write; nil when one is not a digit or
  /// they run past the end.
  static func digits(_ chars: UnsafeBufferPointer<UInt8>, _ from: Int, _ count: Int) -> Int? {
    guard from + count <= chars.count else { return nil }
    var value = 0
    for c in chars[from..<from + count] {
      guard c >= 48 && c <= 57 else { return nil }
      value = value * 10 + Int(c - 48)
    }
    return value
  }

  /// `parseWithOffset`'s ISO 8601 form, from its UTF-8 bytes.
  private static func parseISO(_ chars: UnsafeBufferPointer<UInt8>) -> (
    instant: Instant, offset: Int
  )? {
    func number(_ from: Int, _ count: Int) -> Int? { digits(chars, from, count) }
    guard chars.count >= 20, let y = number(0, 4), chars[4] == 45, let mo = number(5, 2),
      chars[7] == 45, let d = number(8, 2), chars[10] == 84 || chars[10] == 32,
      let h = number(11, 2), chars[13] == 58, let mi = number(14, 2), chars[16] == 58,
      let s = number(17, 2), (1...12).contains(mo), d >= 1, d <= Day.daysIn(month: mo, year: y),
      h < 24, mi < 60, s < 60
    else { return nil }
    var at = 19
    if chars[at] == 46 {  // fractional seconds are accepted and dropped
      at += 1
      let digits = at
      while at < chars.count && chars[at] >= 48 && chars[at] <= 57 { at += 1 }
      guard at < chars.count, at > digits else { return nil }
    }
    let o = UnsafeBufferPointer(rebasing: chars[at...])
    let offset: Int
    if o.count == 1 && o[0] == 90 {
      offset = 0
    } else {
      // ±HH:MM, or ±HH:MM:SS for an offset with seconds; any two-digit hour, as a `TZ` that
      // glibc clamps to 24 h may still add an hour of summer time
      guard o.count == 6 || o.count == 9, o[0] == 43 || o[0] == 45, o[3] == 58,
        o.count == 6 || o[6] == 58
      else { return nil }
      func isDigit(_ at: Int) -> Bool { o[at] >= 48 && o[at] <= 57 }
      guard isDigit(1), isDigit(2), isDigit(4), isDigit(5),
        o.count == 6 || (isDigit(7) && isDigit(8))
      else { return nil }
      func pair(_ at: Int) -> Int { (Int(o[at]) - 48) * 10 + Int(o[at + 1]) - 48 }
      let (oh, om, os) = (pair(1), pair(4), o.count == 9 ? pair(7) : 0)
      guard om < 60, os < 60 else { return nil }
      offset = (o[0] == 45 ? -1 : 1) * (oh * 3600 + om * 60 + os)
    }
    let seconds = Day(year: y, month: mo, day: d).ordinal * 86400 + h * 3600 + mi * 60 + s - offset
    return (Instant(seconds: seconds), offset)
  }

  /// "02:30", the clock time a saved time stamp was written with; "02:30 (+02:00)", with its
  /// offset, when `zone` (the zone it was saved in) shows that clock time twice that day (the
  /// repeated hour of a fall-back night), so two times in that hour read apart.
  public static func clock(_ text: String, in zone: ZoneRules) -> String {
    guard let (instant, offset) = parseWithOffset(text) else { return text }
    // the hour and minute as written: the 12th to 16th characters, which are bytes (a text
    // that reads as a time is ASCII there)
    guard text.utf8.count >= 16 else { return text }
    let clock = String(decoding: text.utf8.dropFirst(11).prefix(5), as: UTF8.self)
    let t = instant.seconds
    guard zone.localType(at: t).offset == offset, zone.repeatsWallTime(at: t) else { return clock }
    let size = abs(offset)
    return clock
      + " (\(offset < 0 ? "-" : "+")\(zeroPadded(size / 3600, 2)):\(zeroPadded(size % 3600 / 60, 2)))"
  }

  /// Formats as `2026-11-20T00:40:00+01:00` in the given zone.
  public static func format(_ instant: Instant, in zone: ZoneRules) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(25)
    append(instant, in: zone, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends the same text as UTF-8 (the preview writes thousands of these into one buffer).
  public static func append(_ instant: Instant, in zone: ZoneRules, to bytes: inout [UInt8]) {
    let t = LocalTime(instant, in: zone)
    let off = abs(t.utcOffset)
    guard (0..<10_000).contains(t.date.year) else {
      // a year of another width (never stored: SupportedTime), field by padded field
      let fields = [
        zeroPadded(t.date.year, 4), "-", zeroPadded(t.date.month, 2), "-",
        zeroPadded(t.date.day, 2), "T", zeroPadded(t.hour, 2), ":", zeroPadded(t.minute, 2), ":",
        zeroPadded(t.second, 2), t.utcOffset < 0 ? "-" : "+", zeroPadded(off / 3600, 2), ":",
        zeroPadded(off % 3600 / 60, 2), off % 60 == 0 ? "" : ":" + zeroPadded(off % 60, 2),
      ]
      bytes += Array(fields.joined().utf8)
      return
    }
    // the usual text, 25 bytes (28 with an offset's seconds), made in place and added at once
    // (an offset has two digits of hours: zones keep within ±26 h, as the old writing did)
    let count = off % 60 == 0 ? 25 : 28
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 28) { text in
      func digits(_ n: Int, _ width: Int, at end: Int) {
        writePadded(n, width: width, endingAt: end, in: text)
      }
      digits(t.date.year, 4, at: 4)
      text[4] = 45  // -
      digits(t.date.month, 2, at: 7)
      text[7] = 45
      digits(t.date.day, 2, at: 10)
      text[10] = 84  // T
      digits(t.hour, 2, at: 13)
      text[13] = 58  // :
      digits(t.minute, 2, at: 16)
      text[16] = 58
      digits(t.second, 2, at: 19)
      text[19] = t.utcOffset < 0 ? 45 : 43  // - or +
      digits(off / 3600, 2, at: 22)
      text[22] = 58
      digits(off % 3600 / 60, 2, at: 25)
      if count == 28 {  // an offset with seconds keeps them, so the text reads back exactly
        text[25] = 58
        digits(off % 60, 2, at: 28)
      }
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[0..<count]))
    }
  }
}

/// The stretch of time Nudge keeps: from 1970-01-09 through 9998. Every day it works out from a
/// "now" in it (a year's pause ahead, weeks of history behind, a zone's offset either way)
/// still has the four-digit year every stored day and time is written with, so no command
/// can store a value that a later one cannot read.
public enum SupportedTime {
  /// The first day and the last day a "now" may fall on (UTC): a week into 1970, so a
  /// backfill (7 days back) in a zone west of UTC still stays in `days`.
  public static let firstDay = Day(year: 1970, month: 1, day: 9)
  public static let lastDay = Day(year: 9998, month: 12, day: 31)

  /// The instants a "now" may be.
  public static let instants =
    Instant(seconds: firstDay.ordinal * 86400)...Instant(seconds: lastDay.ordinal * 86400 + 86399)

  /// Days a stored entry may be for (a margin of a year and a half past `lastDay` for pauses
  /// and zones, none before 1969-12-31 where a zone west of UTC puts the first instant).
  public static let days = Day(year: 1969, month: 12, day: 31)...Day(year: 9999, month: 12, day: 31)

  /// How the range is said in errors.
  public static let described = "from 1970-01-09 through 9998-12-31"

  public static func contains(_ instant: Instant) -> Bool { instants.contains(instant) }

  /// Whether a stored time (a save, a note) falls on a day Nudge keeps (`days`, in UTC).
  public static func holds(stored instant: Instant) -> Bool {
    let day = instant.seconds >= 0 ? instant.seconds / 86400 : (instant.seconds - 86399) / 86400
    return days.contains(Day(ordinal: day))
  }
}
