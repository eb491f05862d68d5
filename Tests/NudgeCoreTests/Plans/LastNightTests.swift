import Testing

@testable import NudgeCore

/// Last night as the computer saw it: the last going-to-sleep of the evening and night, and
/// the first waking after it by noon; nothing when it stayed on or never woke.
@Suite struct LastNightTests {
  static let utc = ZoneRules.utc
  static let morning = Day(year: 2026, month: 11, day: 26)
  /// Epoch seconds of HH:MM UTC on the night before `morning` (hours past 24 run into it).
  static func at(_ hour: Int, _ minute: Int = 0) -> Int {
    morning.adding(days: -1).ordinal * 86400 + hour * 3600 + minute * 60
  }

  @Test func theLastSleepOfTheNightAndTheFirstWakingAfterIt() {
    let events: [(at: Int, event: LastNight.Event)] = [
      (Self.at(14), .asleep), (Self.at(15), .awake),  // an afternoon nap: not the night
      (Self.at(22, 10), .asleep), (Self.at(22, 40), .awake),  // a late film, then on again
      (Self.at(23, 45), .asleep), (Self.at(24 + 7, 5), .awake), (Self.at(24 + 9), .awake),
    ]
    let night = LastNight.times(events, morning: Self.morning, zone: Self.utc)
    #expect(night.bedtime == "23:45" && night.wake == "07:05")
  }

  @Test func aNightItStayedOnOrNeverWokeOffersNothing() {
    #expect(LastNight.times([], morning: Self.morning, zone: Self.utc) == (nil, nil))
    let stillAsleep: [(at: Int, event: LastNight.Event)] = [(Self.at(23), .asleep)]
    #expect(LastNight.times(stillAsleep, morning: Self.morning, zone: Self.utc) == (nil, nil))
    // woken only in the afternoon: not a morning
    let late: [(at: Int, event: LastNight.Event)] = [
      (Self.at(23), .asleep), (Self.at(24 + 13), .awake),
    ]
    #expect(LastNight.times(late, morning: Self.morning, zone: Self.utc) == (nil, nil))
  }

  @Test func timesAreTheZonesWallClock() throws {
    let berlin = try #require(TestZones.named("Europe/Berlin"))
    let events: [(at: Int, event: LastNight.Event)] = [
      (Self.at(22, 30), .asleep), (Self.at(24 + 6, 15), .awake),
    ]
    let night = LastNight.times(events, morning: Self.morning, zone: berlin)
    #expect(night.bedtime == "23:30" && night.wake == "07:15")
  }
}
