import Foundation
import Testing

@testable import NudgeCore

@Suite struct SteadyDayTests {
  /// The steady-day shortcut and the replay of a repeated call give what the full emulation of
  /// glibc's mktime gives — instant, normalised fields and the remembered guess — about hourly
  /// through 2026 and around each change, asking with isdst -1, 0 and 1 (each twice in a row,
  /// as the elapse loop does), in zones with and without DST, a 30-minute DST, a POSIX TZ and
  /// a `right/` zone.
  @Test(arguments: [
    "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata", "UTC",
    "right/Europe/Berlin", "CET-1CEST,M3.5.0,M10.5.0/3",
  ])
  func theShortcutAgreesWithTheFullSearch(zone name: String) throws {
    let zone = try #require(TestZones.named(name) ?? ZoneRules(posix: name))
    var fast = CivilClock(zone: zone, utc: false)
    var full = CivilClock(zone: zone, utc: false)
    full.usesSteadyDays = false
    full.remembersLastCall = false
    let start = Day(year: 2026, month: 1, day: 1).ordinal * 86400
    for step in stride(from: 0, to: 366 * 86400, by: 3533) {
      for isDST in [-1, 0, 1] {
        var a = BrokenDownTime(naive: start + step + 7, isDST: isDST)
        a.minute += step % 7  // not always a normalised field
        let asked = a
        for _ in 0..<2 {
          var b = asked
          a = asked
          let t1 = fast.mktime(&a)
          let t2 = full.mktime(&b)
          #expect(t1 == t2 && a == b && fast.guess == full.guess, "\(name) \(step) \(isDST)")
          if t1 != t2 || a != b || fast.guess != full.guess { return }
        }
      }
    }
  }

  /// Where the elapse loop's bound check takes fields as mktime would give them back
  /// (`keepsFields`), the full emulation gives those very fields back, and the same guess.
  @Test(arguments: [
    "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "UTC", "right/Europe/Berlin",
  ])
  func fieldsKeptAreWhatTheFullSearchGivesBack(zone name: String) throws {
    let zone = try #require(TestZones.named(name))
    for utc in [false, true] {
      var fast = CivilClock(zone: zone, utc: utc)
      var full = CivilClock(zone: zone, utc: utc)
      full.usesSteadyDays = false
      full.remembersLastCall = false
      let start = Day(year: 2026, month: 1, day: 1).ordinal * 86400
      var kept = 0
      for step in stride(from: 0, to: 366 * 86400, by: 4817) {
        // the clock meets the day first (as the loop's own mktime does), then is asked
        var met = BrokenDownTime(naive: start + step, isDST: -1)
        _ = fast.mktime(&met)
        for (isDST, minute) in [(-1, 0), (0, 59), (1, 30), (-1, 60)] {
          var asked = BrokenDownTime(naive: start + step + 11, isDST: isDST)
          asked.minute = minute
          full.guess = fast.guess
          guard fast.keepsFields(asked) else { continue }
          kept += 1
          var b = asked
          _ = full.mktime(&b)
          #expect(
            (0..<6).allSatisfy { asked.field($0) == b.field($0) } && fast.guess == full.guess,
            "\(name) utc \(utc) \(step) \(isDST) \(minute)")
        }
      }
      // most of the year's days are steady: the shortcut is taken (not for minute 60); a
      // zone with leap seconds has no steady days, and every check converts
      if name.hasPrefix("right/") && !utc {
        #expect(kept == 0, "\(name): \(kept)")
      } else {
        #expect(kept > 300, "\(name) utc \(utc): \(kept)")
      }
    }
  }
}
