internal import CDesktop
import FoundationEssentials
import Glibc
import Logging

/// Tells systemd about a service's state through `sd_notify` (READY=1, WATCHDOG=1, STATUS=…).
public enum ServiceNotifier {
  /// Sends a notification; a no-op when `NOTIFY_SOCKET` is not set.
  @discardableResult
  public static func notify(_ state: String) -> Bool {
    // no manager listening: libsystemd is not even loaded
    guard getenv("NOTIFY_SOCKET") != nil, nd_load(ND_SYSTEMD) == nil else { return false }
    return nd_sd_notify(0, state) > 0
  }

  /// How often the watchdog wants a ping (half its timeout), when one is configured.
  public static var watchdogInterval: Duration? {
    var usec: UInt64 = 0
    guard getenv("WATCHDOG_USEC") != nil, nd_load(ND_SYSTEMD) == nil,
      nd_sd_watchdog_enabled(0, &usec) > 0, usec > 0
    else { return nil }
    return .microseconds(Int64(usec / 2))
  }
}

/// The service manager that runs Nudge (systemd): readiness, status and watchdog pings.
public protocol ServiceManager: Sendable {
  /// Sends a state (`READY=1`, `WATCHDOG=1`…); false when no manager listens.
  @discardableResult func notify(_ state: String) -> Bool
  /// How often the watchdog wants a ping, when one is configured.
  var watchdogInterval: Duration? { get }
}

/// systemd through `sd_notify`.
public struct SystemdServiceManager: ServiceManager {
  public init() {}

  @discardableResult public func notify(_ state: String) -> Bool { ServiceNotifier.notify(state) }

  public var watchdogInterval: Duration? { ServiceNotifier.watchdogInterval }
}

/// A swift-log handler that writes to the systemd journal with priorities and fields.
public struct JournalLogHandler: LogHandler {
  public var metadata: Logger.Metadata = [:]
  public var logLevel: Logger.Level = .info
  let label: String

  public init(label: String) { self.label = label }

  public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  public func log(event: LogEvent) {
    let priority: Journal.Priority =
      switch event.level {
      case .critical, .error: .error
      case .warning: .warning
      default: .info
      }
    var fields: [String: String] = [:]
    for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 }) {
      fields["NUDGE_" + key.uppercased().replacing("-", with: "_")] = "\(value)"
    }
    Journal.send("\(event.message)", priority: priority, fields: fields)
  }
}
