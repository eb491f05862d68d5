/// A recovery signal read inside a night's window, each with the kind it is read from, its
/// unit, and the range outside which a sample is capped (and the night flagged).
public enum HealthSignal: String, CaseIterable, Sendable, Codable {
  case hrv
  case restingHeartRate = "resting_heart_rate"
  case respiratoryRate = "respiratory_rate"
  case wristTemperature = "wrist_temperature"

  /// The samples it is read from.
  public var kind: HealthSample.Kind {
    switch self {
    case .hrv: .heartRateVariability
    case .restingHeartRate: .restingHeartRate
    case .respiratoryRate: .respiratoryRate
    case .wristTemperature: .wristTemperature
    }
  }

  /// The kept unit, as the JSON names it.
  public var unit: String {
    switch self {
    case .hrv: "ms"
    case .restingHeartRate: "bpm"
    case .respiratoryRate: "breaths/min"
    case .wristTemperature: "degC"
    }
  }

  /// A sample outside this range is capped to its nearer end.
  public var plausible: ClosedRange<Double> {
    switch self {
    case .hrv: 5...250
    case .restingHeartRate: 25...150
    case .respiratoryRate: 4...40
    case .wristTemperature: 30...42
    }
  }

  /// Whether a higher value is the better one (HRV); nil for a signal where either way is
  /// worse (wrist temperature).
  public var higherIsBetter: Bool? {
    switch self {
    case .hrv: true
    case .restingHeartRate, .respiratoryRate: false
    case .wristTemperature: nil
    }
  }

  /// How a person reads its name.
  public var label: String {
    switch self {
    case .hrv: "HRV"
    case .restingHeartRate: "resting heart rate"
    case .respiratoryRate: "breathing rate"
    case .wristTemperature: "wrist temperature"
    }
  }
}

/// One signal as a night read it: the time-weighted mean of its samples, how many, how many
/// were capped, and whose.
public struct HealthSignalReading: Equatable, Sendable {
  public var value: Double
  public var sampleCount: Int
  public var cappedCount: Int
  public var source: String

  public init(value: Double, sampleCount: Int, cappedCount: Int, source: String) {
    self.value = value
    self.sampleCount = sampleCount
    self.cappedCount = cappedCount
    self.source = source
  }

  /// The reading of `signal` inside `from...to`: of the samples of its kind that overlap the
  /// window (a sample without length: that lies in it), those of the first source in `order`
  /// that has any, each capped to the signal's range and weighted by its length (at least one
  /// second); nil when none.
  public static func read(
    _ signal: HealthSignal, from: Instant, to: Instant, samples: [HealthSample],
    order: [String]
  ) -> HealthSignalReading? {
    // overlapping: more than touching an edge; a sample without length lies within it
    let inside = samples.filter { sample in
      guard sample.kind == signal.kind else { return false }
      return sample.end > sample.start
        ? sample.start < to && sample.end > from : sample.start >= from && sample.start <= to
    }
    guard !inside.isEmpty else { return nil }
    let names = inside.map { Array($0.source.utf8) }
    let chosen =
      order.first { name in names.contains { $0.elementsEqual(name.utf8) } }
      ?? inside.map(\.source).min { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }!
    let taken = inside.filter { $0.source.utf8.elementsEqual(chosen.utf8) }
    var weighted = 0.0
    var weights = 0.0
    var capped = 0
    for sample in taken {
      let weight = max(1, Double(sample.end.microseconds - sample.start.microseconds) / 1e6)
      var value = sample.value
      if !signal.plausible.contains(value) {
        capped += 1
        value = min(max(value, signal.plausible.lowerBound), signal.plausible.upperBound)
      }
      weighted += value * weight
      weights += weight
    }
    return HealthSignalReading(
      value: weighted / weights, sampleCount: taken.count, cappedCount: capped, source: chosen)
  }
}
