import Foundation
import Testing

@testable import NudgeCore

/// The whole morning against the second implementation (scripts/nudgetest/health_rules.py in
/// its `full` mode, written from the README's rules): the nights with their recovery signals,
/// the days' steps and active energy by the hour rule, and every baseline, on generated
/// histories — the night rule's 400 mornings in several zones with clock changes, plus HRV,
/// breathing, resting heart rate and wrist temperature from a Watch and a ring (some capped,
/// some missing, some without length), and steps and energy from a Watch and a phone that
/// overlap — agreeing to 1e-9.
@Suite struct HealthDigestDifferentialTests {
  static let kinds: [(HealthSample.Kind, String, ClosedRange<Double>)] = [
    (.heartRateVariability, "hrv", 1...300),
    (.respiratoryRate, "respiratory_rate", 2...45),
    (.restingHeartRate, "resting_heart_rate", 20...160),
    (.wristTemperature, "wrist_temperature", 29...43),
  ]

  /// The night rule's history with signals in and around its nights and a day's activity.
  static func history(seed: UInt64) -> (days: [Day], samples: [HealthSample]) {
    var (days, samples) = HealthRulesDifferentialTests.history(mornings: 400, seed: seed)
    var rng = SplitMix64(seed: seed &+ 17)
    let offsets = HealthRulesDifferentialTests.offsets
    for day in days {
      let evening = (day.ordinal - 1) * 86400
      let offset = offsets.randomElement(using: &rng)!
      for (kind, _, range) in kinds where Int.random(in: 0..<8, using: &rng) != 0 {
        for _ in 0..<Int.random(in: 1...6, using: &rng) {
          // from the evening's 18:00 to the morning's 11:00, some without length
          let start = evening + 18 * 3600 + Int.random(in: 0..<(17 * 3600), using: &rng) - offset
          let length =
            Int.random(in: 0..<4, using: &rng) == 0 ? 0 : Int.random(in: 1...5400, using: &rng)
          let ring = Int.random(in: 0..<4, using: &rng) == 0
          samples.append(
            HealthSample(
              kind: kind, stage: nil,
              value: (Double.random(in: range, using: &rng) * 1000).rounded() / 1000,
              start: Instant(seconds: start), end: Instant(seconds: start + length),
              offset: offset, source: ring ? "Oura" : "Sam’s Apple Watch",
              device: ring ? nil : "Apple Watch"))
        }
      }
      for kind in [HealthSample.Kind.steps, .activeEnergy] {
        for _ in 0..<Int.random(in: 0...12, using: &rng) {
          let start = evening + 86400 + Int.random(in: 0..<86400, using: &rng) - offset
          let length =
            Int.random(in: 0..<10, using: &rng) == 0 ? 0 : Int.random(in: 60...7200, using: &rng)
          let phone = Bool.random(using: &rng)
          samples.append(
            HealthSample(
              kind: kind, stage: nil,
              value: Double(Int.random(in: 0...2000, using: &rng)) / (kind == .steps ? 1 : 7),
              start: Instant(seconds: start), end: Instant(seconds: start + length),
              offset: offset, source: phone ? "Sam’s iPhone" : "Sam’s Apple Watch",
              device: phone ? nil : "Apple Watch"))
        }
      }
    }
    return (days, samples.shuffled(using: &rng))
  }

  static let name: [HealthSample.Kind: String] = [
    .sleep: "sleep", .heartRateVariability: "hrv", .respiratoryRate: "respiratory_rate",
    .restingHeartRate: "resting_heart_rate", .wristTemperature: "wrist_temperature",
    .steps: "steps", .activeEnergy: "active_energy", .heartRate: "heart_rate",
  ]

  static func close(_ a: Double?, _ b: Any?) -> Bool {
    guard let a else { return b == nil || b is NSNull }
    guard let b = b as? Double else { return false }
    return abs(a - b) <= 1e-9 * max(1, abs(a))
  }

  @Test(arguments: [UInt64(53), 777_767])
  func theSwiftMorningAndThePythonMorningAgree(seed: UInt64) throws {
    let (days, samples) = Self.history(seed: seed)
    let input: [String: Any] = [
      "full": true, "days": days.map(\.description),
      "samples": samples.map { s -> [String: Any] in
        [
          "kind": Self.name[s.kind] ?? "other", "stage": s.stage?.rawValue ?? "",
          "value": s.value, "start": s.start.microseconds, "end": s.end.microseconds,
          "offset": s.offset, "source": s.source, "device": s.device ?? NSNull(),
        ]
      },
    ]
    let theirs = try HealthRulesDifferentialTests.python(input)
    var digest = HealthDigest()
    for sample in samples { digest.add(sample) }
    let nights = digest.nights()
    var signalsCompared = 0
    var capped = 0
    let listed = Set(days)
    // (a nap at the last noon makes a night of a morning past the list)
    for night in nights where listed.contains(night.night.day) {
      let other = try #require(theirs[night.night.day.description] as? [String: Any])
      let signals = other["signals"] as? [String: Any] ?? [:]
      for (kind, key, _) in Self.kinds {
        let signal = HealthSignal.allCases.first { $0.kind == kind }!
        let mine = night.signals[signal]
        let their = signals[key] as? [String: Any]
        #expect((mine == nil) == (their == nil), "\(night.night.day) \(key)")
        guard let mine, let their else { continue }
        signalsCompared += 1
        if mine.cappedCount > 0 { capped += 1 }
        #expect(Self.close(mine.value, their["value"]), "\(night.night.day) \(key)")
        #expect(mine.sampleCount == their["sample_count"] as? Int, "\(night.night.day) \(key)")
        #expect(mine.cappedCount == their["capped_count"] as? Int, "\(night.night.day) \(key)")
        #expect(mine.source == their["source"] as? String, "\(night.night.day) \(key)")
      }
    }
    let theirDays = theirs["days"] as? [String: [String: Any]] ?? [:]
    let myDays = digest.days()
    #expect(myDays.count == theirDays.count)
    for day in myDays {
      let their = theirDays[day.day.description]
      #expect(Self.close(day.steps, their?["steps"]), "\(day.day) steps")
      #expect(Self.close(day.activeEnergyKcal, their?["active_energy_kcal"]), "\(day.day) energy")
    }
    let baselines = theirs["baselines"] as? [String: [String: [String: Any]]] ?? [:]
    var withBaseline = 0
    for day in days {
      let report = HealthReport(day: day, nights: nights, activity: nil, workouts: [])
      for signal in report.signals {
        let their = baselines[day.description]?[signal.name]
        let place = "\(day) \(signal.name)"
        #expect(Self.close(signal.value, their?["value"]), "\(place) value")
        #expect(Self.close(signal.baseline7dEma, their?["ema"]), "\(place) ema")
        #expect(Self.close(signal.baseline30dMean, their?["mean"]), "\(place) mean")
        #expect(Self.close(signal.baseline30dStd, their?["std"]), "\(place) std")
        #expect(Self.close(signal.deltaVs30d, their?["delta"]), "\(place) delta")
        #expect(Self.close(signal.zScore30d, their?["z"]), "\(place) z")
        if signal.zScore30d != nil { withBaseline += 1 }
      }
    }
    // the history holds what the rules must decide
    #expect(signalsCompared > 400, "\(signalsCompared) signals")
    #expect(capped > 50, "\(capped) capped")
    #expect(myDays.count > 300, "\(myDays.count) days")
    #expect(withBaseline > 700, "\(withBaseline) baselines")
  }
}
