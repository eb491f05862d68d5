/// A morning as `nudge health` reports it: last night with its signals against their
/// baselines, the day's activity, the last day's workouts, and the flags that say what is
/// missing or doubtful. One rule set, stated in the README:
///
/// - Baselines of a signal on morning D read the nights of the 30 mornings before D (D itself
///   left out): the 7-day EMA (α = 0.25, the oldest night first and the seed); the 30-day mean
///   and standard deviation (n − 1) of at least 3 nights; `delta_vs_30d` = value − mean;
///   `z_score_30d` = delta / standard deviation when it is above 0.
/// - A signal with no sample in the night is null and flagged `missing_<signal>`; one with a
///   sample capped is flagged `outlier_<signal>` and its quality says `capped`.
public struct HealthReport: Equatable, Sendable {
  /// One signal on the morning, with its baselines.
  public struct Signal: Equatable, Sendable {
    public var name: String
    public var unit: String
    public var value: Double?
    public var sampleCount: Int
    public var baseline7dEma: Double?
    public var baseline30dMean: Double?
    public var baseline30dStd: Double?
    public var deltaVs30d: Double?
    public var zScore30d: Double?
    public var source: String?
    public var quality: [String]
    /// Whether higher is better (HRV, sleep), lower (heart and breathing rate), or neither.
    public var higherIsBetter: Bool?
    public var label: String
  }

  public static let version = 1
  public var day: Day
  public var night: HealthDigest.Night?
  public var signals: [Signal]
  public var activity: HealthDigest.ActivityDay?
  public var workouts: [HealthWorkout]
  public var flags: [String]

  /// The signal named `name`.
  public subscript(name: String) -> Signal? { signals.first { $0.name == name } }

  /// The report of morning `day` from the nights of the 30 mornings before it and itself,
  /// the activity of the day before it (the last whole day), and the workouts of the 24 hours
  /// before it woke.
  public init(
    day: Day, nights: [HealthDigest.Night], activity: HealthDigest.ActivityDay?,
    workouts: [HealthWorkout]
  ) {
    self.day = day
    let tonight = nights.first { $0.night.day == day }
    night = tonight
    self.activity = activity
    self.workouts = workouts
    let before = nights.filter { $0.night.day < day && $0.night.day >= day.adding(days: -30) }
      .sorted { $0.night.day < $1.night.day }
    var flags: [String] = []
    var signals: [Signal] = []
    for signal in HealthSignal.allCases {
      let reading = tonight?.signals[signal]
      var made = Self.signal(
        name: signal.rawValue, unit: signal.unit, value: reading?.value,
        history: before.compactMap { $0.signals[signal]?.value })
      made.sampleCount = reading?.sampleCount ?? 0
      made.source = reading?.source
      made.higherIsBetter = signal.higherIsBetter
      made.label = signal.label
      if reading == nil { flags.append("missing_" + signal.rawValue) }
      if let reading, reading.cappedCount > 0 {
        made.quality.append("capped")
        flags.append("outlier_" + signal.rawValue)
      }
      signals.append(made)
    }
    var sleep = Self.signal(
      name: "sleep_duration", unit: "min", value: tonight?.night.asleepMinutes,
      history: before.map(\.night.asleepMinutes))
    sleep.sampleCount = tonight == nil ? 0 : 1
    sleep.source = tonight?.night.source
    sleep.higherIsBetter = true
    sleep.label = "sleep"
    signals.append(sleep)
    if let tonight {
      let stages = tonight.night.stageMinutes
      if tonight.night.asleepMinutes < 180
        || (stages[.core] == nil && stages[.deep] == nil && stages[.rem] == nil)
      {
        flags.append("low_sleep_confidence")
      }
    } else {
      flags.append("missing_sleep")
    }
    if before.count < 3 {
      flags.append("no_baseline")
    } else if before.count < 7 {
      flags.append("short_baseline")
    }
    if activity?.steps == nil { flags.append("missing_steps") }
    if activity?.activeEnergyKcal == nil { flags.append("missing_active_energy") }
    if let summed = activity?.activeEnergyKcal, let summary = activity?.summaryActiveEnergyKcal,
      summary > 0, abs(summed - summary) / summary > 0.01
    {
      flags.append("activity_summary_mismatch")
    }
    self.signals = signals
    self.flags = flags.sorted()
  }

  /// A signal's value against the values of the nights before.
  static func signal(name: String, unit: String, value: Double?, history: [Double]) -> Signal {
    var ema: Double? = nil
    for past in history { ema = ema.map { $0 + 0.25 * (past - $0) } ?? past }
    var mean: Double? = nil
    var std: Double? = nil
    if history.count >= 3 {
      let m = history.reduce(0, +) / Double(history.count)
      mean = m
      std = (history.map { ($0 - m) * ($0 - m) }.reduce(0, +) / Double(history.count - 1))
        .squareRoot()
    }
    let delta = value.flatMap { v in mean.map { v - $0 } }
    let z = delta.flatMap { d in std.flatMap { $0 > 0 ? d / $0 : nil } }
    var quality: [String] = []
    if history.count < 3 {
      quality.append("no_baseline")
    } else if history.count < 7 {
      quality.append("short_baseline")
    }
    return Signal(
      name: name, unit: unit, value: value, sampleCount: 0, baseline7dEma: ema,
      baseline30dMean: mean, baseline30dStd: std, deltaVs30d: delta, zScore30d: z, source: nil,
      quality: quality, higherIsBetter: nil, label: name)
  }
}
