// `PosixTZ`: the POSIX TZ rule (`TZ=` text, or a TZif file's footer) beyond a zone's
// last transition, and the instants it switches at.

/// A POSIX TZ rule such as `CET-1CEST,M3.5.0,M10.5.0/3`.
struct PosixTZ: Sendable, Equatable {
  enum DateRule: Sendable, Equatable {
    case julianNoLeap(Int)
    case zeroBased(Int)
    case monthWeekDay(month: Int, week: Int, weekday: Int)
  }

  var stdName: String
  var stdOffset: Int
  var dstName: String?
  var dstOffset: Int
  var start: (DateRule, Int)?
  var end: (DateRule, Int)?
  /// False when the text names a DST zone but no rule (`AAA5BBB` or `AAA5BBB,`): glibc then
  /// borrows the rules of `posixrules`, or the US rules when that file is missing.
  var hasRule = true

  static func == (a: PosixTZ, b: PosixTZ) -> Bool {
    a.stdName == b.stdName && a.stdOffset == b.stdOffset && a.dstName == b.dstName
      && a.dstOffset == b.dstOffset && a.start?.0 == b.start?.0 && a.start?.1 == b.start?.1
      && a.end?.0 == b.end?.0 && a.end?.1 == b.end?.1
  }

  init?(_ text: String) {
    var s = Substring(text)
    func name() -> String? {
      if s.first == "<" {
        guard let close = s.firstIndex(of: ">") else { return nil }
        let n = String(s[s.index(after: s.startIndex)..<close])
        s = s[s.index(after: close)...]
        // glibc wants three characters at least, quoted or not
        return n.count < 3 ? nil : n
      }
      let n = s.prefix { $0.isLetter }
      guard n.count >= 3 else { return nil }
      s = s.dropFirst(n.count)
      return String(n)
    }
    // [+-]hh[:mm[:ss]] in seconds; an offset is clamped as glibc's tzset clamps it (hours to
    // 24, minutes and seconds to 59), a rule's time of day to what its parser holds (%hu)
    func time(offset: Bool = true) -> Int? {
      var sign = 1
      if s.first == "+" || s.first == "-" {
        sign = s.first == "-" ? -1 : 1
        s = s.dropFirst()
      }
      var parts: [Int] = []
      while parts.count < 3 {
        let digits = s.prefix { $0.isASCII && $0.isNumber }
        // "5:" is 5 hours, as glibc's sscanf reads it; no digits at all is no time
        guard !digits.isEmpty else {
          if parts.isEmpty { return nil } else { break }
        }
        let limit = offset ? (parts.isEmpty ? 24 : 59) : 65535
        // a number too long for Int is as clamped as a long one
        parts.append(Int(digits).map { min($0, limit) } ?? limit)
        s = s.dropFirst(digits.count)
        if s.first == ":" { s = s.dropFirst() } else { break }
      }
      while parts.count < 3 { parts.append(0) }
      return sign * (parts[0] * 3600 + parts[1] * 60 + parts[2])
    }
    func date() -> DateRule? {
      if s.first == "J" {
        s = s.dropFirst()
        let d = s.prefix { $0.isASCII && $0.isNumber }
        s = s.dropFirst(d.count)
        // glibc refuses a day outside 1...365
        guard let n = Int(d), (1...365).contains(n) else { return nil }
        return .julianNoLeap(n)
      }
      if s.first == "M" {
        s = s.dropFirst()
        var v: [Int] = []
        for i in 0..<3 {
          let d = s.prefix { $0.isASCII && $0.isNumber }
          guard d.count <= 4, let n = Int(d) else { return nil }
          v.append(n)
          s = s.dropFirst(d.count)
          if i < 2 {
            guard s.first == "." else { return nil }
            s = s.dropFirst()
          }
        }
        guard (1...12).contains(v[0]), (1...5).contains(v[1]), (0...6).contains(v[2]) else {
          return nil
        }
        return .monthWeekDay(month: v[0], week: v[1], weekday: v[2])
      }
      let d = s.prefix { $0.isASCII && $0.isNumber }
      s = s.dropFirst(d.count)
      guard let n = Int(d), (0...365).contains(n) else { return nil }
      return .zeroBased(n)
    }
    guard let std = name(), let off = time() else { return nil }
    stdName = std
    stdOffset = -off
    dstOffset = stdOffset + 3600
    // the summer-time part: a name, an offset, the rules; where it does not parse, glibc keeps
    // the standard time alone, and so does this
    func summer() -> (
      name: String, offset: Int, rule: (start: (DateRule, Int), end: (DateRule, Int))?
    )? {
      guard let dst = name() else { return nil }
      var offset = -off + 3600
      if let first = s.first, first != "," {
        guard let o = time() else { return nil }
        offset = -o
      }
      if s.isEmpty || s == "," { return (dst, offset, nil) }
      guard s.first == "," else { return nil }
      s = s.dropFirst()
      guard let a = date() else { return nil }
      var aTime = 7200
      if s.first == "/" {
        s = s.dropFirst()
        guard let t = time(offset: false) else { return nil }
        aTime = t
      }
      // a first rule without a readable second: glibc ends summer time where its zeroed rule
      // says, day 0 (1 January) at 00:00
      let zeroed: (DateRule, Int) = (.zeroBased(0), 0)
      guard s.first == "," else { return (dst, offset, ((a, aTime), zeroed)) }
      s = s.dropFirst()
      guard let b = date() else { return (dst, offset, ((a, aTime), zeroed)) }
      var bTime = 7200
      if s.first == "/" {
        s = s.dropFirst()
        guard let t = time(offset: false) else { return (dst, offset, ((a, aTime), zeroed)) }
        bTime = t
      }
      return (dst, offset, ((a, aTime), (b, bTime)))
    }
    if s.isEmpty { return }
    guard let dst = summer() else { return }
    dstName = dst.name
    dstOffset = dst.offset
    if let rule = dst.rule {
      start = rule.start
      end = rule.end
    } else {
      // no rule: glibc falls back to the US rules of POSIX (when it has no posixrules file)
      hasRule = false
      start = (.monthWeekDay(month: 3, week: 2, weekday: 0), 7200)
      end = (.monthWeekDay(month: 11, week: 1, weekday: 0), 7200)
    }
  }

