// The notification server probe: the session bus, the server's name and capabilities (one
// bounded D-Bus call), why nothing can be shown, and the wait for a server to appear.

internal import CDesktop
import FoundationEssentials
import Glibc
import NudgeCore
import Synchronization

extension LibnotifyNotifier {
  public func unavailableReason(waitingForServer seconds: Double) -> String? {
    serverProblem(waitingUpTo: seconds)?.message
  }

  public func inspect() -> DesktopNotification.ServerStatus {
    guard hasSessionBus else { return .noSessionBus }
    switch probe(askingName: true) {
    case .success(let info): return .server(name: info.name, capabilities: info.capabilities)
    case .failure(let error): return .noServer(error.message)
    }
  }

  /// The notification server's name and capabilities, or why there is none.
  public struct ServerInfo: Equatable, Sendable {
    public var name: String
    public var capabilities: [String]
  }

  /// A session bus we may use without GLib auto-launching a new one.
  public var hasSessionBus: Bool {
    if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return true }
    if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
      return FileManager.default.fileExists(atPath: runtime + "/bus")
    }
    return false
  }

  /// Asks the server directly (1.2-second bound a call, 2.9 in all) for its capabilities, and
  /// its name only when asked (doctor): one D-Bus call before a post.
  public func probe(askingName: Bool = false) -> Result<ServerInfo, ProbeError> {
    if let missing = Self.libraryMissing { return .failure(missing) }
    guard hasSessionBus else { return .failure(.noSessionBus()) }
    let result = bounded { unboundedProbe(askingName: askingName) }
    if case .success(let info) = result {
      lastServer.withLock { $0 = (info, ContinuousClock.now) }
    }
    return result
  }

  private func unboundedProbe(askingName: Bool) -> Result<ServerInfo, ProbeError> {
    var error: UnsafeMutablePointer<GError>? = nil
    guard let bus = nd_g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
      let message = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
      nd_g_clear_error(&error)
      return .failure(.noSessionBus(message))
    }
    defer { nd_g_object_unref(UnsafeMutableRawPointer(bus)) }
    func call(_ method: String, _ type: String) -> OpaquePointer? {
      let replyType = nd_g_variant_type_new(type)
      defer { nd_g_variant_type_free(replyType) }
      let reply = nd_g_dbus_connection_call_sync(
        bus, "org.freedesktop.Notifications", "/org/freedesktop/Notifications",
        "org.freedesktop.Notifications", method, nil, replyType,
        G_DBUS_CALL_FLAGS_NONE, 1200, nil, &error)
      return reply
    }
    guard let caps = call("GetCapabilities", "(as)") else {
      let message = error.map { String(cString: $0.pointee.message) } ?? "no answer"
      nd_g_clear_error(&error)
      return .failure(.noServer(message))
    }
    defer { nd_g_variant_unref(caps) }
    var capabilities: [String] = []
    let list = nd_g_variant_get_child_value(caps, 0)
    let count = nd_g_variant_n_children(list)
    for i in 0..<count {
      let item = nd_g_variant_get_child_value(list, i)
      capabilities.append(String(cString: nd_g_variant_get_string(item, nil)))
      nd_g_variant_unref(item)
    }
    nd_g_variant_unref(list)
    var name = "the notification server"
    if askingName, let info = call("GetServerInformation", "(ssss)") {
      let first = nd_g_variant_get_child_value(info, 0)
      name = String(cString: nd_g_variant_get_string(first, nil))
      nd_g_variant_unref(first)
      nd_g_variant_unref(info)
    } else if askingName {
      nd_g_clear_error(&error)
    }
    return .success(ServerInfo(name: name, capabilities: capabilities))
  }

  /// libnotify (with GLib and GIO), loaded on first use: why it cannot be, if it cannot.
  static var libraryMissing: ProbeError? {
    nd_load(ND_NOTIFY).map { .noLibrary(String(cString: $0)) }
  }

  /// Why no notification can be shown.
  public enum ProbeError: Error, Equatable, Sendable {
    case noLibrary(String)
    case noSessionBus(String = "no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set)")
    case noServer(String)
    case noActions(String)

    public var message: String {
      switch self {
      case .noLibrary(let m):
        "libnotify cannot be loaded (\(m)); install it: apt-get install libnotify4"
      case .noSessionBus(let m): m
      case .noServer(let m): "no notification server answered: \(m)"
      case .noActions(let m):
        "\(m) cannot show buttons (no 'actions' capability)"
      }
    }
  }

  /// Why no reminder can be shown, after waiting up to `seconds` for a server to appear (a stop
  /// signal ends the wait); nil when a server with buttons is there.
  public func serverProblem(waitingUpTo seconds: Double) -> ProbeError? {
    if let missing = Self.libraryMissing { return missing }
    let watch = WaitState()
    let signals = [SIGTERM, SIGINT, SIGHUP].map { watch.onSignal($0) }
    defer { for id in signals { nd_g_source_remove(id) } }
    if case .failure(let error) = findServer(waitingUpTo: seconds, watch) { return error }
    return nil
  }

  /// A server with the `actions` capability, waiting up to `seconds` for one to appear on the
  /// bus when there is none (not for one that is there but does not answer).
  func findServer(waitingUpTo seconds: Double, _ watch: WaitState, justVanished: Bool = false)
    -> Result<ServerInfo, ProbeError>
  {
    let recent = lastServer.withLock { last in
      last.flatMap { ContinuousClock.now - $0.at < .seconds(2) ? $0.info : nil }
    }
    var result: Result<ServerInfo, ProbeError> =
      justVanished
      ? .failure(.noServer("the notification server went away"))
      : recent.map { .success($0) } ?? probe()
    if case .failure(.noServer) = result, seconds > 0, hasSessionBus {
      if watch.waitForServer(seconds: seconds) { result = probe() }
    }
    if case .success(let info) = result, !info.capabilities.contains("actions") {
      return .failure(.noActions(info.name))
    }
    return result
  }
}
