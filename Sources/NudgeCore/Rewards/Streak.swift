/// Current and longest streak of done days, with freezes (DESIGN §2).
public struct StreakSummary: Equatable, Sendable {
  public var current: Int
  public var longest: Int
  public var todayDone: Bool
  /// Missed days a held freeze covered, oldest first.
  public var frozen: [Day]
  public var freezesHeld: Int
  /// Done days among the last 7 (today included).
  public var weekDone: Int

  public init(
    current: Int, longest: Int, todayDone: Bool, frozen: [Day], freezesHeld: Int, weekDone: Int
  ) {
    self.current = current
    self.longest = longest
    self.todayDone = todayDone
    self.frozen = frozen
    self.freezesHeld = freezesHeld
    self.weekDone = weekDone
  }
}

/// Evaluates streaks as a pure function of the set of done days and today.
public enum StreakRule {
  public static let daysPerFreeze = 7
  public static let maxFreezes = 2

  /// Walks every day from the first done day to today. Missed days break the streak unless
  /// today is the one (still pending) or held freezes cover every one of them (one freeze a
  /// day, consecutive days too); a frozen day keeps the streak alive without adding to its
  /// length. More missed days in a row than freezes held break it and leave the freezes held.
  /// `paused`: days off (`nudge pause`): a paused day not done neither extends nor breaks the
  /// streak and uses no freeze; one done counts as any done day.
  /// `after`: where the walk stood at the end of an earlier done day (before `today`): the walk
  /// goes on from the day after it, and the sets need hold only the days after it (and the
  /// last 7 days, for the week's count).
  public static func evaluate(
    doneDays: Set<Day>, today: Day, paused: Set<Day> = [], after checkpoint: StreakCheckpoint? = nil
  ) -> StreakSummary {
    let grid = DayGrid([doneDays, paused], through: today.ordinal)
    let last = today.ordinal
    let weekDone = (0..<7).filter { grid.contains(last - $0, 1) }.count
    let start = checkpoint.flatMap { $0.through < today ? $0 : nil }
    let walk = Walk(grid, mask: 1, paused: 2, through: last, from: start)
    return StreakSummary(
      current: walk.run, longest: walk.longest, todayDone: grid.contains(last, 1),
      frozen: walk.frozen, freezesHeld: walk.freezes, weekDone: weekDone)
  }

  /// Where the walk stands at the end of the latest done day on or before `bound` (going on
  /// from `previous` when given: the sets need hold only the days after it); `previous` when no
  /// done day came since or it stands on or after `bound`, nil when there is no done day.
  public static func checkpoint(
    doneDays: Set<Day>, paused: Set<Day> = [], through bound: Day,
    after previous: StreakCheckpoint? = nil
  ) -> StreakCheckpoint? {
    if let previous, previous.through >= bound { return previous }
    let from = previous
    let grid = DayGrid([doneDays, paused])
    // the days before `floor` are walked already (or hold nothing done)
    let floor = from?.through.ordinal ?? ((grid.first(1) ?? Int.max) - 1)
    var latest = bound.ordinal
    while latest > floor && !grid.contains(latest, 1) { latest -= 1 }
    guard latest > floor,
      let firstDone = from?.firstDone ?? grid.first(1).map(Day.init(ordinal:))
    else { return from }
    let walk = Walk(grid, mask: 1, paused: 2, through: latest, from: from)
    return StreakCheckpoint(
      through: Day(ordinal: latest), firstDone: firstDone,
      run: walk.run, longest: walk.longest, freezes: walk.freezes,
      sinceFreeze: walk.sinceFreeze, frozen: walk.frozen)
  }

  /// One pass over the days from the first done day through `last` (ordinals), where a day is
  /// done when its flags in `grid` share a bit with `mask`.
  struct Walk {
    var run = 0
    var longest = 0
    var freezes = 0
    var sinceFreeze = 0
    var frozen: [Day] = []