  /// Seconds since the epoch of local midnight of the rule's date in `year` (as UTC fields).
  static func dayStart(_ rule: DateRule, year: Int) -> Int {
    let jan1 = Day(year: year, month: 1, day: 1).ordinal
    switch rule {
    case .julianNoLeap(let n):
      let leapShift = Day.isLeap(year) && n >= 60 ? 1 : 0
      return (jan1 + n - 1 + leapShift) * 86400
    case .zeroBased(let n):
      return (jan1 + n) * 86400
    case .monthWeekDay(let m, let w, let d):
      let first = Day(year: year, month: m, day: 1)
      var day = 1 + (d - first.weekday + 7) % 7 + (w - 1) * 7
      let length = Day.daysIn(month: m, year: year)
      while day > length { day -= 7 }
      return (first.ordinal + day - 1) * 86400
    }
  }

  /// The instants in `year` at which the rule switches to DST and back (none without DST).
  func changes(year: Int) -> [Int] {
    guard dstName != nil, let start, let end else { return [] }
    return [
      Self.dayStart(start.0, year: year) + start.1 - stdOffset,
      Self.dayStart(end.0, year: year) + end.1 - dstOffset,
    ]
  }

  func localType(at t: Int) -> ZoneRules.LocalType {
    let standard = ZoneRules.LocalType(offset: stdOffset, isDST: false, abbreviation: stdName)
    guard let dstName, let start, let end else { return standard }
    let year = Day(ordinal: t >= 0 ? t / 86400 : (t - 86399) / 86400).year
    let change0 = Self.dayStart(start.0, year: year) + start.1 - stdOffset
    let change1 = Self.dayStart(end.0, year: year) + end.1 - dstOffset
    let isDST = change0 > change1 ? (t < change1 || t >= change0) : (t >= change0 && t < change1)
    return isDST
      ? ZoneRules.LocalType(offset: dstOffset, isDST: true, abbreviation: dstName) : standard
  }
}
