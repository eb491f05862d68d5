/// The sleep plan's recommender: tonight's challenge, the "next best action", chosen by plain
/// rules over the last seven nights and explained in one line. Deterministic: the same nights
/// give the same challenge. No network, no model: the rules are the recommender.
public enum SleepCoach {
  /// One logged night: its bedtime and wake time (minutes after midnight) and how rested (1-5).
  public struct Night: Equatable, Sendable {
    public var bedtime: Int
    public var wake: Int
    public var rested: Int

    public init(bedtime: Int, wake: Int, rested: Int) {
      self.bedtime = bedtime
      self.wake = wake
      self.rested = rested
    }

    /// The bedtime on a scale that runs on past midnight (01:00 is 25:00), so an evening's
    /// bedtimes compare and average across midnight.
    public var lateBedtime: Int { bedtime < 12 * 60 ? bedtime + 24 * 60 : bedtime }
    /// Minutes asleep (wake after bedtime, across midnight).
    public var minutesAsleep: Int { (wake - bedtime + 24 * 60) % (24 * 60) }
  }

  /// A challenge picked for tonight, and the one line that says why.
  public struct Pick: Equatable, Sendable {
    public var challenge: PlanChallenge
    public var reason: String

    /// `challenge` with its `{bedtime}` filled for `nights`.
    public init(challenge: PlanChallenge, reason: String, nights: [Night] = []) {
      self.challenge = SleepCoach.filled(challenge, bedtime: SleepCoach.suggestedBedtime(nights))
      self.reason = reason
    }
  }

  /// What the nights call for, most pressing first: a category and the reason in words.
  static func needs(_ nights: [Night]) -> [(category: String, reason: String)] {
    guard !nights.isEmpty else {
      return [("routine", "no nights logged yet: a small routine is the place to start")]
    }
    var needs: [(category: String, reason: String)] = []
    let late = nights.map(\.lateBedtime)
    let spread = late.max()! - late.min()!
    if nights.count >= 3 && spread > 60 {
      needs.append(("consistency", "your bedtime varied by \(duration(spread)) this week"))
    }
    let asleep = nights.map(\.minutesAsleep).reduce(0, +) / nights.count
    let lateAverage = late.reduce(0, +) / late.count
    if lateAverage >= 24 * 60 {
      needs.append(("screens", "your bedtime averaged \(clock(lateAverage)) this week"))
    }
    let rested = Double(nights.map(\.rested).reduce(0, +)) / Double(nights.count)
    if rested < 3 {
      needs.append(
        ("caffeine-alcohol", "you woke rested \(oneDecimal(rested)) out of 5 on average this week"))
    }
    if asleep < 7 * 60 {
      needs.append(("routine", "you slept \(duration(asleep)) a night on average this week"))
    }
    let wakes = nights.map(\.wake)
    if nights.count >= 3 && wakes.max()! - wakes.min()! > 60 {
      needs.append(
        ("light-temperature", "your wake time varied by \(duration(wakes.max()! - wakes.min()!))"))
    }
    needs.append(("wind-down", "a steady week: keep the evening calm"))
    return needs
  }

  /// Tonight's challenge from `catalogue` for the last `nights` (at most the last seven are
  /// read), never one of `declined` (asked for another) and not `yesterday`'s when another
  /// will do. Nil only when every challenge is declined.
  public static func pick(
    nights: [Night], catalogue: [PlanChallenge], yesterday: String? = nil,
    declined: Set<String> = []
  ) -> Pick? {
    let recent = Array(nights.suffix(7))
    let bedtime = suggestedBedtime(recent)
    for need in needs(recent) {
      let candidates = catalogue.filter {
        $0.category == need.category && !declined.contains($0.id)
      }
      if let challenge = candidates.first(where: { $0.id != yesterday }) ?? candidates.first {
        return Pick(challenge: filled(challenge, bedtime: bedtime), reason: need.reason)
      }
    }
    // every challenge of every need declined: any other, in catalogue order
    return catalogue.first { !declined.contains($0.id) }.map {
      Pick(challenge: filled($0, bedtime: bedtime), reason: "you asked for another")
    }
  }

  /// The bedtime the nights suggest: their middle bedtime, on a quarter hour (23:00 with no
  /// nights).
  public static func suggestedBedtime(_ nights: [Night]) -> String {
    guard !nights.isEmpty else { return "23:00" }
    let sorted = nights.map(\.lateBedtime).sorted()
    let middle = sorted[sorted.count / 2]
    return clock((middle + 7) / 15 * 15)
  }

  /// The last night of the first seven nights in a row whose bedtimes (across midnight) lie
  /// within 30 minutes of each other; nil when there is none.
  public static func firstSteadyWeek(_ bedtimes: [Day: Int]) -> Day? {
    let nights = bedtimes.keys.sorted()
    for last in nights {
      let week = (0..<7).map { last.adding(days: -$0) }
      let late = week.compactMap { bedtimes[$0] }.map { $0 < 12 * 60 ? $0 + 24 * 60 : $0 }
      if late.count == 7, late.max()! - late.min()! <= 30 { return last }
    }
    return nil
  }

  /// The pick as the one line a person reads: "Same bedtime tonight: lights out by 23:00 —
  /// your bedtime varied by 1 h 40 this week".
  public static func line(_ pick: Pick) -> String {
    "\(pick.challenge.name) — \(pick.reason)"
  }

  static func filled(_ challenge: PlanChallenge, bedtime: String) -> PlanChallenge {
    var filled = challenge
    filled.name = challenge.name.replacing("{bedtime}", with: bedtime)
    filled.about = challenge.about.replacing("{bedtime}", with: bedtime)
    return filled
  }

  public static func duration(_ minutes: Int) -> String {
    let (h, m) = (minutes / 60, minutes % 60)
    if h == 0 { return "\(m) min" }
    return m == 0 ? "\(h) h" : "\(h) h \(m < 10 ? "0" : "")\(m)"
  }

  static func clock(_ minutes: Int) -> String {
    let day = (minutes % (24 * 60) + 24 * 60) % (24 * 60)
    let (h, m) = (day / 60, day % 60)
    return "\(h < 10 ? "0" : "")\(h):\(m < 10 ? "0" : "")\(m)"
  }

  private static func oneDecimal(_ value: Double) -> String {
    let tenths = Int((value * 10).rounded())
    return "\(tenths / 10).\(tenths % 10)"
  }
}
