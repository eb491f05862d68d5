/// A time zone as the C library sees it: TZif transitions plus the POSIX TZ rule beyond them.
/// Built from bytes at the edge (the zone file), so that everything computed from it is pure.
public struct ZoneRules: Sendable, Equatable {
  /// One kind of local time: its offset east of UTC, DST flag and abbreviation.
  public struct LocalType: Sendable, Equatable {
    public var offset: Int
    public var isDST: Bool
    public var abbreviation: String
    /// The TZif standard/wall and UT/local indicators of the type (how its transitions were
    /// given), which glibc reads when it borrows a file's rules for a POSIX TZ without any.
    var isStd = false
    var isUT = false
  }

  /// A leap second record of a `right/` zone: from `transition` on, `correction` seconds.
  struct Leap: Sendable, Equatable {
    var transition: Int
    var correction: Int
  }

  public var name: String
  var transitions: [Int] = []
  var transitionTypes: [Int] = []
  var types: [LocalType]
  var rule: PosixTZ?
  var leaps: [Leap] = []
  /// A rule-less POSIX TZ's transitions as glibc's first parse in a process places them
  /// (`rule_dstoff` still 0); nil for every other zone.
  var firstParseTransitions: [Int]? = nil

  /// The zone as a process that has not parsed `TZ` yet sees it in its first conversion (what
  /// `systemd-analyze calendar` breaks its base time down in); nil when that is this zone.
  var firstParse: ZoneRules? {
    firstParseTransitions.map {
      var zone = self
      (zone.transitions, zone.firstParseTransitions) = ($0, nil)
      return zone
    }
  }

  /// UTC, for `TZ` unset without `/etc/localtime`, or `UTC` specs.
  public static let utc = ZoneRules(
    name: "UTC", types: [LocalType(offset: 0, isDST: false, abbreviation: "UTC")])

  init(name: String, types: [LocalType], rule: PosixTZ? = nil) {
    self.name = name
    self.types = types
    self.rule = rule
  }

  /// Parses a TZif file (versions 1–4); nil when the bytes are not one.
  public init?(tzif bytes: [UInt8], name: String) {
    guard bytes.count >= 44, bytes[0..<4].elementsEqual("TZif".utf8) else { return nil }
    func u32(_ at: Int) -> Int {
      Int(Int32(bitPattern: bytes[at..<at + 4].reduce(0) { $0 << 8 | UInt32($1) }))
    }
    func i64(_ at: Int) -> Int {
      Int(Int64(bitPattern: bytes[at..<at + 8].reduce(0) { $0 << 8 | UInt64($1) }))
    }
    func counts(_ at: Int) -> [Int] { (0..<6).map { u32(at + 20 + 4 * $0) } }
    var header = 0
    var c = counts(0)
    var timeSize = 4
    if bytes[4] >= 0x32 {  // version 2+: skip the 32-bit block, read the 64-bit one
      let v1 = c[3] * 5 + c[4] * 6 + c[5] + c[2] * 8 + c[1] + c[0]
      header = 44 + v1
      guard bytes.count >= header + 44, bytes[header..<header + 4].elementsEqual("TZif".utf8)
      else { return nil }
      c = counts(header)
      timeSize = 8
    }
    let (isut, isstd, leap, timecnt, typecnt, charcnt) = (c[0], c[1], c[2], c[3], c[4], c[5])
    var p = header + 44
    let end =
      p + timecnt * (timeSize + 1) + typecnt * 6 + charcnt + leap * (timeSize + 4) + isstd + isut
    guard typecnt > 0, bytes.count >= end else { return nil }
    transitions = (0..<timecnt).map { timeSize == 8 ? i64(p + 8 * $0) : u32(p + 4 * $0) }
    p += timecnt * timeSize
    transitionTypes = (0..<timecnt).map { Int(bytes[p + $0]) }
    p += timecnt
    let typeStart = p
    let chars = typeStart + typecnt * 6
    types = (0..<typecnt).map { i in
      let at = typeStart + 6 * i
      var nameEnd = chars + Int(bytes[at + 5])
      let nameStart = nameEnd
      while nameEnd < chars + charcnt && bytes[nameEnd] != 0 { nameEnd += 1 }
      return LocalType(
        offset: u32(at), isDST: bytes[at + 4] != 0,
        abbreviation: String(decoding: bytes[nameStart..<nameEnd], as: UTF8.self))
    }
    guard transitionTypes.allSatisfy({ $0 < typecnt }) else { return nil }
    var q = chars + charcnt
    leaps = (0..<leap).map { k in
      let at = q + k * (timeSize + 4)
      return Leap(
        transition: timeSize == 8 ? i64(at) : u32(at), correction: u32(at + timeSize))
    }
    q += leap * (timeSize + 4)
    for k in 0..<typecnt {
      if k < isstd { types[k].isStd = bytes[q + k] != 0 }
      if k < isut { types[k].isUT = bytes[q + isstd + k] != 0 }
    }
    self.name = name
    if timeSize == 8, end < bytes.count, bytes[end] == 0x0A,
      let close = bytes[(end + 1)...].firstIndex(of: 0x0A), close > end + 1
    {
      rule = PosixTZ(String(decoding: bytes[(end + 1)..<close], as: UTF8.self))
    }
  }

