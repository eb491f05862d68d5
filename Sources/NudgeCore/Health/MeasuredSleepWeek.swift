/// A week of nights as a watch measured them, for `week` beside the sleep plan's: how many,
/// the average sleep, efficiency and stages, and whose.
public struct MeasuredSleepWeek: Encodable, Equatable, Sendable {
  /// `watch` and the sources read, by name.
  public var source: String
  public var nights: Int
  public var averageSleepMinutes: Double
  public var averageEfficiency: Double
  /// Average minutes a night of each asleep stage, by HealthKit's names (those measured).
  public var averageStageMinutes: [String: Double]

  /// From the week's measured nights; nil when there is none.
  public init?(_ nights: [HealthNight]) {
    guard !nights.isEmpty else { return nil }
    let count = Double(nights.count)
    self.nights = nights.count
    let sources = Set(nights.map(\.source)).sorted {
      Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8))
    }
    source = "watch: " + sources.joined(separator: ", ")
    averageSleepMinutes = nights.map(\.asleepMinutes).reduce(0, +) / count
    averageEfficiency = nights.map(\.efficiency).reduce(0, +) / count
    var stages: [String: Double] = [:]
    for stage in [HealthSample.SleepStage.core, .deep, .rem] {
      let minutes = nights.compactMap { $0.stageMinutes[stage] }
      if !minutes.isEmpty { stages[stage.rawValue] = minutes.reduce(0, +) / count }
    }
    averageStageMinutes = stages
  }

  /// "Measured: 7 h 2 min a night over 6 nights · 93% efficient · deep 1 h 20 min · REM 1 h 35
  /// min (watch: Sam's Apple Watch)".
  public var line: String {
    var parts = [
      "Measured: \(HealthBrief.duration(averageSleepMinutes)) a night over \(nights) night\(nights == 1 ? "" : "s")",
      "\(Int((averageEfficiency * 100).rounded()))% efficient",
    ]
    for (stage, name) in [(HealthSample.SleepStage.deep, "deep"), (.rem, "REM")] {
      if let minutes = averageStageMinutes[stage.rawValue] {
        parts.append("\(name) \(HealthBrief.duration(minutes))")
      }
    }
    return parts.joined(separator: " · ") + " (\(source))"
  }
}