    /// `from`: the walk so far, through a done day before `last`; it goes on from the day
    /// after.
    init(
      _ grid: DayGrid, mask: UInt8, paused: UInt8 = 0, through last: Int,
      from checkpoint: StreakCheckpoint? = nil, onDone: (Int, Int) -> Void = { _, _ in }
    ) {
      var ordinal: Int
      if let checkpoint {
        (run, longest, freezes) = (checkpoint.run, checkpoint.longest, checkpoint.freezes)
        (sinceFreeze, frozen) = (checkpoint.sinceFreeze, checkpoint.frozen)
        ordinal = checkpoint.through.ordinal + 1
      } else {
        guard let first = grid.first(mask), first <= last else { return }
        ordinal = first
      }
      while ordinal <= last {
        if !grid.contains(ordinal, mask) && grid.contains(ordinal, paused) {
          ordinal += 1  // a day off: the streak waits
          continue
        }
        if grid.contains(ordinal, mask) {
          run += 1
          sinceFreeze += 1
          if sinceFreeze == daysPerFreeze {
            freezes = min(maxFreezes, freezes + 1)
            sinceFreeze = 0
          }
          longest = max(longest, run)
          onDone(ordinal, run)
        } else if ordinal != last {  // today pending never breaks a streak
          // the whole run of missed days before the next done day (or today); days off
          // inside it are passed over, not counted
          var end = ordinal
          while end + 1 < last && !grid.contains(end + 1, mask) { end += 1 }
          let missedDays = (ordinal...end).filter { !grid.contains($0, paused) }
          let missed = missedDays.count
          if run > 0 && missed <= freezes {
            // each held freeze covers one missed day, consecutive ones too (Duolingo's rule)
            freezes -= missed
            frozen += missedDays.map(Day.init(ordinal:))
          } else {
            run = 0  // more missed days than freezes: the streak breaks, the freezes stay held
          }
          sinceFreeze = 0
          ordinal = end + 1
          continue
        }
        ordinal += 1
      }
    }
  }
}

/// Where a streak's walk over the done days stood at the end of one done day: all it carries
/// to the days after (so they can be walked without reading the days before), stored by the
/// app and thrown away whenever a day on or before it changes.
public struct StreakCheckpoint: Codable, Equatable, Sendable {
  /// The version of the rules it was walked by: a stored one of other rules is walked again.
  public static let currentRules = 1
  /// How many days behind today the store keeps it: past the days a flow can still be filled
  /// in (7), so a save never throws it away.
  public static let lagDays = 8
  /// How far it falls behind that before the store moves it up (a week: one small write).
  public static let moveDays = 7

  public var rules = StreakCheckpoint.currentRules
  /// The done day the walk stood at the end of.
  public var through: Day
  /// The first done day of all (where the heatmap's "before first use" ends).
  public var firstDone: Day
  public var run: Int
  public var longest: Int
  public var freezes: Int
  /// Done days counted toward the next freeze.
  public var sinceFreeze: Int
  /// Every day a freeze covered so far, oldest first.
  public var frozen: [Day]

  public init(
    through: Day, firstDone: Day, run: Int, longest: Int, freezes: Int, sinceFreeze: Int,
    frozen: [Day]
  ) {
    self.through = through
    self.firstDone = firstDone
    self.run = run
    self.longest = longest
    self.freezes = freezes
    self.sinceFreeze = sinceFreeze
    self.frozen = frozen
  }
}

/// The days a streak is decided from, as the store read them: every done and paused day after
/// `checkpoint` (every one when there is none) and at least those of the days shown.
public struct StreakDays: Equatable, Sendable {
  public var done: Set<Day>
  public var paused: Set<Day>
  /// Where the walk stood before the days read (nil: the days read are all of them).
  public var checkpoint: StreakCheckpoint?

  public init(done: Set<Day>, paused: Set<Day>, checkpoint: StreakCheckpoint? = nil) {
    self.done = done
    self.paused = paused
    self.checkpoint = checkpoint
  }

  /// The first day anything was done, nil before the first.
  public var firstDone: Day? { checkpoint?.firstDone ?? done.min() }

  /// The streak as of `today`.
  public func summary(today: Day) -> StreakSummary {
    StreakRule.evaluate(doneDays: done, today: today, paused: paused, after: checkpoint)
  }
}

/// Sets of days as bit flags over one contiguous range of day ordinals, so the rules scan an
/// array once instead of hashing dates (bit `i` is set for the days of the `i`-th set).
struct DayGrid {
  private(set) var start = 0
  private(set) var flags: [UInt8] = []

  /// Up to 8 sets; `through` widens the range to include that ordinal.
  init(_ sets: [Set<Day>], through extra: Int? = nil) {
    let ordinals = sets.map { $0.map(\.ordinal) }
    var low = extra ?? Int.max
    var high = extra ?? Int.min
    for list in ordinals {
      for o in list {
        low = min(low, o)
        high = max(high, o)
      }
    }
    guard low <= high else { return }
    start = low
    flags = [UInt8](repeating: 0, count: high - low + 1)
    for (bit, list) in ordinals.enumerated() {
      for o in list { flags[o - low] |= 1 << UInt8(bit) }
    }
  }

  /// True when the day shares a bit with `mask`.
  @inline(__always)
  func contains(_ ordinal: Int, _ mask: UInt8) -> Bool {
    let i = ordinal - start
    return i >= 0 && i < flags.count && flags[i] & mask != 0
  }

  /// The earliest and latest day sharing a bit with `mask`.
  func first(_ mask: UInt8) -> Int? { flags.firstIndex { $0 & mask != 0 }.map { $0 + start } }
  func last(_ mask: UInt8) -> Int? { flags.lastIndex { $0 & mask != 0 }.map { $0 + start } }

