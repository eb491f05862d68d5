import Testing

@testable import NudgeCore

/// The night rule (HealthNight): noon to noon in the export's own clock, one source read per
/// night, overlaps counted once, lengths in real time across a change of clock.
@Suite struct HealthNightTests {
  static let watch = "Sam’s Apple Watch"

  /// A sleep sample from `start` to `end`, both Apple's form (`2026-11-19 23:10:00 +0000`).
  static func sleep(
    _ stage: HealthSample.SleepStage, _ start: String, _ end: String, source: String = watch
  ) -> HealthSample {
    let s = HealthDate.parse(start)!
    let e = HealthDate.parse(end)!
    return HealthSample(
      kind: .sleep, stage: stage, value: 0, start: s.instant, end: e.instant, offset: s.offset,
      source: source, device: nil)
  }

  static let morning = Day("2026-11-20")!

  @Test func theExportsNightReadsAsItsStagesSay() throws {
    let records = try HealthExportReadingTests.read(HealthExportReadingTests.export)
    let night = try #require(HealthNight.night(endingOn: Self.morning, from: records.samples))
    #expect(night.source == Self.watch)
    #expect(night.asleepMinutes == 200)
    #expect(night.stageMinutes == [.core: 150, .deep: 50])
    #expect(night.sleepStart == HealthDate.parse("2026-11-19 23:10:00 +0000")?.instant)
    #expect(night.wake == HealthDate.parse("2026-11-20 02:30:00 +0000")?.instant)
    #expect(night.efficiency == 1)
  }

  @Test func timeInBedHoldsEverySegmentAndEfficiencyIsSleepOverIt() throws {
    let night = try #require(
      HealthNight.night(
        endingOn: Self.morning,
        from: [
          Self.sleep(.inBed, "2026-11-19 22:30:00 +0000", "2026-11-20 07:00:00 +0000"),
          Self.sleep(.core, "2026-11-19 23:00:00 +0000", "2026-11-20 03:00:00 +0000"),
          Self.sleep(.awake, "2026-11-20 03:00:00 +0000", "2026-11-20 03:30:00 +0000"),
          Self.sleep(.rem, "2026-11-20 03:30:00 +0000", "2026-11-20 06:30:00 +0000"),
        ]))
    #expect(night.asleepMinutes == 420)
    #expect(night.inBedMinutes == 510)
    #expect(night.efficiency == 420.0 / 510.0)
    #expect(night.stageMinutes[.awake] == 30)
  }

  @Test func overlappingSegmentsOfOneSourceCountOnce() throws {
    let night = try #require(
      HealthNight.night(
        endingOn: Self.morning,
        from: [
          Self.sleep(.core, "2026-11-19 23:00:00 +0000", "2026-11-20 02:00:00 +0000"),
          Self.sleep(.core, "2026-11-20 01:00:00 +0000", "2026-11-20 03:00:00 +0000"),
        ]))
    #expect(night.asleepMinutes == 240)
  }

  @Test func twoSourcesOfOneNightNeverAddUpTheWatchIsReadFirstOrAsOrdered() throws {
    let samples = [
      Self.sleep(
        .asleepUnspecified, "2026-11-19 23:05:00 +0000", "2026-11-20 07:30:00 +0000",
        source: "AutoSleep"),
      Self.sleep(.core, "2026-11-19 23:00:00 +0000", "2026-11-20 07:00:00 +0000"),
    ]
    let night = try #require(HealthNight.night(endingOn: Self.morning, from: samples))
    #expect(night.source == Self.watch && night.asleepMinutes == 480)
    let ordered = try #require(
      HealthNight.night(endingOn: Self.morning, from: samples, sources: ["AutoSleep", Self.watch]))
    #expect(ordered.source == "AutoSleep" && ordered.asleepMinutes == 505)
  }

  @Test func aNightAcrossTheClockGoingBackKeepsItsRealLength() throws {
    // Europe/London, 25 October 2026: 02:00 +0100 becomes 01:00 +0000
    let night = try #require(
      HealthNight.night(
        endingOn: Day("2026-10-25")!,
        from: [
          Self.sleep(.core, "2026-10-24 23:00:00 +0100", "2026-10-25 01:30:00 +0100"),
          Self.sleep(.deep, "2026-10-25 01:30:00 +0100", "2026-10-25 01:10:00 +0000"),
          Self.sleep(.core, "2026-10-25 01:10:00 +0000", "2026-10-25 07:00:00 +0000"),
        ]))
    // 23:00 to 07:00 on the clock is 9 hours that night
    #expect(night.asleepMinutes == 540)
    #expect(night.sleepStartOffset == 3600 && night.wakeOffset == 0)
  }

  @Test func aNightRunsFromNoonToNoonOnTheExportsClock() {
    let samples = [
      // the 19th's night; a nap from noon: the 20th's; a morning abroad: the 20th's
      Self.sleep(.core, "2026-11-19 11:59:00 +0000", "2026-11-19 12:30:00 +0000"),
      Self.sleep(.core, "2026-11-19 12:00:00 +0000", "2026-11-19 12:20:00 +0000"),
      Self.sleep(.core, "2026-11-20 09:00:00 +0900", "2026-11-20 10:00:00 +0900"),
    ]
    #expect(HealthNight.night(endingOn: Day("2026-11-19")!, from: samples)?.asleepMinutes == 31)
    #expect(HealthNight.night(endingOn: Self.morning, from: samples)?.asleepMinutes == 80)
  }

  @Test func aNightWithNoSleepIsNoNight() {
    #expect(
      HealthNight.night(
        endingOn: Self.morning,
        from: [
          Self.sleep(.inBed, "2026-11-19 22:30:00 +0000", "2026-11-20 07:00:00 +0000"),
          Self.sleep(.awake, "2026-11-20 03:00:00 +0000", "2026-11-20 03:30:00 +0000"),
        ]) == nil)
    #expect(HealthNight.night(endingOn: Self.morning, from: []) == nil)
  }
}
