/// Version 1 of `nudge health --json` (schema: schemas/health-report.v1.schema.json): keys sorted,
/// two-space indentation, every number written one way (at most three decimals, rounded half
/// away from zero, no exponent, no `-0`), times in ISO 8601 with the offset they were
/// recorded in. The same report gives the same bytes.
public enum HealthJSON {
  /// A JSON value, its object keys sorted when written.
  public indirect enum Value: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([Value])
    case object([String: Value])
  }

  /// What `meta` says besides the report: when, in which zone, by which Nudge.
  public struct Meta: Sendable {
    public var generatedAt: Instant
    public var zone: String
    public var offset: Int
    public var nudgeVersion: String

    public init(generatedAt: Instant, zone: String, offset: Int, nudgeVersion: String) {
      self.generatedAt = generatedAt
      self.zone = zone
      self.offset = offset
      self.nudgeVersion = nudgeVersion
    }
  }

  /// The report as version 1's value.
  public static func value(_ report: HealthReport, meta: Meta) -> Value {
    let brief = HealthBrief(report)
    var signals: [String: Value] = [:]
    for signal in report.signals {
      signals[signal.name] = .object([
        "unit": .string(signal.unit), "value": number(signal.value),
        "sample_count": .number(Double(signal.sampleCount)),
        "baseline_7d_ema": number(signal.baseline7dEma),
        "baseline_30d_mean": number(signal.baseline30dMean),
        "baseline_30d_std": number(signal.baseline30dStd),
        "delta_vs_30d": number(signal.deltaVs30d), "z_score_30d": number(signal.zScore30d),
        "source": signal.source.map(Value.string) ?? .null,
        "quality": .array(signal.quality.map(Value.string)),
      ])
    }
    let night = report.night?.night
    var sleep: Value = .null
    if let night {
      var stages: [String: Value] = [:]
      for stage in HealthSample.SleepStage.allCases {
        // a stage the source does not tell apart (a band's REM) is null, never 0
        stages[stage.rawValue] = number(night.stageMinutes[stage])
      }
      sleep = .object([
        "source": .string(night.source),
        "sleep_start": .string(time(night.sleepStart, offset: night.sleepStartOffset)),
        "wake": .string(time(night.wake, offset: night.wakeOffset)),
        "asleep_minutes": .number(night.asleepMinutes),
        "in_bed_minutes": .number(night.inBedMinutes),
        "efficiency": .number(night.efficiency), "stages_minutes": .object(stages),
      ])
    }
    let workouts: [Value] = report.workouts.map { workout in
      .object([
        "type": .string(workout.type),
        "start": .string(time(workout.start, offset: workout.offset)),
        "end": .string(time(workout.end, offset: workout.offset)),
        "duration_minutes": number(workout.durationMinutes),
        "energy_kcal": number(workout.energyKcal),
        "average_heart_rate": number(workout.averageHeartRate),
        "maximum_heart_rate": number(workout.maximumHeartRate),
        "source": .string(workout.source),
      ])
    }
    return .object([
      "version": .number(Double(HealthReport.version)),
      "meta": .object([
        "generated_at": .string(time(meta.generatedAt, offset: 0)),
        "zone": .string(meta.zone), "utc_offset": .string(offsetText(meta.offset)),
        "nudge_version": .string(meta.nudgeVersion),
      ]),
      "windows": .object([
        "day": .string(report.day.description),
        "activity_day": .string(report.day.adding(days: -1).description),
        "night_start": night.map { .string(time($0.sleepStart, offset: $0.sleepStartOffset)) }
          ?? .null,
        "night_end": night.map { .string(time($0.wake, offset: $0.wakeOffset)) } ?? .null,
      ]),
      "readiness": brief.level.map { .string($0.rawValue) } ?? .null,
      "readiness_signals": .object(signals),
      "activity": .object([
        "steps": number(report.activity?.steps),
        "active_energy_kcal": number(report.activity?.activeEnergyKcal),
        "activity_summary_kcal": number(report.activity?.summaryActiveEnergyKcal),
        "body_mass_kg": number(report.activity?.bodyMassKg),
        "workouts": .array(workouts),
      ]),
      "sleep": sleep,
      "flags": .array(report.flags.map(Value.string)),
    ])
  }

  static func number(_ value: Double?) -> Value { value.map(Value.number) ?? .null }

  /// `2026-11-28T23:10:05+00:00`.
  public static func time(_ instant: Instant, offset: Int) -> String {
    let local = instant.seconds + offset
    let day = Day(ordinal: floorDiv(local, 86400))
    let second = local - day.ordinal * 86400
    func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
    return "\(day)T\(two(second / 3600)):\(two(second / 60 % 60)):\(two(second % 60))"
      + offsetText(offset)
  }

  /// `23:10`: the clock reading of `instant` at `offset`.
  public static func clock(_ instant: Instant, offset: Int) -> String {
    String(time(instant, offset: offset).dropFirst(11).prefix(5))
  }

  static func offsetText(_ offset: Int) -> String {
    let magnitude = abs(offset)
    func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
    return (offset < 0 ? "-" : "+") + two(magnitude / 3600) + ":" + two(magnitude / 60 % 60)
  }

  /// A number as version 1 writes every number.
  public static func format(_ value: Double) -> String {
    guard value.isFinite else { return "null" }
    let scaled = (abs(value) * 1000).rounded(.toNearestOrAwayFromZero)
    guard scaled < 9e15 else { return value < 0 ? "-9000000000000" : "9000000000000" }
    let thousandths = Int(scaled)
    if thousandths == 0 { return "0" }
    var text = (value < 0 ? "-" : "") + String(thousandths / 1000)
    var fraction = thousandths % 1000
    if fraction > 0 {
      var digits = String(fraction)
      digits = String(repeating: "0", count: 3 - digits.count) + digits
      while digits.hasSuffix("0") { digits.removeLast() }
      text += "." + digits
      fraction = 0
    }
    return text
  }

  /// The value's text, keys sorted by their bytes, two-space indentation.
  public static func text(_ value: Value, indent: String = "") -> String {
    let inner = indent + "  "
    switch value {
    case .null: return "null"
    case .bool(let b): return b ? "true" : "false"
    case .number(let n): return format(n)
    case .string(let s):
      var bytes: [UInt8] = []
      FlatJSON.appendString(s, to: &bytes, escapingSlashes: false)
      return String(decoding: bytes, as: UTF8.self)
    case .array(let items):
      if items.isEmpty { return "[]" }
      return "[\n" + items.map { inner + text($0, indent: inner) }.joined(separator: ",\n")
        + "\n" + indent + "]"
    case .object(let fields):
      if fields.isEmpty { return "{}" }
      let keys = fields.keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
      return "{\n"
        + keys.map { key in
          text(.string(key)) + ": " + text(fields[key]!, indent: inner)
        }.map { inner + $0 }.joined(separator: ",\n") + "\n" + indent + "}"
    }
  }
}
