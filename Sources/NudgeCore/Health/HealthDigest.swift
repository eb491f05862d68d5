/// What an import makes of one export, read a record at a time: the samples a night needs
/// (sleep and the recovery signals) kept, steps and active energy summed into hours as they
/// come (never kept one by one), workouts and activity summaries; then each night with its
/// signals and each day's totals. Memory grows with the nights and hours an export spans,
/// not with its heart-rate samples.
///
/// The day's rule: a step or energy sample is spread evenly over its span and split into the
/// hours of its own clock (the offset its export wrote); in each hour the first source in the
/// order that wrote anything in that hour is taken, the others left out (an iPhone and a Watch
/// both counting one walk count it once); a day's total is the sum of its hours taken.
public struct HealthDigest {
  /// A night with its recovery signals.
  public struct Night: Equatable, Sendable {
    public var night: HealthNight
    public var signals: [HealthSignal: HealthSignalReading]

    public init(night: HealthNight, signals: [HealthSignal: HealthSignalReading]) {
      self.night = night
      self.signals = signals
    }
  }

  /// A day's activity.
  public struct ActivityDay: Equatable, Sendable {
    public var day: Day
    public var steps: Double?
    public var activeEnergyKcal: Double?
    /// What the export's own ActivitySummary says of the day's active energy.
    public var summaryActiveEnergyKcal: Double?
    /// The last body mass written that day.
    public var bodyMassKg: Double?

    public init(
      day: Day, steps: Double?, activeEnergyKcal: Double?, summaryActiveEnergyKcal: Double?,
      bodyMassKg: Double?
    ) {
      self.day = day
      self.steps = steps
      self.activeEnergyKcal = activeEnergyKcal
      self.summaryActiveEnergyKcal = summaryActiveEnergyKcal
      self.bodyMassKg = bodyMassKg
    }
  }

  private var sleep: [HealthSample] = []
  private var signals: [HealthSample] = []
  /// A local day's hours of one source: 24 steps then 24 energy, NaN where it wrote nothing
  /// (a day's block, not an entry an hour: a 16-year export's hours in a few MB).
  private var hourBlocks: [BlockKey: [Double]] = [:]
  private var summaries: [Day: Double] = [:]
  private var bodyMass: [Day: (Instant, Double)] = [:]
  public private(set) var workouts: [HealthWorkout] = []
  /// Sources by name, so that a million samples share one string each.
  private var names: [Bytes: String] = [:]
  private var sourceIndex: [Bytes: Int] = [:]
  private var sourceNames: [String] = []
  private var sourceIsWatch: [Bool] = []
  /// How many samples of each kind were read.
  public private(set) var counts: [HealthSample.Kind: Int] = [:]

  /// A name as its bytes: Swift's `==` on strings calls a composed and a decomposed "Café"
  /// the same, and the rules call them two sources.
  struct Bytes: Hashable {
    var text: String
    static func == (a: Bytes, b: Bytes) -> Bool { same(a.text, b.text) }
    func hash(into hasher: inout Hasher) {
      var text = text
      text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
  }

  /// Whether two strings are the same bytes (a contiguous comparison, not a generic one).
  static func same(_ a: String, _ b: String) -> Bool {
    var a = a
    var b = b
    return a.withUTF8 { x in b.withUTF8 { y in x.count == y.count && x.elementsEqual(y) } }
  }

  /// The source the last activity sample came from (samples come in runs of one source).
  private var lastSource: (name: String, index: Int)? = nil

  private struct BlockKey: Hashable {
    var day: Int
    var source: Int
  }

  /// Adds `value` to `hour` (local, since 1970) of `kind` (0 steps, 1 energy) for `source`.
  private mutating func add(_ value: Double, hour: Int, kind: Int, source: Int) {
    let day = floorDiv(hour, 24)
    let slot = kind * 24 + (hour - day * 24)
    let key = BlockKey(day: day, source: source)
    if hourBlocks[key] == nil { hourBlocks[key] = [Double](repeating: .nan, count: 48) }
    hourBlocks[key]!.withUnsafeMutableBufferPointer { block in
      block[slot] = block[slot].isNaN ? value : block[slot] + value
    }
  }

