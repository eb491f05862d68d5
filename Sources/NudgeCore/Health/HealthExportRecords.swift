/// What Nudge keeps of Apple Health's records: the kinds a morning needs, each sample with its
/// span, its value in one unit, and where it came from.
public struct HealthSample: Equatable, Sendable {
  /// The quantity or category a sample measures, by HealthKit's identifiers.
  public enum Kind: String, CaseIterable, Sendable {
    case sleep = "HKCategoryTypeIdentifierSleepAnalysis"
    case heartRateVariability = "HKQuantityTypeIdentifierHeartRateVariabilitySDNN"
    case restingHeartRate = "HKQuantityTypeIdentifierRestingHeartRate"
    case heartRate = "HKQuantityTypeIdentifierHeartRate"
    case respiratoryRate = "HKQuantityTypeIdentifierRespiratoryRate"
    case wristTemperature = "HKQuantityTypeIdentifierAppleSleepingWristTemperature"
    case steps = "HKQuantityTypeIdentifierStepCount"
    case activeEnergy = "HKQuantityTypeIdentifierActiveEnergyBurned"
    case bodyMass = "HKQuantityTypeIdentifierBodyMass"

    /// The values a record can hold, in the kept unit; outside them it is skipped (a negative
    /// step count, a body of a tonne, `1e300`): the signals' own plausible ranges are narrower
    /// and cap, these refuse what no measurement is.
    var possible: ClosedRange<Double> {
      switch self {
      case .sleep: 0...0
      case .heartRateVariability: 0...10_000
      case .restingHeartRate, .heartRate, .respiratoryRate: 0...1_000
      case .wristTemperature: -50...100
      case .steps: 0...1_000_000
      case .activeEnergy: 0...100_000
      case .bodyMass: 0...1_000
      }
    }

    /// The units a value is read in, each with what makes it the kept unit (ms, count/min,
    /// degC, count, kcal, kg); a unit not listed is skipped, counted.
    var units: [String: (Double) -> Double] {
      switch self {
      case .sleep: ["": { $0 }]
      case .heartRateVariability: ["ms": { $0 }]
      case .restingHeartRate, .heartRate, .respiratoryRate: ["count/min": { $0 }]
      case .wristTemperature: ["degC": { $0 }, "degF": { ($0 - 32) * 5 / 9 }]
      case .steps: ["count": { $0 }]
      case .activeEnergy: ["kcal": { $0 }, "Cal": { $0 }, "kJ": { $0 / 4.184 }]
      case .bodyMass: ["kg": { $0 }, "lb": { $0 * 0.45359237 }, "g": { $0 / 1000 }]
      }
    }
  }

  /// A sleep sample's stage, as HealthKit names them.
  public enum SleepStage: String, CaseIterable, Sendable {
    case inBed = "HKCategoryValueSleepAnalysisInBed"
    case asleepUnspecified = "HKCategoryValueSleepAnalysisAsleepUnspecified"
    case awake = "HKCategoryValueSleepAnalysisAwake"
    case core = "HKCategoryValueSleepAnalysisAsleepCore"
    case deep = "HKCategoryValueSleepAnalysisAsleepDeep"
    case rem = "HKCategoryValueSleepAnalysisAsleepREM"

    /// A stage by its value in an export; before iOS 16, `…Asleep` meant asleep, unspecified.
    init?(exported: String) {
      if exported == "HKCategoryValueSleepAnalysisAsleep" {
        self = .asleepUnspecified
      } else {
        self.init(rawValue: exported)
      }
    }
  }

  public var kind: Kind
  /// A sleep sample's stage; nil for a quantity.
  public var stage: SleepStage?
  /// In the kind's kept unit (0 for sleep: its span is the measure).
  public var value: Double
  public var start: Instant
  public var end: Instant
  /// The UTC offset the export wrote its start with, in seconds.
  public var offset: Int
  /// The app or device that wrote it (`sourceName`), as written.
  public var source: String
  /// The device's description (`device`), when the export has one.
  public var device: String?

  public init(
    kind: Kind, stage: SleepStage?, value: Double, start: Instant, end: Instant, offset: Int,
    source: String, device: String?
  ) {
    self.kind = kind
    self.stage = stage
    self.value = value
    self.start = start
    self.end = end
    self.offset = offset
    self.source = source
    self.device = device
  }
}

/// A workout, with what its statistics say where present.
public struct HealthWorkout: Equatable, Sendable {
  /// `HKWorkoutActivityTypeRunning` and the like, as written.
  public var type: String
  public var start: Instant
  public var end: Instant
  public var offset: Int
  public var durationMinutes: Double?
  public var energyKcal: Double?
  public var averageHeartRate: Double?
  public var maximumHeartRate: Double?
  public var source: String