  /// A zone given only as a POSIX TZ string (`TZ=CET-1CEST,M3.5.0,M10.5.0/3`).
  public init?(posix text: String) {
    guard let rule = PosixTZ(text) else { return nil }
    self.name = text
    self.rule = rule
    self.types = [LocalType(offset: rule.stdOffset, isDST: false, abbreviation: rule.stdName)]
  }

  /// A POSIX TZ with a DST name but no rule (`AAA5BBB`), as glibc builds it: the user's names
  /// and offsets on the transitions of the rules file (`posixrules`, New York's), each shifted
  /// as `__tzfile_default()` shifts it; after its last transition, that file's own rule.
  ///
  /// glibc forgets a rule-less TZ once parsed (`old_tz = NULL`), so every `mktime` parses it
  /// again; `__tzfile_read` sets `rule_stdoff` from the file but leaves `rule_dstoff` (since
  /// glibc's fix of bug 29951, in Debian 12's 2.36) at what the previous parse set: the user's
  /// own DST offset. From the second parse on, which is what systemd's elapses see, a
  /// wall-clock transition out of daylight time is therefore not moved at all, and one out of
  /// standard time moves by the difference of the standard offsets.
  public init?(posix text: String, defaultRules file: ZoneRules) {
    guard let user = PosixTZ(text), let dstName = user.dstName, !user.hasRule,
      file.types.count >= 2
    else { return nil }
    // the file's standard offset: that of the last transition into standard time
    let ruleStd =
      file.transitions.indices.reversed().lazy.map { file.types[file.transitionTypes[$0]] }
      .first { !$0.isDST }?.offset ?? file.types[0].offset
    var wasDST = false
    transitions = file.transitions
    transitionTypes = file.transitionTypes
    // the first parse in a process: `rule_dstoff` is still 0
    var first = file.transitions
    for i in transitions.indices {
      let type = file.types[file.transitionTypes[i]]
      transitionTypes[i] = type.isDST ? 1 : 0
      if !type.isUT {  // UT transitions stay; wall-clock ones move with the user's offsets
        let outOfDST = wasDST && !type.isStd
        transitions[i] += outOfDST ? 0 : user.stdOffset - ruleStd
        first[i] += outOfDST ? user.dstOffset : user.stdOffset - ruleStd
      }
      wasDST = type.isDST
    }
    firstParseTransitions = first
    name = text
    types = [
      LocalType(offset: user.stdOffset, isDST: false, abbreviation: user.stdName),
      LocalType(offset: user.dstOffset, isDST: true, abbreviation: dstName),
    ]
    rule = file.rule
    leaps = file.leaps
  }

  /// glibc's leap second correction at `t` and how many leap seconds `t` hits (a `right/`
  /// zone: its time_t counts leap seconds, so localtime subtracts them and shows :60).
  func leapCorrection(at t: Int) -> (correction: Int, hit: Int) {
    guard var i = leaps.lastIndex(where: { $0.transition <= t }) else { return (0, 0) }
    let correction = leaps[i].correction
    var hit = 0
    if t == leaps[i].transition
      && ((i == 0 && leaps[i].correction > 0)
        || (i > 0 && leaps[i].correction > leaps[i - 1].correction))
    {
      hit = 1
      while i > 0 && leaps[i].transition == leaps[i - 1].transition + 1
        && leaps[i].correction == leaps[i - 1].correction + 1
      {
        hit += 1
        i -= 1
      }
    }
    return (correction, hit)
  }

  /// The local time type in effect at `t` (seconds since the epoch), as glibc's localtime.
  public func localType(at t: Int) -> LocalType {
    if transitions.isEmpty || t < transitions[0] {
      if transitions.isEmpty, let rule { return rule.localType(at: t) }
      return types.first { !$0.isDST } ?? types[0]
    }
    if t >= transitions[transitions.count - 1] {
      if let rule { return rule.localType(at: t) }
      return types[transitionTypes[transitions.count - 1]]
    }
    return types[transitionTypes[firstTransition(after: t) - 1]]
  }

