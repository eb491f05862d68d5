import CLibnotify
import Foundation
import NudgeCore

/// Posts notifications through libnotify and waits in a GLib main loop for the click. Every
/// D-Bus call is bounded: the server is asked for its capabilities with a 2-second timeout
/// before libnotify (whose own calls wait 25 s) is used.
public final class LibnotifyNotifier: Notifier {
  let environment: [String: String]
  /// Runs if a D-Bus call is still blocked after `deadline` seconds; it must end the process
  /// (the blocked call cannot be abandoned). The default prints one line and exits 69.
  public var onHang: @Sendable () -> Void = {
    FileHandle.standardError.write(
      Data("nudge: the notification server did not answer within 3 seconds.\n".utf8))
    _exit(69)
  }
  public var deadline = 2.9

  public init(environment: [String: String]) { self.environment = environment }

  /// Runs `body` with a watchdog: no D-Bus wait may outlast `deadline`.
  func bounded<T>(_ body: () -> T) -> T {
    let item = DispatchWorkItem(block: onHang)
    DispatchQueue.global().asyncAfter(deadline: .now() + deadline, execute: item)
    defer { item.cancel() }
    return body()
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

  /// Asks the server directly (1.2-second bound a call, 2.9 in all) for its name and
  /// capabilities.
  public func probe() -> Result<ServerInfo, ProbeError> {
    guard hasSessionBus else { return .failure(.noSessionBus()) }
    return bounded { unboundedProbe() }
  }

  private func unboundedProbe() -> Result<ServerInfo, ProbeError> {
    var error: UnsafeMutablePointer<GError>? = nil
    guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
      let message = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
      g_clear_error(&error)
      return .failure(.noSessionBus(message))
    }
    defer { g_object_unref(UnsafeMutableRawPointer(bus)) }
    func call(_ method: String, _ type: String) -> OpaquePointer? {
      let reply = g_dbus_connection_call_sync(
        bus, "org.freedesktop.Notifications", "/org/freedesktop/Notifications",
        "org.freedesktop.Notifications", method, nil, g_variant_type_new(type),
        G_DBUS_CALL_FLAGS_NONE, 1200, nil, &error)
      return reply
    }
    guard let caps = call("GetCapabilities", "(as)") else {
      let message = error.map { String(cString: $0.pointee.message) } ?? "no answer"
      g_clear_error(&error)
      return .failure(.noServer(message))
    }
    defer { g_variant_unref(caps) }
    var capabilities: [String] = []
    let list = g_variant_get_child_value(caps, 0)
    let count = g_variant_n_children(list)
    for i in 0..<count {
      let item = g_variant_get_child_value(list, i)
      capabilities.append(String(cString: g_variant_get_string(item, nil)))
      g_variant_unref(item)
    }
    g_variant_unref(list)
    var name = "unknown"
    if let info = call("GetServerInformation", "(ssss)") {
      let first = g_variant_get_child_value(info, 0)
      name = String(cString: g_variant_get_string(first, nil))
      g_variant_unref(first)
      g_variant_unref(info)
    } else {
      g_clear_error(&error)
    }
    return .success(ServerInfo(name: name, capabilities: capabilities))
  }

  /// Why no notification can be shown.
  public enum ProbeError: Error, Equatable, Sendable {
    case noSessionBus(String = "no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set)")
    case noServer(String)
    case noActions(String)

    public var message: String {
      switch self {
      case .noSessionBus(let m): m
      case .noServer(let m): "no notification server answered: \(m)"
      case .noActions(let m):
        "the notification server \(m) cannot show buttons (no 'actions' capability)"
      }
    }
  }

  public func post(_ notification: DesktopNotification, waitSeconds: Double) -> NotificationOutcome
  {
    let info: ServerInfo
    switch probe() {
    case .failure(let error): return .undelivered(error.message)
    case .success(let found): info = found
    }
    guard info.capabilities.contains("actions") else {
      return .undelivered(ProbeError.noActions(info.name).message)
    }
    if notify_is_initted() == 0 { notify_init("nudge") }
    guard let note = notify_notification_new(notification.title, notification.body, nil) else {
      return .undelivered("libnotify could not create the notification")
    }
    defer { g_object_unref(UnsafeMutableRawPointer(note)) }
    notify_notification_set_app_name(note, "nudge")
    notify_notification_set_timeout(note, NOTIFY_EXPIRES_NEVER)
    notify_notification_set_hint(note, "desktop-entry", g_variant_new_string("nudge"))
    let state = PostState()
    let userData = Unmanaged.passUnretained(state).toOpaque()
    for action in notification.actions {
      notify_notification_add_action(
        note, action.id, action.label,
        { _, action, data in
          guard let data, let action else { return }
          let state = Unmanaged<PostState>.fromOpaque(data).takeUnretainedValue()
          state.action = String(cString: action)
          if let loop = state.loop { g_main_loop_quit(loop) }
        }, userData, nil)
    }
    let closed: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = {
      _, data in
      guard let data else { return }
      let state = Unmanaged<PostState>.fromOpaque(data).takeUnretainedValue()
      state.closed = true
      if let loop = state.loop { g_main_loop_quit(loop) }
    }
    g_signal_connect_data(
      UnsafeMutableRawPointer(note), "closed", unsafeBitCast(closed, to: GCallback.self), userData,
      nil, GConnectFlags(rawValue: 0))
    var error: UnsafeMutablePointer<GError>? = nil
    guard bounded({ notify_notification_show(note, &error) }) != 0 else {
      let message = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
      g_clear_error(&error)
      return .undelivered("the notification server refused it: \(message)")
    }
    let loop = g_main_loop_new(nil, 0)
    state.loop = loop
    // a server that exits (or restarts) takes the notification with it: stop waiting then
    let watch = g_bus_watch_name(
      G_BUS_TYPE_SESSION, "org.freedesktop.Notifications", G_BUS_NAME_WATCHER_FLAGS_NONE, nil,
      { _, _, data in
        guard let data else { return }
        let state = Unmanaged<PostState>.fromOpaque(data).takeUnretainedValue()
        state.serverGone = true
        if let loop = state.loop { g_main_loop_quit(loop) }
      }, userData, nil)
    defer { g_bus_unwatch_name(watch) }
    let timer = g_timeout_add(
      UInt32(max(1, waitSeconds * 1000)),
      { data in
        guard let data else { return 0 }
        let state = Unmanaged<PostState>.fromOpaque(data).takeUnretainedValue()
        state.timedOut = true
        if let loop = state.loop { g_main_loop_quit(loop) }
        return 0
      }, userData)
    g_main_loop_run(loop)
    if !state.timedOut { g_source_remove(timer) }
    g_main_loop_unref(loop)
    state.loop = nil
    if let action = state.action {
      // the click is handled: take the notification off the screen (bounded by the probe above)
      notify_notification_close(note, nil)
      return .action(action)
    }
    if state.closed { return .closed }
    if state.serverGone {
      return .undelivered("the notification server went away before the reminder was answered")
    }
    return .timedOut
  }
}

/// What the C callbacks report back through `user_data`.
final class PostState {
  var action: String?
  var closed = false
  var timedOut = false
  var serverGone = false
  var loop: OpaquePointer?
}