  public init(
    type: String, start: Instant, end: Instant, offset: Int, durationMinutes: Double?,
    energyKcal: Double?, averageHeartRate: Double?, maximumHeartRate: Double?, source: String
  ) {
    self.type = type
    self.start = start
    self.end = end
    self.offset = offset
    self.durationMinutes = durationMinutes
    self.energyKcal = energyKcal
    self.averageHeartRate = averageHeartRate
    self.maximumHeartRate = maximumHeartRate
    self.source = source
  }
}

/// A day's Activity rings as the export summarises them.
public struct HealthActivitySummary: Equatable, Sendable {
  public var day: Day
  public var activeEnergyKcal: Double?
}

/// Why a record of a kind Nudge reads was left out; each counted, and said once.
public enum HealthSkip: String, CaseIterable, Sendable {
  case dateNotReadable = "a date that does not read"
  case valueNotANumber = "a value that is not a number"
  case unknownUnit = "a unit Nudge does not know"
  case unknownSleepValue = "a sleep value Nudge does not know"
  case endBeforeStart = "an end before its start"
  case valueOutOfRange = "a value no body or day can have"
  case spanTooLong = "a span longer than a day"
}

/// Turns the scanner's tags into what Nudge keeps: the records of the kinds it reads, workouts
/// with their statistics, activity summaries, and the count of each kind skipped and why.
/// Records of any other kind (routes, clinical records, the hundred other quantities) are
/// passed over unread.
public struct HealthExportRecords {
  public private(set) var samples: [HealthSample] = []
  public private(set) var workouts: [HealthWorkout] = []
  public private(set) var summaries: [HealthActivitySummary] = []
  public private(set) var skipped: [HealthSkip: Int] = [:]
  /// The elements whose tags the scanner hands over.
  public static let elements: Set<String> = [
    "HealthData", "Record", "Workout", "WorkoutStatistics", "ActivitySummary",
  ]
  /// Whether the document is Apple Health's (its root, `<HealthData>`, was read).
  public private(set) var isHealthExport = false
  /// The attributes read of those elements (the scanner makes no string of the others).
  public static let attributes: Set<String> = [
    "type", "unit", "value", "sourceName", "device", "startDate", "endDate",
    "workoutActivityType", "duration", "durationUnit", "totalEnergyBurned",
    "totalEnergyBurnedUnit", "sum", "average", "maximum", "dateComponents",
    "activeEnergyBurned", "activeEnergyBurnedUnit",
  ]
  /// Heart-rate records counted, not kept: a workout's come from its statistics, and no rule
  /// reads the rest (they are most of an export).
  public private(set) var heartRateRecords = 0
  private var workout: HealthWorkout? = nil

  public init() {}

  /// Hands over what was read so far and forgets it (an import drains after each chunk, so
  /// memory holds a chunk's records, not a file's).
  public mutating func drain() -> (
    samples: [HealthSample], workouts: [HealthWorkout], summaries: [HealthActivitySummary]
  ) {
    defer {
      samples.removeAll(keepingCapacity: true)
      workouts.removeAll(keepingCapacity: true)
      summaries.removeAll(keepingCapacity: true)
    }
    return (samples, workouts, summaries)
  }

  /// Takes one event of the scanner.
  public mutating func take(_ event: HealthXMLScanner.Event) {
    switch event {
    case .start(let tag):
      switch tag.name {
      case "Record": record(tag)
      case "Workout": workout = workoutStart(tag)
      case "WorkoutStatistics": statistics(tag)
      case "ActivitySummary": summary(tag)
      case "HealthData": isHealthExport = true
      default: break
      }
    case .end(let name, _):
      if name == "Workout", let done = workout {
        workouts.append(done)
        workout = nil
      }
    }
  }

  private mutating func skip(_ why: HealthSkip) { skipped[why, default: 0] += 1 }

  /// A finite number written as `text`; nil for anything else (`nan`, `inf`, words).
  static func number(_ text: String?) -> Double? {
    guard let text, let value = Double(text), value.isFinite else { return nil }
    return value
  }

  private mutating func record(_ tag: HealthXMLScanner.Tag) {
    guard let type = tag["type"], let kind = HealthSample.Kind(rawValue: type) else { return }
    if kind == .heartRate {
      heartRateRecords += 1
      return
    }
    guard let start = tag["startDate"].flatMap(HealthDate.parse),
      let end = tag["endDate"].flatMap(HealthDate.parse)
    else { return skip(.dateNotReadable) }
    guard end.instant >= start.instant else { return skip(.endBeforeStart) }
    guard end.instant.seconds - start.instant.seconds <= 86400 else { return skip(.spanTooLong) }
    var stage: HealthSample.SleepStage? = nil
    var value = 0.0
    if kind == .sleep {
      guard let read = tag["value"].flatMap(HealthSample.SleepStage.init(exported:)) else {
        return skip(.unknownSleepValue)
      }
      stage = read
    } else {
      guard let number = Self.number(tag["value"]) else { return skip(.valueNotANumber) }
      guard let convert = kind.units[tag["unit"] ?? ""] else { return skip(.unknownUnit) }
      value = convert(number)
      guard kind.possible.contains(value) else { return skip(.valueOutOfRange) }
    }
    samples.append(
      HealthSample(
        kind: kind, stage: stage, value: value, start: start.instant, end: end.instant,
        offset: start.offset, source: tag["sourceName"] ?? "", device: tag["device"]))
  }

