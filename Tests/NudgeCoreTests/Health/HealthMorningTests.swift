import Testing

@testable import NudgeCore

/// The day's rule (one source an hour), the signals' (time-weighted in the night, capped), the
/// baselines', the contract's numbers and the brief's levels, each on values worked by hand.
@Suite struct HealthMorningTests {
  static let noon = Day(year: 2026, month: 11, day: 19).ordinal * 86400 + 12 * 3600

  static func sample(
    _ kind: HealthSample.Kind, _ source: String, from: Int, minutes: Int, value: Double,
    stage: HealthSample.SleepStage? = nil, device: String? = nil
  ) -> HealthSample {
    HealthSample(
      kind: kind, stage: stage, value: value, start: Instant(seconds: from),
      end: Instant(seconds: from + minutes * 60), offset: 0, source: source, device: device)
  }

  @Test func aWatchAndAPhoneCountingOneWalkCountItOnceAnHourAtATime() {
    var digest = HealthDigest()
    let nine = Self.noon - 3 * 3600
    // the phone alone from 9 to 10; both from 10 to 11 (the Watch's taken); the phone's
    // sample across 11:30–12:30 spread half and half
    digest.add(Self.sample(.steps, "iPhone", from: nine, minutes: 50, value: 1000))
    digest.add(Self.sample(.steps, "iPhone", from: nine + 3600, minutes: 50, value: 800))
    digest.add(Self.sample(.steps, "Apple Watch", from: nine + 3600, minutes: 40, value: 900))
    digest.add(Self.sample(.steps, "iPhone", from: nine + 9000, minutes: 60, value: 600))
    digest.add(Self.sample(.activeEnergy, "Apple Watch", from: nine, minutes: 30, value: 12.5))
    let days = digest.days()
    #expect(days.count == 1)
    #expect(abs(days[0].steps! - (1000 + 900 + 600)) < 1e-9)
    #expect(days[0].activeEnergyKcal == 12.5)
    // a named order first: the phone over the Watch
    #expect(abs(digest.days(preferring: ["iPhone"])[0].steps! - (1000 + 800 + 600)) < 1e-9)
  }

