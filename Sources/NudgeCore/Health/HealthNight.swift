/// A night of sleep as Nudge reads it from a watch's samples: one rule set, the one the README
/// states ("Last night, from a watch"), and that a second implementation is held to
/// (scripts/nudgetest/health_rules.py).
///
/// - The night of a morning `day` holds the sleep samples that start from noon the day before
///   to noon that day, each by the clock its export wrote it with (the UTC offset in each of
///   its dates).
/// - Of several sources that wrote that night's sleep, one is read, the way the Health app does:
///   the first of `sources` that wrote any asleep segment (by default: a source whose name or
///   device names a Watch, then the others by name). Two apps never add up to a longer night.
/// - Asleep is core, deep, REM and asleep (unspecified); each stage's minutes, and the sleep
///   total, are the union of its segments (an overlap counted once). Time in bed is the union
///   of every segment of that source, in bed and awake too. Efficiency is sleep over time in
///   bed. The night starts with the first asleep segment and ends with the last.
/// - Lengths are instants apart, never clock readings: a night across a change of zone or of
///   summer time keeps its real length.
public struct HealthNight: Equatable, Sendable {
  /// The morning the night ends on.
  public var day: Day
  /// The source read.
  public var source: String
  /// The first asleep moment and the last.
  public var sleepStart: Instant
  public var wake: Instant
  /// The UTC offsets the export wrote the first and the last asleep segment's start with.
  public var sleepStartOffset: Int
  public var wakeOffset: Int
  public var asleepMinutes: Double
  public var inBedMinutes: Double
  /// Minutes of each stage, by HealthKit's names (in bed and awake too).
  public var stageMinutes: [HealthSample.SleepStage: Double]

  /// Sleep over time in bed, 0 to 1.
  public var efficiency: Double { inBedMinutes > 0 ? min(1, asleepMinutes / inBedMinutes) : 0 }

  /// The stages that count as asleep.
  public static let asleep: Set<HealthSample.SleepStage> = [.core, .deep, .rem, .asleepUnspecified]

  /// The default order of sources: one that names a Watch (in its name or its device) first,
  /// then the others by name.
  /// Names are compared and sorted by their bytes, as written: two names that only Unicode
  /// calls the same ("Café" composed and decomposed) are two sources.
  public static func defaultOrder(_ samples: [HealthSample]) -> [String] {
    var watch: [[UInt8]: String] = [:]
    var others: [[UInt8]: String] = [:]
    for sample in samples {
      let name = Array(sample.source.utf8)
      let isWatch =
        contains(name, "Watch") || sample.device.map { contains(Array($0.utf8), "Watch") } == true
      if isWatch {
        watch[name] = sample.source
        others[name] = nil
      } else if watch[name] == nil {
        others[name] = sample.source
      }
    }
    func byBytes(_ names: [[UInt8]: String]) -> [String] {
      names.keys.sorted { $0.lexicographicallyPrecedes($1) }.map { names[$0]! }
    }
    return byBytes(watch) + byBytes(others)
  }

  /// Whether `bytes` hold `word`'s bytes somewhere.
  private static func contains(_ bytes: [UInt8], _ word: StaticString) -> Bool {
    let needle = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
    guard bytes.count >= needle.count else { return false }
    return (0...(bytes.count - needle.count)).contains { at in
      bytes[at..<(at + needle.count)].elementsEqual(needle)
    }
  }

  /// Whether two sources' names are the same bytes.
  private static func same(_ a: String, _ b: String) -> Bool { a.utf8.elementsEqual(b.utf8) }

  /// The night that ends on the morning of `day`, from `samples` (any kinds: only sleep is
  /// read); nil when no source wrote an asleep segment that night.
  public static func night(
    endingOn day: Day, from samples: [HealthSample], sources order: [String]? = nil
  ) -> HealthNight? {
    let noon = 12 * 3600
    let from = day.adding(days: -1).ordinal * 86400 + noon
    let until = day.ordinal * 86400 + noon
    let sleep = samples.filter { sample in
      guard sample.kind == .sleep, sample.stage != nil else { return false }
      let local = sample.start.seconds + sample.offset
      return local >= from && local < until
    }
    let sources = order ?? defaultOrder(sleep)
    guard
      let source = sources.first(where: { source in
        sleep.contains { same($0.source, source) && asleep.contains($0.stage!) }
      })
    else { return nil }
    let read = sleep.filter { same($0.source, source) }
    let asleepSegments = read.filter { asleep.contains($0.stage!) }
    var stages: [HealthSample.SleepStage: Double] = [:]
    for stage in HealthSample.SleepStage.allCases {
      let minutes = unionMinutes(read.filter { $0.stage == stage })
      if minutes > 0 { stages[stage] = minutes }
    }
    let first = asleepSegments.min { $0.start < $1.start }!
    // the segment that ends last (of two that end together, the one that starts later)
    let last = asleepSegments.max { ($0.end, $0.start) < ($1.end, $1.start) }!
    return HealthNight(
      day: day, source: source, sleepStart: first.start, wake: last.end,
      sleepStartOffset: first.offset, wakeOffset: last.offset,
      asleepMinutes: unionMinutes(asleepSegments), inBedMinutes: unionMinutes(read),
      stageMinutes: stages)
  }

  /// The minutes the union of the samples' spans covers.
  static func unionMinutes(_ samples: [HealthSample]) -> Double {
    let spans = samples.map { ($0.start.microseconds, $0.end.microseconds) }.sorted { $0 < $1 }
    var total = 0
    var current: (Int, Int)? = nil
    for span in spans {
      if let (start, end) = current, span.0 <= end {
        current = (start, max(end, span.1))
      } else {
        if let (start, end) = current { total += end - start }
        current = span
      }
    }
    if let (start, end) = current { total += end - start }
    return Double(total) / 60_000_000
  }

  public init(
    day: Day, source: String, sleepStart: Instant, wake: Instant, sleepStartOffset: Int,
    wakeOffset: Int, asleepMinutes: Double, inBedMinutes: Double,
    stageMinutes: [HealthSample.SleepStage: Double]
  ) {
    self.day = day
    self.source = source
    self.sleepStart = sleepStart
    self.wake = wake
    self.sleepStartOffset = sleepStartOffset
    self.wakeOffset = wakeOffset
    self.asleepMinutes = asleepMinutes
    self.inBedMinutes = inBedMinutes
    self.stageMinutes = stageMinutes
  }
}