  private mutating func workoutStart(_ tag: HealthXMLScanner.Tag) -> HealthWorkout? {
    guard let start = tag["startDate"].flatMap(HealthDate.parse),
      let end = tag["endDate"].flatMap(HealthDate.parse)
    else {
      skip(.dateNotReadable)
      return nil
    }
    guard end.instant >= start.instant else {
      skip(.endBeforeStart)
      return nil
    }
    // a duration in a unit not known is no duration
    let perMinute: Double? =
      switch tag["durationUnit"] ?? "min" {
      case "min": 1
      case "s", "sec": 1 / 60
      case "hr", "h": 60
      default: nil
      }
    // a number no workout has is no number (a week's length, a year's energy, a heart of 300)
    let minutes = Self.number(tag["duration"]).flatMap { value in perMinute.map { value * $0 } }
      .flatMap { (0...10_080).contains($0) ? $0 : nil }
    // before iOS 16 the energy was on the workout itself
    let energy = Self.number(tag["totalEnergyBurned"]).flatMap { value in
      HealthSample.Kind.activeEnergy.units[tag["totalEnergyBurnedUnit"] ?? "kcal"].map { $0(value) }
    }
    return HealthWorkout(
      type: tag["workoutActivityType"] ?? "", start: start.instant, end: end.instant,
      offset: start.offset, durationMinutes: minutes,
      energyKcal: energy.flatMap { (0...100_000).contains($0) ? $0 : nil }, averageHeartRate: nil,
      maximumHeartRate: nil, source: tag["sourceName"] ?? "")
  }

  private mutating func statistics(_ tag: HealthXMLScanner.Tag) {
    guard workout != nil, let type = tag["type"] else { return }
    switch type {
    case HealthSample.Kind.activeEnergy.rawValue:
      if let sum = Self.number(tag["sum"]),
        let convert = HealthSample.Kind.activeEnergy.units[tag["unit"] ?? ""]
      {
        workout?.energyKcal = (0...100_000).contains(convert(sum)) ? convert(sum) : nil
      }
    case HealthSample.Kind.heartRate.rawValue:
      workout?.averageHeartRate = Self.number(tag["average"]).flatMap {
        (0...300).contains($0) ? $0 : nil
      }
      workout?.maximumHeartRate = Self.number(tag["maximum"]).flatMap {
        (0...300).contains($0) ? $0 : nil
      }
    default: break
    }
  }

  private mutating func summary(_ tag: HealthXMLScanner.Tag) {
    guard let dayText = tag["dateComponents"], let day = Day(dayText) else {
      return skip(.dateNotReadable)
    }
    let energy = Self.number(tag["activeEnergyBurned"]).flatMap { value in
      HealthSample.Kind.activeEnergy.units[tag["activeEnergyBurnedUnit"] ?? "kcal"].map {
        $0(value)
      }
    }
    summaries.append(HealthActivitySummary(day: day, activeEnergyKcal: energy))
  }
}

/// The dates Apple Health writes: `2022-11-12 23:10:05 -0800`.
public enum HealthDate {
  /// The instant and the offset (seconds) it was written with; nil for anything else.
  public static func parse(_ text: String) -> (instant: Instant, offset: Int)? {
    var text = text
    return text.withUTF8 { chars -> (Instant, Int)? in
      func number(_ from: Int, _ count: Int) -> Int? { InstantFormat.digits(chars, from, count) }
      guard chars.count == 25, let y = number(0, 4), chars[4] == 45, let mo = number(5, 2),
        chars[7] == 45, let d = number(8, 2), chars[10] == 32, let h = number(11, 2),
        chars[13] == 58, let mi = number(14, 2), chars[16] == 58, let s = number(17, 2),
        chars[19] == 32, chars[20] == 43 || chars[20] == 45, let oh = number(21, 2),
        let om = number(23, 2), (1...12).contains(mo), d >= 1,
        d <= Day.daysIn(month: mo, year: y), h < 24, mi < 60, s < 60, oh < 24, om < 60,
        (1900...9998).contains(y)
      else { return nil }
      let offset = (chars[20] == 45 ? -1 : 1) * (oh * 3600 + om * 60)
      let days = Day(year: y, month: mo, day: d).ordinal
      return (Instant(seconds: days * 86400 + h * 3600 + mi * 60 + s - offset), offset)
    }
  }
}
