import Foundation
import Testing

@testable import NudgeCore

@Suite struct DayTests {
  @Test func aDayReadFromBytesIsTheDayReadFromText() {
    let texts: [[UInt8]] = [
      Array("2026-11-20".utf8), Array("-0001-01-01".utf8), Array("10000-02-29".utf8),
      Array("2026-02-29".utf8), Array("2026-1-20".utf8), Array("2026-11-20 ".utf8), [],
      [0x32, 0x30, 0x32, 0x36, 0x2D, 0x31, 0x31, 0x2D, 0x32, 0xFF],
      [0x32, 0x30, 0x32, 0xC3, 0xA9, 0x2D, 0x31, 0x31, 0x2D, 0x32, 0x30],
    ]
    for bytes in texts {
      let fromBytes = bytes.withUnsafeBufferPointer { Day(utf8: $0) }
      #expect(fromBytes == Day(String(decoding: bytes, as: UTF8.self)), "\(bytes)")
    }
    #expect([UInt8]("2026-11-20".utf8).withUnsafeBufferPointer { Day(utf8: $0) } != nil)
  }

  @Test(arguments: [
    ("2026-11-20T00:40:00+01:00", "Europe/Berlin", "2026-11-19"),
    ("2026-11-20T03:59:59+01:00", "Europe/Berlin", "2026-11-19"),
    ("2026-11-20T04:00:00+01:00", "Europe/Berlin", "2026-11-20"),
    ("2026-11-20T23:59:00+01:00", "Europe/Berlin", "2026-11-20"),
    // the same instant is another day somewhere else
    ("2026-11-20T03:30:00Z", "America/New_York", "2026-11-19"),
    ("2026-11-20T03:30:00Z", "Asia/Tokyo", "2026-11-20"),
    // DST: spring forward in Berlin (02:00 -> 03:00), 03:30 local is still before 04:00
    ("2026-03-29T03:30:00+02:00", "Europe/Berlin", "2026-03-28"),
    ("2026-03-29T04:00:00+02:00", "Europe/Berlin", "2026-03-29"),
    // DST: fall back, 02:30 happens twice and both count for the day before
    ("2026-10-25T02:30:00+02:00", "Europe/Berlin", "2026-10-24"),
    ("2026-10-25T02:30:00+01:00", "Europe/Berlin", "2026-10-24"),
  ])
  func assignsDaysWithTheRolloverHour(instant: String, zone: String, expected: String) throws {
    let at = try #require(InstantFormat.parse(instant))
    let day = DayRule().day(of: at, in: TestZones.named(zone)!)
    #expect(day.description == expected)
  }

  @Test func aDayIsWrittenAsItsPaddedFieldsAndReadBack() {
    // the digit-by-digit writing of a usual day against the padded fields it stands for,
    // across years of every width and the ends of the range
    for year in [0, 1, 9, 10, 99, 100, 999, 1000, 1970, 2026, 9999, -1, 10_000, 123_456] {
      for (month, day) in [(1, 1), (2, 29), (9, 9), (10, 10), (12, 31)] {
        let text = Day(year: year, month: month, day: day).description
        #expect(text == zeroPadded(year, 4) + "-" + zeroPadded(month, 2) + "-" + zeroPadded(day, 2))
        if month != 2 || Day.isLeap(year) {
          #expect(Day(text) == Day(year: year, month: month, day: day), "\(text)")
        }
      }
    }
  }

  @Test func rolloverHourZeroUsesTheCalendarDate() throws {
    let at = try #require(InstantFormat.parse("2026-11-20T00:40:00+01:00"))
    #expect(
      DayRule(rolloverHour: 0).day(of: at, in: TestZones.named("Europe/Berlin")!).description
        == "2026-11-20")
  }

  @Test func ordinalRoundTripsAcrossCenturies() {
    for ordinal in stride(from: -800_000, through: 800_000, by: 997) {
      #expect(Day(ordinal: ordinal).ordinal == ordinal)
    }
    #expect(Day("1970-01-01")!.ordinal == 0)
    #expect(Day("2000-03-01")!.adding(days: -1).description == "2000-02-29")
    #expect(Day("2100-03-01")!.adding(days: -1).description == "2100-02-28")
    #expect(Day("2026-11-21")!.weekday == 6)
  }

  @Test(arguments: [
    "2026-02-29", "2026-13-01", "2026-1-01", "20261101", "", "2026-11-2x", "٢٠٢٦-11-01",
  ])
  func refusesMalformedDays(text: String) {
    #expect(Day(text) == nil)
  }

  @Test(arguments: [
    ("@0", 0), ("@1774760340", 1_774_760_340), ("2026-03-29T06:59:00+02:00", 1_774_760_340),
    ("2026-03-29T04:59:00Z", 1_774_760_340), ("2026-03-29T04:59:00.250Z", 1_774_760_340),
    ("2026-03-28T23:59:00-05:00", 1_774_760_340),
  ])
  func parsesInstants(text: String, epoch: Int) {
    #expect(InstantFormat.parse(text).map(\.seconds) == epoch)
  }

  @Test(arguments: [
    "2026-03-29T06:59:00", "2026-03-29 06:59", "@", "@12x", "2026-02-30T00:00:00Z",
    "2026-03-29T24:00:00Z", "2026-03-29T06:59:00+2:00", "tomorrow",
  ])
  func refusesInstantsWithoutAnOffset(text: String) {
    #expect(InstantFormat.parse(text) == nil)
  }

  @Test func formatsWithTheOffsetInEffect() throws {
    let berlin = TestZones.named("Europe/Berlin")!
    #expect(
      InstantFormat.format(Instant(seconds: 1_774_760_340), in: berlin)
        == "2026-03-29T06:59:00+02:00")
    #expect(
      InstantFormat.format(Instant(seconds: 1_795_000_000), in: berlin)
        == "2026-11-18T12:06:40+01:00")
    let kolkata = TestZones.named("Asia/Kolkata")!
    #expect(
      InstantFormat.format(Instant(seconds: 0), in: kolkata)
        == "1970-01-01T05:30:00+05:30")
  }

  @Test(arguments: [
    (7, "morning"), (17, "morning"), (18, "evening"), (23, "evening"), (1, "evening"),
    (4, "morning"),
  ])
  func todayViewPhaseFollowsTheClock(hour: Int, phase: String) throws {
    let at = try #require(InstantFormat.parse(String(format: "2026-11-20T%02d:00:00Z", hour)))
    let local = LocalTime(at, in: TestZones.named("UTC")!)
    #expect(DayPhase.of(local, rolloverHour: 4).rawValue == phase)
  }

  @Test func anInstantIsMicrosecondsWithWholeSecondsRoundedDown() {
    #expect(Instant(microseconds: -1).seconds == -1)
    #expect(Instant(microseconds: 1_999_999).seconds == 1)
    #expect(Instant(seconds: 5).adding(seconds: 0.25).microseconds == 5_250_000)
    #expect(Instant(seconds: 7).seconds(since: Instant(seconds: 5)) == 2)
    #expect(Instant.distantPast < Instant(seconds: -1_000_000))
  }
}
