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

  /// The zone's fields, shared by its copies until one of them changes (copy on write): the
  /// elapse loop and every formatted instant copy a zone, which was a retain of each of its
  /// arrays and texts and is now one.
  /// (No dynamic exclusivity checks: a zone's fields change only through a copy of its own,
  /// `ownFields()`, never while another access is under way; the checks were a fifth of an
  /// elapse.)
  private final class Fields: @unchecked Sendable {
    @exclusivity(unchecked) var name = ""
    @exclusivity(unchecked) var transitions: [Int] = []
    @exclusivity(unchecked) var transitionTypes: [Int] = []
    @exclusivity(unchecked) var types: [LocalType] = []
    @exclusivity(unchecked) var rule: PosixTZ? = nil
    @exclusivity(unchecked) var leaps: [Leap] = []
    @exclusivity(unchecked) var firstParseTransitions: [Int]? = nil

    init() {}

    init(copying other: Fields) {
      (name, transitions, transitionTypes, types) =
        (other.name, other.transitions, other.transitionTypes, other.types)
      (rule, leaps, firstParseTransitions) = (other.rule, other.leaps, other.firstParseTransitions)
    }
  }

  private var fields = Fields()

  /// The fields, this copy's own before it changes them.
  private mutating func ownFields() -> Fields {
    if !isKnownUniquelyReferenced(&fields) { fields = Fields(copying: fields) }
    return fields
  }

  public var name: String {
    get { fields.name }
    set { ownFields().name = newValue }
  }
  var transitions: [Int] {
    get { fields.transitions }
    _modify { yield &ownFields().transitions }
  }
  var transitionTypes: [Int] {
    get { fields.transitionTypes }
    _modify { yield &ownFields().transitionTypes }
  }
  var types: [LocalType] {
    get { fields.types }
    _modify { yield &ownFields().types }
  }
  var rule: PosixTZ? {
    get { fields.rule }
    _modify { yield &ownFields().rule }
  }
  var leaps: [Leap] {
    get { fields.leaps }
    _modify { yield &ownFields().leaps }
  }
  /// A rule-less POSIX TZ's transitions as glibc's first parse in a process places them
  /// (`rule_dstoff` still 0); nil for every other zone.
  var firstParseTransitions: [Int]? {
    get { fields.firstParseTransitions }
    _modify { yield &ownFields().firstParseTransitions }
  }

  public static func == (a: ZoneRules, b: ZoneRules) -> Bool {
    a.fields === b.fields
      || (a.name == b.name && a.transitions == b.transitions
        && a.transitionTypes == b.transitionTypes && a.types == b.types && a.rule == b.rule
        && a.leaps == b.leaps && a.firstParseTransitions == b.firstParseTransitions)
  }

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

extension ZoneRules {
  /// Whether the wall-clock time at `t` (seconds since the epoch) names another instant too:
  /// the repeated hour of a fall-back night, where 02:30 comes once in summer time and once in
  /// winter time.
  public func repeatsWallTime(at t: Int) -> Bool {
    let offset = localType(at: t).offset
    let wall = t + offset
    // the offsets in use around it (a change is hours away at most, and never twice a day)
    let nearby = Set([t - 86400, t - 10800, t + 10800, t + 86400].map { localType(at: $0).offset })
    for other in nearby where other != offset {
      let u = wall - other
      if u != t && localType(at: u).offset == other { return true }
    }
    return false
  }
}