  /// The last day of the first run of `length` consecutive days having every bit of `mask`.
  func firstRun(of length: Int, all mask: UInt8) -> Int? {
    var run = 0
    for (i, f) in flags.enumerated() {
      run = f & mask == mask ? run + 1 : 0
      if run >= length { return i + start }
    }
    return nil
  }

  /// The `n`-th day (1-based) sharing a bit with `mask`.
  func nth(_ n: Int, _ mask: UInt8) -> Int? {
    var seen = 0
    for (i, f) in flags.enumerated() where f & mask != 0 {
      seen += 1
      if seen == n { return i + start }
    }
    return nil
  }
}

/// Right after a streak breaks on days still within backfill: which missed days, filled in,
/// would save it.
public struct StreakRescue: Equatable, Sendable {
  /// The missed days to fill in, oldest first.
  public var days: [Day]
  /// The length of the streak that broke (what filling in the days saves).
  public var brokenLength: Int

  /// The missed days between the last done day and today, when all of them can still be filled
  /// in (at most `backfill` days back) and doing so restores a streak longer than those days
  /// alone; nil when there is nothing to save.
  /// `after`: where the walk stood before the days in the sets (`StreakRule.evaluate`).
  public static func days(
    doneDays: Set<Day>, frozen: Set<Day>, today: Day, paused: Set<Day> = [], backfill: Int = 7,
    after checkpoint: StreakCheckpoint? = nil
  ) -> StreakRescue? {
    let start = checkpoint.flatMap { $0.through < today ? $0 : nil }
    guard let last = (doneDays.filter({ $0 < today }) + [start?.through].compactMap { $0 }).max()
    else { return nil }
    let missed = (last.ordinal + 1..<today.ordinal).map(Day.init(ordinal:))
      .filter { !frozen.contains($0) && !paused.contains($0) }
    guard !missed.isEmpty, missed.allSatisfy({ $0 >= today.adding(days: -backfill) }) else {
      return nil
    }
    let now = StreakRule.evaluate(doneDays: doneDays, today: today, paused: paused, after: start)
    let filled = StreakRule.evaluate(
      doneDays: doneDays.union(missed), today: today, paused: paused, after: start)
    let todayPart = now.todayDone ? 1 : 0
    // worth saying for a streak of two days or more
    guard filled.current >= now.current + missed.count + 2 else { return nil }
    return StreakRescue(days: missed, brokenLength: filled.current - missed.count - todayPart)
  }

  /// The same, from the days as the store read them.
  public static func days(_ days: StreakDays, frozen: Set<Day>, today: Day, backfill: Int = 7)
    -> StreakRescue?
  {
    Self.days(
      doneDays: days.done, frozen: frozen, today: today, paused: days.paused, backfill: backfill,
      after: days.checkpoint)
  }
}

extension StreakCheckpoint {
  /// The checkpoint as the store keeps it (`JSONEncoder`'s object of its fields, in any
  /// order), read byte by byte: every command that shows the streak reads it, and
  /// `JSONDecoder`'s first use costs more than the rest of the read. Nil for any other
  /// spelling, which the store reads with `JSONDecoder`.
  public init?(storedJSON text: String) {
    var reader = JSONBytes(bytes: Array(text.utf8))
    var values: [String: Int] = [:]
    var days: [String: Day] = [:]
    var frozen: [Day]?
    do throws(JSONBytes.Unread) {
      try reader.expect(UInt8(ascii: "{"))
      repeat {
        let key = try reader.string()
        try reader.expect(UInt8(ascii: ":"))
        guard values[key] == nil, days[key] == nil, key != "frozen" || frozen == nil else {
          return nil
        }
        switch key {
        case "rules", "run", "longest", "freezes", "sinceFreeze":
          values[key] = try reader.number()
        case "through", "firstDone":
          guard let day = Day(try reader.string()) else { return nil }
          days[key] = day
        case "frozen":
          var list: [Day] = []
          try reader.expect(UInt8(ascii: "["))
          if !reader.take(UInt8(ascii: "]")) {
            repeat {
              guard let day = Day(try reader.string()) else { return nil }
              list.append(day)
            } while reader.take(UInt8(ascii: ","))
            try reader.expect(UInt8(ascii: "]"))
          }
          frozen = list
        default: return nil
        }
      } while reader.take(UInt8(ascii: ","))
      try reader.expect(UInt8(ascii: "}"))
    } catch {
      return nil
    }
    reader.skipSpaces()
    guard reader.at == reader.bytes.count, let rules = values["rules"],
      let through = days["through"], let firstDone = days["firstDone"], let run = values["run"],
      let longest = values["longest"], let freezes = values["freezes"],
      let sinceFreeze = values["sinceFreeze"], let frozen
    else { return nil }
    self.init(
      through: through, firstDone: firstDone, run: run, longest: longest, freezes: freezes,
      sinceFreeze: sinceFreeze, frozen: frozen)
    self.rules = rules
  }
}
