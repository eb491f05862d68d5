/// The three lines of `nudge health brief`, from a report by documented rules (the README's
/// "The briefing"): readiness, the two largest deltas in words, one suggestion. The same
/// report gives the same words.
///
/// - Red when any: under 5 h asleep; HRV z ≤ −1.5; resting heart rate z ≥ 1.5; breathing
///   rate z ≥ 2; wrist temperature ≥ 1.0 °C over its mean.
/// - Amber when any: under 6 h 30 min asleep; efficiency under 80%; HRV z ≤ −0.75; resting
///   heart rate z ≥ 0.75; breathing rate z ≥ 1; wrist temperature ≥ 0.5 °C over.
/// - Green otherwise. No night: no level.
/// - The deltas: the signals with a z-score, by its size (largest first; a tie by the order
///   the JSON lists them).
public struct HealthBrief: Equatable, Sendable {
  /// Readiness as a traffic light.
  public enum Level: String, Sendable {
    case green, amber, red
  }

  public var level: Level?
  public var lines: [String]

  public init(_ report: HealthReport) {
    guard let night = report.night?.night else {
      level = nil
      lines = [
        "No night recorded for the morning of \(report.day).",
        "Import your watch's data: nudge health import FILE (or nudge health source add DIR).",
        "Suggestion: go to bed at your usual time tonight.",
      ]
      return
    }
    let z = { (name: String) in report[name]?.zScore30d }
    let delta = { (name: String) in report[name]?.deltaVs30d }
    let asleep = night.asleepMinutes
    var level = Level.green
    if asleep < 300 || (z("hrv") ?? 0) <= -1.5 || (z("resting_heart_rate") ?? 0) >= 1.5
      || (z("respiratory_rate") ?? 0) >= 2 || (delta("wrist_temperature") ?? 0) >= 1.0
    {
      level = .red
    } else if asleep < 390 || night.efficiency < 0.8 || (z("hrv") ?? 0) <= -0.75
      || (z("resting_heart_rate") ?? 0) >= 0.75 || (z("respiratory_rate") ?? 0) >= 1
      || (delta("wrist_temperature") ?? 0) >= 0.5
    {
      level = .amber
    }
    self.level = level
    let efficient = Int((night.efficiency * 100).rounded())
    let first =
      "Readiness: \(level.rawValue) — \(Self.duration(asleep)) asleep, \(efficient)% efficient."
    let ranked = report.signals.enumerated()
      .filter { $0.element.zScore30d != nil && $0.element.value != nil }
      .sorted { a, b in
        let x = abs(a.element.zScore30d!)
        let y = abs(b.element.zScore30d!)
        return x != y ? x > y : a.offset < b.offset
      }
      .prefix(2).map { Self.words($0.element) }
    let second =
      ranked.isEmpty
      ? "Not enough nights yet for a 30-day baseline (it needs 3)."
      : (ranked[0].prefix(1).uppercased() + ranked[0].dropFirst()
        + ranked.dropFirst().map { "; " + $0 }.joined()) + "."
    let third =
      switch level {
      case .red: "Suggestion: take it easy today — light training at most, and an early night."
      case .amber: "Suggestion: a moderate day; protect tonight's sleep."
      case .green: "Suggestion: you are recovered — a good day for something hard."
      }
    lines = [first, second, third]
  }

  /// "6 h 10 min".
  public static func duration(_ minutes: Double) -> String {
    let whole = Int(minutes.rounded())
    return whole >= 60 ? "\(whole / 60) h \(whole % 60) min" : "\(whole) min"
  }

  /// "HRV 38 ms, 14% under your 30-day mean".
  static func words(_ signal: HealthReport.Signal) -> String {
    let value = signal.value!
    let mean = signal.baseline30dMean!
    let delta = signal.deltaVs30d!
    let direction = delta < 0 ? "under" : "over"
    let shown: String
    switch signal.name {
    case "sleep_duration": shown = duration(value)
    case "wrist_temperature":
      return
        "wrist temperature \(delta < 0 ? "−" : "+")\(HealthJSON.format((abs(delta) * 10).rounded() / 10)) °C \(direction) your 30-day mean"
    case "respiratory_rate":
      shown = "\(HealthJSON.format((value * 10).rounded() / 10)) \(signal.unit)"
    default: shown = "\(Int(value.rounded())) \(signal.unit)"
    }
    let percent = mean != 0 ? Int((abs(delta) / abs(mean) * 100).rounded()) : 0
    return "\(signal.label) \(shown), \(percent)% \(direction) your 30-day mean"
  }
}
