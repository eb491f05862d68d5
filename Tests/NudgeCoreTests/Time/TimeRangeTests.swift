import Foundation
import Testing

@testable import NudgeCore

/// Values no later command can read are refused where they are made; what is written reads back.
@Suite struct TimeRangeTests {
  @Test(arguments: ["-0001-01-01", "10000-01-04", "0000-02-29", "123456789-12-31"])
  func daysOutsideFourDigitYearsReadBack(text: String) throws {
    let day = try #require(Day(text))
    #expect(day.description == text)
    #expect(Day(ordinal: day.ordinal) == day)
  }

  @Test(arguments: ["01234-01-01", "-00001-01-01", "2026-1-01", "20261-13-01", "9999999999-01-01"])
  func nonCanonicalDaysAreRefused(text: String) {
    #expect(Day(text) == nil)
  }

  @Test func theSupportedRangeEndsWithRoomForAYearsPause() {
    #expect(SupportedTime.contains(InstantFormat.parse("9998-12-31T23:59:59Z")!))
    #expect(!SupportedTime.contains(InstantFormat.parse("9999-01-01T00:00:00Z")!))
    #expect(!SupportedTime.contains(InstantFormat.parse("1969-12-31T23:59:59Z")!))
    let last = SupportedTime.lastDay.adding(days: Pause.maxDays)
    #expect(Day(last.description) == last && last.year == 9999)
  }

  @Test(arguments: [
    ("ABC99999999999999999999", -(24 * 3600)), ("XYZ-99:99:99", 24 * 3600 + 59 * 60 + 59),
    ("EST5", -5 * 3600), ("<+0330>-3:30", 3 * 3600 + 30 * 60),
  ])
  func garbageOffsetsAreClampedAsGlibcClampsThem(tz: String, offset: Int) throws {
    let zone = try #require(ZoneRules(posix: tz))
    let local = LocalTime(Instant(seconds: 1_700_000_000), in: zone)
    #expect(local.utcOffset == offset)
    let text = InstantFormat.format(Instant(seconds: 1_700_000_000), in: zone)
    #expect(InstantFormat.parse(text) == Instant(seconds: 1_700_000_000), "\(text)")
  }

  @Test func anOffsetWithSecondsIsWrittenWithThemAndReadsBack() throws {
    let zone = try #require(ZoneRules(posix: "LMT-0:17:30"))
    let instant = Instant(seconds: 1_800_000_000)
    let text = InstantFormat.format(instant, in: zone)
    #expect(text.hasSuffix("+00:17:30"))
    #expect(InstantFormat.parse(text) == instant)
  }

  @Test(arguments: [
    ("ABC5DEF,M13.1.0,M11.1.0", -5 * 3600), ("ABC5DEF,J0,J400", -5 * 3600),
    ("EST5EDT,M13.2.0,M11.1.0", -5 * 3600), ("ABC-5:", 5 * 3600),
  ])
  func rulesGlibcCannotReadLeaveStandardTimeAlone(tz: String, offset: Int) throws {
    let zone = try #require(ZoneRules(posix: tz))
    for month in [1, 7] {
      let instant = Instant(seconds: Day(year: 2026, month: month, day: 15).ordinal * 86400)
      #expect(LocalTime(instant, in: zone).utcOffset == offset, "\(tz) in month \(month)")
    }
  }

  @Test func aFirstRuleWithoutASecondEndsSummerTimeOnTheFirstOfJanuaryAsGlibcDoes() throws {
    let zone = try #require(ZoneRules(posix: "ABC5DEF,M3.2.0"))
    let july = Instant(seconds: Day(year: 2026, month: 7, day: 15).ordinal * 86400)
    let february = Instant(seconds: Day(year: 2026, month: 2, day: 15).ordinal * 86400)
    #expect(LocalTime(july, in: zone).utcOffset == -4 * 3600)
    #expect(LocalTime(february, in: zone).utcOffset == -5 * 3600)
  }

  @Test(arguments: ["<A>5", "<AB>-3", "AB5"])
  func namesShorterThanThreeAreNoZone(tz: String) {
    #expect(PosixTZ(tz) == nil)
  }

}