  /// The index of the first transition after `t` (`transitions.count` when none is).
  private func firstTransition(after t: Int) -> Int {
    var lo = 0
    var hi = transitions.count
    while lo < hi {
      let mid = (lo + hi) / 2
      if transitions[mid] > t { hi = mid } else { lo = mid + 1 }
    }
    return lo
  }

  /// The local time type in effect all the way from `from` to `to` when no transition and no
  /// leap second falls between them; nil when one does.
  func steadyType(from: Int, to: Int) -> LocalType? {
    guard leaps.isEmpty else { return nil }
    if let last = transitions.last, from < last {
      // the first transition after `from` must come after `to`
      guard transitions[firstTransition(after: from)] > to else { return nil }
      return localType(at: from)
    }
    if let rule {
      let first = Day(ordinal: floorDiv(from, 86400)).year
      // the rule is read in the UTC year of each instant: a window across New Year may flip
      guard Day(ordinal: floorDiv(to, 86400)).year == first else { return nil }
      for change in rule.changes(year: first) where change > from && change <= to {
        return nil
      }
    }
    return localType(at: from)
  }

  /// glibc's `tzname[0]` and `tzname[1]` after `tzset()`: the latest standard and DST names.
  public var tzNames: (standard: String, daylight: String) {
    var names: [String?] = [nil, nil]
    for i in stride(from: transitions.count - 1, through: 0, by: -1) {
      let type = types[transitionTypes[i]]
      let k = type.isDST ? 1 : 0
      if names[k] == nil {
        names[k] = type.abbreviation
        if names[1 - k] != nil { break }
      }
    }
    if transitions.isEmpty, let rule { return (rule.stdName, rule.dstName ?? rule.stdName) }
    let standard = names[0] ?? types[0].abbreviation
    return (standard, names[1] ?? standard)
  }
}

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
        return n.isEmpty ? nil : n
      }
      let n = s.prefix { $0.isLetter }
      guard n.count >= 3 else { return nil }
      s = s.dropFirst(n.count)
      return String(n)
    }
    func time() -> Int? {  // [+-]hh[:mm[:ss]] in seconds
      var sign = 1
      if s.first == "+" || s.first == "-" {
        sign = s.first == "-" ? -1 : 1
        s = s.dropFirst()
      }
      var parts: [Int] = []
      while parts.count < 3 {
        let digits = s.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, let v = Int(digits) else { return parts.isEmpty ? nil : nil }
        parts.append(v)
        s = s.dropFirst(digits.count)
        if s.first == ":" { s = s.dropFirst() } else { break }
      }
      while parts.count < 3 { parts.append(0) }
      return sign * (parts[0] * 3600 + parts[1] * 60 + parts[2])
    }
    func date() -> DateRule? {
      if s.first == "J" {
        s = s.dropFirst()
        let d = s.prefix { $0.isNumber }
        s = s.dropFirst(d.count)
        return Int(d).map { .julianNoLeap($0) }
      }
      if s.first == "M" {
        s = s.dropFirst()
        var v: [Int] = []
        for i in 0..<3 {
          let d = s.prefix { $0.isNumber }
          guard let n = Int(d) else { return nil }
          v.append(n)
          s = s.dropFirst(d.count)
          if i < 2 {
            guard s.first == "." else { return nil }
            s = s.dropFirst()
          }
        }
        return .monthWeekDay(month: v[0], week: v[1], weekday: v[2])
      }
      let d = s.prefix { $0.isNumber }
      s = s.dropFirst(d.count)
      return Int(d).map { .zeroBased($0) }
    }
    guard let std = name(), let off = time() else { return nil }
    stdName = std
    stdOffset = -off
    dstOffset = stdOffset + 3600
    if s.isEmpty { return }
    guard let dst = name() else { return nil }
    dstName = dst
    if let first = s.first, first != "," {
      guard let o = time() else { return nil }
      dstOffset = -o
    }
    if s.isEmpty || s == "," {
      // no rule: glibc falls back to the US rules of POSIX (when it has no posixrules file)
      hasRule = false
      start = (.monthWeekDay(month: 3, week: 2, weekday: 0), 7200)
      end = (.monthWeekDay(month: 11, week: 1, weekday: 0), 7200)
      return
    }
    guard s.first == "," else { return nil }
    s = s.dropFirst()
    guard let a = date() else { return nil }
    var aTime = 7200
    if s.first == "/" {
      s = s.dropFirst()
      guard let t = time() else { return nil }
      aTime = t
    }
    guard s.first == "," else { return nil }
    s = s.dropFirst()
    guard let b = date() else { return nil }
    var bTime = 7200
    if s.first == "/" {
      s = s.dropFirst()
      guard let t = time() else { return nil }
      bTime = t
    }
    guard s.isEmpty else { return nil }
    start = (a, aTime)
    end = (b, bTime)
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
