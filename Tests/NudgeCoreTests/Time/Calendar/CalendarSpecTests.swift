import Foundation
import Testing

@testable import NudgeCore

/// Real zone data from the system, loaded the way the CLI's edge loads it.
enum TestZones {
  static func named(_ name: String) -> ZoneRules? {
    guard let data = FileManager.default.contents(atPath: "/usr/share/zoneinfo/" + name) else {
      return nil
    }
    return ZoneRules(tzif: [UInt8](data), name: name)
  }

  /// What glibc makes of a TZ value (nil: unset → /etc/localtime).
  static func local(_ tz: String?) -> ZoneRules {
    guard var tz else {
      return FileManager.default.contents(atPath: "/etc/localtime").flatMap {
        ZoneRules(tzif: [UInt8]($0), name: "localtime")
      } ?? .utc
    }
    if tz.isEmpty { return .utc }
    if tz.hasPrefix(":") { tz.removeFirst() }
    return named(tz) ?? ZoneRules(posix: tz) ?? .utc
  }

  static func exists(_ name: String) -> Bool { named(name) != nil }
}

@Suite struct CalendarSpecTests {
  @Test(arguments: [
    ("07:00", 1), ("Mon..Fri 07:30", 1), ("daily", 1), ("*-*-* 07,19:00", 2), ("hourly", 24),
    ("*:0/15", 96), ("*:*:*", 86400), ("*:*:0/20", 4320), ("08..10:00", 3),
    ("*-*-* 07:00:00.5", 1), ("*:00:0/0.5", 2880),
  ])
  func countsTheTimesADayItElapses(expression: String, times: Int) throws {
    let spec = try CalendarSpec.parse(
      expression, localZone: TestZones.local("UTC"), zoneExists: TestZones.exists)
    #expect(spec.timesADay == times, "\(spec.normalized)")
  }

  @Test(arguments: systemdNormalizeCases)
  func normalizesLikeSystemd(input: String, expected: String) throws {
    let local = TestZones.local("UTC")  // fixed, whatever the machine's zone
    let spec = try CalendarSpec.parse(input, localZone: local, zoneExists: TestZones.exists)
    #expect(spec.normalized == expected)
    // normalising is idempotent
    let again = try CalendarSpec.parse(
      spec.normalized, localZone: local, zoneExists: TestZones.exists)
    #expect(again.normalized == expected)
  }

  @Test(arguments: systemdNextCases)
  func nextElapseLikeSystemd(input: String, tz: String?, after: Int, expected: Int) throws {
    var zone = tz
    if let z = zone, !z.isEmpty, !z.contains(",") { zone = ":" + z }
    let local = TestZones.local(zone)
    let spec = try CalendarSpec.parse(input, localZone: local, zoneExists: TestZones.exists)
    let result = spec.elapse(afterMicroseconds: after, localZone: local, zoneFor: TestZones.named)
    #expect(result == (expected == -1 ? .never : .at(expected)))
  }

  @Test(arguments: [
    "", "xx", "25:00", "12:60", "*-13-01", "*-*-32", "Mon..", "Mon,,Tue 07:00", "07", "7:0:0:0",
    "*-*~30", "Mon-Sun-Tue", "*:*:61", "-1:00", "1969-12-31", "*/5", "12:00/0", "2200-01-01",
    "*-*~1,26", "12:00 Mars/Phobos", "hourly daily", "Fry 07:00",
  ])
  func rejectsWhatSystemdRejects(input: String) {
    #expect(throws: CalendarSpec.ParseError.self) {
      try CalendarSpec.parse(input, localZone: .utc, zoneExists: TestZones.exists)
    }
  }

  @Test func skipsNonexistentLocalTimeAndFiresRepeatedOnceInBerlin() throws {
    let berlin = try #require(TestZones.named("Europe/Berlin"))
    let spec = try CalendarSpec.parse(
      "*-*-* 02:30", localZone: berlin, zoneExists: TestZones.exists)
    func next(_ t: Int) -> Int? {
      spec.nextElapse(after: t, localZone: berlin, zoneFor: TestZones.named)
    }
    // 2026-03-28 12:00 UTC: the next day has no 02:30 (clocks jump 02:00 → 03:00)
    let spring = try #require(next(1_774_699_200))
    #expect(spring == 1_774_830_600)  // 2026-03-30 02:30 CEST = 00:30 UTC
    // 2026-10-24 12:00 UTC: 02:30 happens twice on the 25th and fires once, at the first
    let first = try #require(next(1_792_843_200))
    #expect(first == 1_792_888_200)  // 2026-10-25 02:30 CEST = 00:30 UTC
    #expect(next(first) == 1_792_978_200)  // then 2026-10-26 02:30 CET = 01:30 UTC
  }

  @Test func firingRuleTakesTheLatestElapseAndHonoursTheWindow() throws {
    let spec = try CalendarSpec.parse("07:00", localZone: .utc, zoneExists: { _ in false })
    let next = { (t: Int) in spec.nextElapse(after: t, localZone: .utc, zoneFor: { _ in nil }) }
    let day = 1_795_651_200  // 2026-11-26 00:00 UTC
    let latest = FiringRule.latestElapse(
      atOrBefore: day + 9 * 3600, lookback: 86400 * 400, next: next)
    #expect(latest == day + 7 * 3600)
    #expect(
      FiringRule.latestElapse(atOrBefore: day + 7 * 3600, lookback: 86400, next: next) == day + 7
        * 3600)
    #expect(
      FiringRule.decide(latest: latest, now: day + 9 * 3600, window: 4 * 3600, flowDoneToday: false)
        == .fire(elapse: day + 7 * 3600))
    #expect(
      FiringRule.decide(
        latest: latest, now: day + 11 * 3600 + 1, window: 4 * 3600, flowDoneToday: false)
        == .skipStale(elapse: day + 7 * 3600))
    #expect(
      FiringRule.decide(latest: latest, now: day + 8 * 3600, window: 4 * 3600, flowDoneToday: true)
        == .skipDone(elapse: day + 7 * 3600))
    #expect(
      FiringRule.decide(latest: nil, now: day, window: 60, flowDoneToday: false) == .nothingDue)
  }

  @Test func dueElapseCountsFromTheLastTriggerAsSystemdDoes() {
    // a daily 07:00 slot, elapses at 7h past each midnight (UTC for simplicity)
    let day = 20_000 * 86400
    let next: (Int) -> Int? = { t in
      let candidate = (t / 86400) * 86400 + 7 * 3600
      return candidate > t ? candidate : candidate + 86400
    }
    // fired at 07:00 today: nothing more is due today
    #expect(
      FiringRule.dueElapse(
        atOrBefore: day + 8 * 3600, lastTrigger: day + 7 * 3600, lookback: 86400 * 400,
        next: next) == nil)
    // three days down: the catch-up is for the latest missed elapse, once
    #expect(
      FiringRule.dueElapse(
        atOrBefore: day + 3 * 86400 + 9 * 3600, lastTrigger: day + 7 * 3600,
        lookback: 86400 * 400, next: next) == day + 3 * 86400 + 7 * 3600)
    // never fired: the latest elapse at or before now
    #expect(
      FiringRule.dueElapse(
        atOrBefore: day + 7 * 3600 + 5, lastTrigger: nil, lookback: 86400 * 400, next: next)
        == day + 7 * 3600)
  }

}
