/// Last night as this computer saw it: when it went to sleep or shut down, and when it woke or
/// started again, from the journal's events. The sleep plan offers those times as the
/// defaults of its bedtime and wake questions (a question's `suggest`); a night the computer
/// stayed on, or one it does not know, offers nothing.
public enum LastNight {
  /// A moment the journal records.
  public enum Event: Equatable, Sendable {
    /// It went to sleep (suspend, hibernate) or began to shut down.
    case asleep
    /// It woke from sleep, or finished starting up.
    case awake
  }

  /// The times to offer for the night before `morning`, as HH:MM in `zone`: the bedtime is the
  /// last going-to-sleep from 18:00 the evening before to 05:00, the wake the first waking
  /// after it up to 12:00 (a bedtime only when a waking follows it: a computer still asleep
  /// knows nothing of the morning). Events are (epoch seconds, what).
  public static func times(
    _ events: [(at: Int, event: Event)], morning: Day, zone: ZoneRules
  ) -> (bedtime: String?, wake: String?) {
    // the instant of a local hour (a window's edge: an hour off on a DST night is no matter)
    func local(_ day: Day, _ hour: Int) -> Int {
      let naive = day.ordinal * 86400 + hour * 3600
      return naive - zone.localType(at: naive - zone.localType(at: naive).offset).offset
    }
    let evening = local(morning.adding(days: -1), 18)
    let latestBed = local(morning, 5)
    let noon = local(morning, 12)
    let sorted = events.sorted { $0.at < $1.at }
    guard
      let bed = sorted.last(where: {
        $0.event == .asleep && $0.at >= evening && $0.at <= latestBed
      })
    else { return (nil, nil) }
    guard let woke = sorted.first(where: { $0.event == .awake && $0.at > bed.at && $0.at <= noon })
    else { return (nil, nil) }
    return (clock(bed.at, zone), clock(woke.at, zone))
  }

  static func clock(_ seconds: Int, _ zone: ZoneRules) -> String {
    let local = LocalTime(Instant(seconds: seconds), in: zone)
    return zeroPadded(local.hour, 2) + ":" + zeroPadded(local.minute, 2)
  }
}
