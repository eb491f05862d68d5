import NudgeCore
import NudgeLinux
import Synchronization

/// Loads time zones the way the C library does: `TZ`, else `/etc/localtime`, from the
/// system's zone files; the only place that reads them.
final class ZoneDirectory: Sendable {
  static let root = "/usr/share/zoneinfo/"
  /// The largest zone file read (real ones are a few kilobytes).
  static let maxFileBytes = 1 << 20
  private let cache = Mutex<[String: ZoneRules?]>([:])
  private let files: any FileSystem

  init(files: any FileSystem = LocalFileSystem()) { self.files = files }

  private func read(_ path: String) -> [UInt8]? { files.contents(path, limit: Self.maxFileBytes) }

  /// A named zone ("Europe/Berlin"), or nil when it is not installed.
  func zone(named name: String) -> ZoneRules? {
    if let hit = cache.withLock({ $0[name] }) { return hit }
    var rules: ZoneRules? = nil
    if name == "UTC" && !files.exists(Self.root + "UTC") {
      rules = .utc
    } else if CalendarSpec.isZoneNameSafe(name),
      let data = read(Self.root + name)
    {
      rules = ZoneRules(tzif: data, name: name)
    }
    cache.withLock { $0[name] = rules }
    return rules
  }

  func exists(_ name: String) -> Bool { zone(named: name) != nil }

  /// The local zone for a `TZ` value (nil: unset).
  func local(tz: String?) -> ZoneRules { resolve(tz: tz) ?? .utc }

  /// The zone a `TZ` value names: unset, the system's (/etc/localtime, else UTC); empty, UTC;
  /// else a zone file (by name or `:/path`) or a POSIX TZ string. Nil when it names none of
  /// them: the C library, and so systemd and Nudge, then keep time in UTC.
  func resolve(tz: String?) -> ZoneRules? {
    guard var name = tz else {
      if let data = read("/etc/localtime"),
        let rules = ZoneRules(tzif: data, name: "localtime")
      {
        return rules
      }
      return .utc
    }
    if name.isEmpty { return .utc }
    if name.hasPrefix(":") { name.removeFirst() }
    if name.hasPrefix("/") {
      return read(name).flatMap { ZoneRules(tzif: $0, name: name) }
    }
    if let rules = zone(named: name) { return rules }
    // a DST zone without a rule borrows posixrules' transitions, as glibc does
    if let file = zone(named: "posixrules"), let rules = ZoneRules(posix: name, defaultRules: file)
    {
      return rules
    }
    return ZoneRules(posix: name)
  }

  /// What is wrong with a `TZ` value that names no zone, in one sentence with what to do; nil
  /// when it names one (or is unset or empty).
  func problem(tz: String?) -> String? {
    guard let tz, resolve(tz: tz) == nil else { return nil }
    return
      "TZ '\(VisibleText.escaped(tz))' names no time zone file and is no POSIX TZ string, so times are UTC; set TZ to a zone such as Europe/Berlin (timedatectl list-timezones lists them), or unset it to use the system's."
  }
}

extension Context {
  /// Says on stderr, in one line, that `TZ` names no zone and times are UTC (nothing when it
  /// names one).
  func noteUnknownTZ() {
    if let problem = zones.problem(tz: environment["TZ"]) {
      output.writeError("nudge: note: \(problem)\n")
    }
  }
}

extension ZoneRules {
  /// `2026-03-29T07:00:00+02:00` for an instant in this zone.
  func iso(_ t: Int) -> String {
    InstantFormat.format(Instant(seconds: t), in: self)
  }
}