  public init() {}

  private mutating func interned(_ name: String) -> String {
    if let known = names[Bytes(text: name)] { return known }
    names[Bytes(text: name)] = name
    return name
  }

  private mutating func index(of sample: HealthSample) -> Int {
    if let last = lastSource, Self.same(last.name, sample.source) {
      if !sourceIsWatch[last.index], sample.device?.contains("Watch") == true {
        sourceIsWatch[last.index] = true
      }
      return last.index
    }
    let found = lookUp(sample)
    lastSource = (sample.source, found)
    return found
  }

  private mutating func lookUp(_ sample: HealthSample) -> Int {
    if let known = sourceIndex[Bytes(text: sample.source)] {
      if !sourceIsWatch[known], sample.device?.contains("Watch") == true {
        sourceIsWatch[known] = true
      }
      return known
    }
    let name = interned(sample.source)
    sourceIndex[Bytes(text: name)] = sourceNames.count
    sourceNames.append(name)
    sourceIsWatch.append(
      name.utf8.contains("Watch".utf8) || sample.device?.contains("Watch") == true)
    return sourceNames.count - 1
  }

  public mutating func add(_ sample: HealthSample) {
    counts[sample.kind, default: 0] += 1
    var sample = sample
    switch sample.kind {
    case .sleep, .heartRateVariability, .restingHeartRate, .respiratoryRate, .wristTemperature:
      // kept until the end: their names share one string each
      sample.source = interned(sample.source)
      sample.device = sample.device.map { interned($0) }
      if sample.kind == .sleep { sleep.append(sample) } else { signals.append(sample) }
    case .steps, .activeEnergy:
      spread(sample, kind: sample.kind == .steps ? 0 : 1, source: index(of: sample))
    case .bodyMass:
      let day = Day(ordinal: floorDiv(sample.start.seconds + sample.offset, 86400))
      if bodyMass[day].map({ $0.0 <= sample.start }) ?? true {
        bodyMass[day] = (sample.start, sample.value)
      }
    case .heartRate:
      break
    }
  }

  public mutating func add(_ workout: HealthWorkout) {
    var workout = workout
    workout.source = interned(workout.source)
    workouts.append(workout)
  }

  public mutating func add(_ summary: HealthActivitySummary) {
    if let kcal = summary.activeEnergyKcal { summaries[summary.day] = kcal }
  }

  /// Spreads a sample's value over the hours of its clock.
  private mutating func spread(_ sample: HealthSample, kind: Int, source: Int) {
    let start = sample.start.microseconds + sample.offset * 1_000_000
    let end = sample.end.microseconds + sample.offset * 1_000_000
    let hourLength = 3_600_000_000
    let firstHour = floorDiv(start, hourLength)
    guard end > start else {
      add(sample.value, hour: firstHour, kind: kind, source: source)
      return
    }
    let length = Double(end - start)
    var hour = firstHour
    while hour * hourLength < end {
      let from = max(start, hour * hourLength)
      let to = min(end, (hour + 1) * hourLength)
      add(sample.value * Double(to - from) / length, hour: hour, kind: kind, source: source)
      hour += 1
    }
  }

  /// The order sources are preferred in: `preferred` first (those named), then the default
  /// (a Watch first, then by name).
  private func order(_ preferred: [String]) -> [Int] {
    let byDefault = sourceNames.indices.sorted { a, b in
      if sourceIsWatch[a] != sourceIsWatch[b] { return sourceIsWatch[a] }
      return Array(sourceNames[a].utf8).lexicographicallyPrecedes(Array(sourceNames[b].utf8))
    }
    var named: [Int] = []
    for index in preferred.compactMap({ sourceIndex[Bytes(text: $0)] }) where !named.contains(index)
    {
      named.append(index)
    }
    return named + byDefault.filter { !named.contains($0) }
  }