  @Test func aSignalIsTheTimeWeightedMeanOfOneSourceInsideTheNightCapped() {
    let bed = Self.noon + 11 * 3600
    let samples = [
      Self.sample(.heartRateVariability, "Watch", from: bed + 600, minutes: 1, value: 40),
      Self.sample(.heartRateVariability, "Watch", from: bed + 3600, minutes: 3, value: 60),
      // outside the night, and another source's: left out
      Self.sample(.heartRateVariability, "Watch", from: bed - 7200, minutes: 1, value: 10),
      Self.sample(.heartRateVariability, "Ring", from: bed + 900, minutes: 1, value: 90),
      // a point sample weighs one second; 400 ms is capped to 250
      Self.sample(.heartRateVariability, "Watch", from: bed + 7200, minutes: 0, value: 400),
    ]
    let reading = HealthSignalReading.read(
      .hrv, from: Instant(seconds: bed), to: Instant(seconds: bed + 8 * 3600), samples: samples,
      order: ["Watch", "Ring"])!
    let weighted: Double = 40.0 * 60 + 60.0 * 180 + 250.0
    let expected: Double = weighted / 241
    #expect(abs(reading.value - expected) < 1e-12)
    #expect(reading.sampleCount == 3)
    #expect(reading.cappedCount == 1)
    #expect(reading.source == "Watch")
    #expect(
      HealthSignalReading.read(
        .restingHeartRate, from: Instant(seconds: bed), to: Instant(seconds: bed + 3600),
        samples: samples, order: []) == nil)
  }

  static func night(_ day: Day, asleep: Double, hrv: Double?) -> HealthDigest.Night {
    let start = Instant(seconds: day.ordinal * 86400 - 3600)
    var signals: [HealthSignal: HealthSignalReading] = [:]
    if let hrv {
      signals[.hrv] = HealthSignalReading(value: hrv, sampleCount: 2, cappedCount: 0, source: "W")
    }
    return HealthDigest.Night(
      night: HealthNight(
        day: day, source: "W", sleepStart: start,
        wake: Instant(seconds: start.seconds + Int(asleep * 60)), sleepStartOffset: 0,
        wakeOffset: 0, asleepMinutes: asleep, inBedMinutes: asleep / 0.9,
        stageMinutes: [.core: asleep]),
      signals: signals)
  }

  @Test func baselinesReadTheThirtyMorningsBeforeAndNeverTheMorningItself() {
    let day = Day(year: 2026, month: 11, day: 20)
    let values = [40.0, 50, 45, 55]
    var nights = values.enumerated().map { i, v in
      Self.night(day.adding(days: i - 4), asleep: 420, hrv: v)
    }
    // 31 mornings before: outside the window
    nights.append(Self.night(day.adding(days: -31), asleep: 420, hrv: 500))
    nights.append(Self.night(day, asleep: 300, hrv: 38))
    let report = HealthReport(day: day, nights: nights, activity: nil, workouts: [])
    let hrv = report["hrv"]!
    #expect(hrv.value == 38)
    #expect(hrv.baseline30dMean == 47.5)
    let sample = (values.map { ($0 - 47.5) * ($0 - 47.5) }.reduce(0, +) / 3).squareRoot()
    #expect(abs(hrv.baseline30dStd! - sample) < 1e-12)
    #expect(abs(hrv.deltaVs30d! - (38 - 47.5)) < 1e-12)
    #expect(abs(hrv.zScore30d! - (38 - 47.5) / sample) < 1e-12)
    var ema = 40.0
    for v in values.dropFirst() { ema += 0.25 * (v - ema) }
    #expect(abs(hrv.baseline7dEma! - ema) < 1e-12)
    #expect(hrv.quality == ["short_baseline"])
    #expect(report.flags.contains("short_baseline"))
    #expect(report.flags.contains("missing_resting_heart_rate"))
    #expect(report.flags.contains("missing_steps"))
    #expect(!report.flags.contains("missing_hrv"))
  }

  @Test func noNightIsNullsAndFlagsNeverAZero() {
    let day = Day(year: 2026, month: 11, day: 20)
    let report = HealthReport(day: day, nights: [], activity: nil, workouts: [])
    #expect(report.night == nil)
    #expect(report.signals.allSatisfy { $0.value == nil && $0.baseline30dMean == nil })
    #expect(report.flags.contains("missing_sleep"))
    #expect(report.flags.contains("missing_hrv"))
    let brief = HealthBrief(report)
    #expect(brief.level == nil)
    #expect(brief.lines.count == 3)
  }

  @Test func theBriefsLevelFollowsItsRules() {
    let day = Day(year: 2026, month: 11, day: 20)
    let history = (1...10).map { i in
      Self.night(
        day.adding(days: -i), asleep: 420 + Double(i % 3) * 10, hrv: 50 + Double(i % 3) * 2)
    }
    func level(asleep: Double, hrv: Double) -> HealthBrief.Level? {
      HealthBrief(
        HealthReport(
          day: day, nights: history + [Self.night(day, asleep: asleep, hrv: hrv)], activity: nil,
          workouts: [])
      ).level
    }
    #expect(level(asleep: 430, hrv: 52) == .green)
    #expect(level(asleep: 380, hrv: 52) == .amber)  // under 6 h 30 min
    #expect(level(asleep: 290, hrv: 52) == .red)  // under 5 h
    #expect(level(asleep: 430, hrv: 50.4) == .amber)  // HRV z about −1
    #expect(level(asleep: 430, hrv: 46) == .red)  // HRV z under −1.5
    let words = HealthBrief(
      HealthReport(
        day: day, nights: history + [Self.night(day, asleep: 430, hrv: 46)], activity: nil,
        workouts: [])
    ).lines
    #expect(words[1].hasPrefix("HRV 46 ms, "))
    #expect(words[1].contains("% under your 30-day mean"))
  }

  @Test func numbersAreWrittenOneWay() {
    #expect(HealthJSON.format(0) == "0")
    #expect(HealthJSON.format(-0.0001) == "0")
    #expect(HealthJSON.format(1.0005) == "1.001")
    #expect(HealthJSON.format(-2.5) == "-2.5")
    #expect(HealthJSON.format(14711) == "14711")
    #expect(HealthJSON.format(1e20) == "9000000000000")
    #expect(HealthJSON.format(.nan) == "null")
    let value = HealthJSON.Value.object([
      "b": .array([.number(1), .null]), "a": .string("x\"/y"), "é": .bool(true),
    ])
    #expect(
      HealthJSON.text(value)
        == "{\n  \"a\": \"x\\\"/y\",\n  \"b\": [\n    1,\n    null\n  ],\n  \"é\": true\n}")
    #expect(
      HealthJSON.time(Instant(seconds: 1_700_000_000), offset: -8 * 3600)
        == "2023-11-14T14:13:20-08:00")
  }
}