  /// Each night the export holds, with its signals; `preferred` sources first.
  public func nights(preferring preferred: [String] = []) -> [Night] {
    // the samples by morning, then as read: an order of indexes, not a copy of the samples
    let mornings = sleep.map { sample in
      floorDiv(sample.start.seconds + sample.offset - 12 * 3600, 86400) + 1
    }
    let bySleep = sleep.indices.sorted { (mornings[$0], $0) < (mornings[$1], $1) }
    let byStart = signals.indices.sorted {
      (signals[$0].start.microseconds, $0) < (signals[$1].start.microseconds, $1)
    }
    let longest = signals.map { $0.end.microseconds - $0.start.microseconds }.max() ?? 0
    var nights: [Night] = []
    var first = 0
    while first < bySleep.count {
      var last = first
      while last < bySleep.count && mornings[bySleep[last]] == mornings[bySleep[first]] {
        last += 1
      }
      let day = Day(ordinal: mornings[bySleep[first]])
      let samples = bySleep[first..<last].map { sleep[$0] }
      first = last
      let order = preferred + HealthNight.defaultOrder(samples)
      guard let night = HealthNight.night(endingOn: day, from: samples, sources: order) else {
        continue
      }
      // the signal samples that can overlap the window: starting from (its start − the
      // longest sample, at most a day) to its end
      let from = night.sleepStart.microseconds - longest
      var low = 0
      var high = byStart.count
      while low < high {
        let mid = (low + high) / 2
        if signals[byStart[mid]].start.microseconds < from { low = mid + 1 } else { high = mid }
      }
      var near: [HealthSample] = []
      var at = low
      while at < byStart.count && signals[byStart[at]].start <= night.wake {
        near.append(signals[byStart[at]])
        at += 1
      }
      let signalOrder = preferred + HealthNight.defaultOrder(near)
      var readings: [HealthSignal: HealthSignalReading] = [:]
      for signal in HealthSignal.allCases {
        readings[signal] = HealthSignalReading.read(
          signal, from: night.sleepStart, to: night.wake, samples: near, order: signalOrder)
      }
      nights.append(Night(night: night, signals: readings))
    }
    return nights
  }

  /// Each day's steps and active energy (by the hours rule), its summary and body mass.
  public func days(preferring preferred: [String] = []) -> [ActivityDay] {
    let rank = Dictionary(
      uniqueKeysWithValues: order(preferred).enumerated().map { ($0.element, $0.offset) })
    var byDay: [Int: [(rank: Int, block: [Double])]] = [:]
    for (key, block) in hourBlocks {
      byDay[key.day, default: []].append((rank[key.source]!, block))
    }
    var days: [Day: ActivityDay] = [:]
    for (ordinal, blocks) in byDay {
      let ranked = blocks.sorted { $0.rank < $1.rank }
      var entry = ActivityDay(day: Day(ordinal: ordinal))
      // in each hour and kind, the best-ranked source that wrote any; summed hour by hour
      for slot in 0..<48 {
        guard let taken = ranked.first(where: { !$0.block[slot].isNaN })?.block[slot] else {
          continue
        }
        if slot < 24 {
          entry.steps = (entry.steps ?? 0) + taken
        } else {
          entry.activeEnergyKcal = (entry.activeEnergyKcal ?? 0) + taken
        }
      }
      days[entry.day] = entry
    }
    for (day, kcal) in summaries {
      days[day, default: ActivityDay(day: day)].summaryActiveEnergyKcal = kcal
    }
    for (day, mass) in bodyMass {
      days[day, default: ActivityDay(day: day)].bodyMassKg = mass.1
    }
    return days.values.sorted { $0.day < $1.day }
  }
}

extension HealthDigest.ActivityDay {
  public init(day: Day) {
    self.init(
      day: day, steps: nil, activeEnergyKcal: nil, summaryActiveEnergyKcal: nil, bodyMassKg: nil)
  }
}
