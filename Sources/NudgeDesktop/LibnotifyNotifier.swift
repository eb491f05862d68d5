import CDesktop
import Dispatch
import FoundationEssentials
import Glibc
import NudgeCore
import Synchronization

/// Posts notifications through libnotify and waits in a GLib main loop for the click. Every
/// D-Bus call is bounded: the server is asked for its capabilities with a 2-second timeout
/// before libnotify (whose own calls wait 25 s) is used.
public final class LibnotifyNotifier: Notifier {
  let environment: [String: String]
  /// Runs if a D-Bus call is still blocked after `deadline` seconds; it must end the process
  /// (the blocked call cannot be abandoned). The default prints one line and exits 69.
  private let onHang = Mutex<@Sendable () -> Void>({
    StandardStreams.write(
      "nudge: the notification server did not answer within 3 seconds.\n", to: STDERR_FILENO)
    _exit(69)
  })
  public let deadline = 2.9

  public init(environment: [String: String]) { self.environment = environment }

  public func whenServerHangs(_ handler: @escaping @Sendable () -> Void) {
    onHang.withLock { $0 = handler }
  }

  public func unavailableReason(waitingForServer seconds: Double) -> String? {
    serverProblem(waitingUpTo: seconds)?.message
  }

  public func inspect() -> NotificationSession {
    guard hasSessionBus else { return .noSessionBus }
    switch probe(askingName: true) {
    case .success(let info): return .server(name: info.name, capabilities: info.capabilities)
    case .failure(let error): return .noServer(error.message)
    }
  }

  /// Runs `body` with a watchdog: no D-Bus wait may outlast `deadline`.
  func bounded<T>(_ body: () -> T) -> T {
    let handler: @Sendable () -> Void = onHang.withLock { $0 }
    let item = DispatchWorkItem { handler() }
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

  /// The server the last probe found, and when: a post right after `unavailableReason` uses
  /// it instead of asking again (a server gone since makes the post itself fail).
  private let lastServer = Mutex<(info: ServerInfo, at: ContinuousClock.Instant)?>(nil)

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

  /// Shows `notification` on the server found now (or by the check just before it), then waits for a
  /// click, a close, the end of the wait, the flow done elsewhere or a stop signal; whatever
  /// ends the wait without a click takes the notification off the screen. A server that is not
  /// there yet (login catch-up) or restarts while the notification is shown is waited for,
  /// bounded, and the notification is shown on the new one, once.
  public func post(_ notification: DesktopNotification, wait: NotificationWait)
    -> NotificationOutcome
  {
    if let missing = Self.libraryMissing { return .undelivered(missing.message) }
    if wait.seconds <= 0 {
      let outcome = leave(notification)
      if outcome == .left { wait.onShown() }
      return outcome
    }
    let started = ContinuousClock.now
    func remaining() -> Double {
      let elapsed = (ContinuousClock.now - started).components
      return wait.seconds - Double(elapsed.seconds) - Double(elapsed.attoseconds) / 1e18
    }
    let watch = WaitState()
    let signals = [SIGTERM, SIGINT, SIGHUP].map { watch.onSignal($0) }
    defer { for id in signals { nd_g_source_remove(id) } }
    if case .failure(let error) = findServer(waitingUpTo: wait.serverSeconds, watch) {
      return .undelivered(error.message)
    }
    var reposted = false
    while true {
      let shown = show(notification, watch)
      guard let note = shown.note else { return .undelivered(shown.error) }
      defer { nd_g_object_unref(UnsafeMutableRawPointer(note)) }
      if !reposted { wait.onShown() }
      // a reminder may wait for hours: what start-up touched goes back first
      if remaining() > 5 { IdleMemory.release() }
      let end = watch.waitForAnswer(
        seconds: max(0.001, remaining()), watchDirectory: wait.watchDirectory,
        isDoneElsewhere: wait.isDoneElsewhere)
      switch end {
      case .action(let id):
        bounded { _ = nd_notify_notification_close(note, nil) }
        return .action(ReminderAction(rawValue: id) ?? .open)
      case .closed:
        return .closed
      case .expired, .doneElsewhere, .stopped:
        bounded { _ = nd_notify_notification_close(note, nil) }
        let reason: Withdrawal =
          end == .expired ? .expired : end == .doneElsewhere ? .doneElsewhere : .stopped
        return .withdrawn(reason)
      case .serverGone:
        // a notification server restarted: show it again on the new one, once
        guard !reposted, remaining() > 0 else {
          return .undelivered("the notification server went away before the reminder was answered")
        }
        reposted = true
        let bound = min(max(wait.serverSeconds, 2), remaining())
        if case .failure(let error) = findServer(waitingUpTo: bound, watch, justVanished: true) {
          return .undelivered(error.message)
        }
      }
    }
  }

  /// Shows a notification without buttons and leaves it for the server to expire: no probe (a
  /// missing server fails the Notify call itself), no main loop, nothing waits.
  func leave(_ notification: DesktopNotification) -> NotificationOutcome {
    // never let GLib start a session bus of its own (it would outlive this command)
    guard hasSessionBus else { return .undelivered(ProbeError.noSessionBus().message) }
    var plain = notification
    plain.actions = []
    let shown = show(plain, WaitState())
    guard let note = shown.note else { return .undelivered(shown.error) }
    nd_g_object_unref(UnsafeMutableRawPointer(note))
    return .left
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

  /// Creates and shows the notification through a fresh libnotify connection (libnotify caches
  /// the server's unique name, which a restarted server no longer has).
  func show(_ notification: DesktopNotification, _ watch: WaitState) -> (
    note: UnsafeMutablePointer<NotifyNotification>?, error: String
  ) {
    if nd_notify_is_initted() != 0 { nd_notify_uninit() }
    nd_notify_init("nudge")
    guard
      let note = nd_notify_notification_new(
        notification.title, notification.body, notification.icon)
    else {
      return (nil, "libnotify could not create the notification")
    }
    nd_notify_notification_set_app_name(note, "nudge")
    // a reminder with buttons stays until answered or withdrawn; one without, the server's time
    nd_notify_notification_set_timeout(
      note, notification.actions.isEmpty ? NOTIFY_EXPIRES_DEFAULT : NOTIFY_EXPIRES_NEVER)
    nd_notify_notification_set_hint(note, "desktop-entry", nd_g_variant_new_string("nudge"))
    let userData = Unmanaged.passUnretained(watch).toOpaque()
    for action in notification.actions {
      nd_notify_notification_add_action(
        note, action.id, action.label,
        { _, action, data in
          guard let data, let action else { return }
          Unmanaged<WaitState>.fromOpaque(data).takeUnretainedValue().end(
            .action(String(cString: action)))
        }, userData, nil)
    }
    let closed: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = {
      _, data in
      guard let data else { return }
      Unmanaged<WaitState>.fromOpaque(data).takeUnretainedValue().end(.closed)
    }
    nd_g_signal_connect_data(
      UnsafeMutableRawPointer(note), "closed", unsafeBitCast(closed, to: GCallback.self), userData,
      nil, GConnectFlags(rawValue: 0))
    var error: UnsafeMutablePointer<GError>? = nil
    guard bounded({ nd_notify_notification_show(note, &error) }) != 0 else {
      let message = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
      nd_g_clear_error(&error)
      nd_g_object_unref(UnsafeMutableRawPointer(note))
      return (nil, "the notification server refused it: \(message)")
    }
    return (note, "")
  }
}

/// One wait in a GLib main loop and what ended it; the C callbacks reach it through
/// `user_data`. Stop signals (TERM, INT, HUP) are watched for as long as it lives.
final class WaitState {
  /// What ended a wait.
  enum End: Equatable {
    case action(String)
    case closed, expired, doneElsewhere, stopped, serverGone
  }

  var ended: End?
  var serverAppeared = false
  private var loop: OpaquePointer?
  private var isDoneElsewhere: @Sendable () -> Bool = { false }

  /// Ends the current wait (the first reason wins).
  func end(_ reason: End) {
    if ended == nil { ended = reason }
    if let loop { nd_g_main_loop_quit(loop) }
  }

  /// Watches a stop signal: it ends the current wait, or the next one at once.
  func onSignal(_ signal: Int32) -> UInt32 {
    nd_g_unix_signal_add(
      signal,
      { data in
        guard let data else { return 0 }
        let state = Unmanaged<WaitState>.fromOpaque(data).takeUnretainedValue()
        state.stopRequested = true
        state.end(.stopped)
        return 1
      }, Unmanaged.passUnretained(self).toOpaque())
  }
  var stopRequested = false

  /// Runs the loop until `ended` is set or `seconds` pass (then `expired`).
  private func run(seconds: Double) -> End {
    if stopRequested { return .stopped }
    ended = nil
    let loop = nd_g_main_loop_new(nil, 0)
    self.loop = loop
    let data = Unmanaged.passUnretained(self).toOpaque()
    let timer = nd_g_timeout_add(
      UInt32(min(max(1, seconds * 1000), Double(UInt32.max))),
      { data in
        guard let data else { return 0 }
        Unmanaged<WaitState>.fromOpaque(data).takeUnretainedValue().end(.expired)
        return 0
      }, data)
    nd_g_main_loop_run(loop)
    if ended != .expired { nd_g_source_remove(timer) }
    nd_g_main_loop_unref(loop)
    self.loop = nil
    return ended ?? .expired
  }

  /// Waits for the server's answer to a shown notification; the server leaving the bus or
  /// (after a change in `watchDirectory`) the flow being done elsewhere ends the wait too.
  func waitForAnswer(
    seconds: Double, watchDirectory: String?, isDoneElsewhere: @escaping @Sendable () -> Bool
  ) -> End {
    self.isDoneElsewhere = isDoneElsewhere
    let data = Unmanaged.passUnretained(self).toOpaque()
    let watch = nd_g_bus_watch_name(
      G_BUS_TYPE_SESSION, "org.freedesktop.Notifications", G_BUS_NAME_WATCHER_FLAGS_NONE, nil,
      { _, _, data in
        guard let data else { return }
        Unmanaged<WaitState>.fromOpaque(data).takeUnretainedValue().end(.serverGone)
      }, data, nil)
    defer { nd_g_bus_unwatch_name(watch) }
    let monitor = watchDirectory.flatMap { path in
      let directory = nd_g_file_new_for_path(path)
      defer { nd_g_object_unref(UnsafeMutableRawPointer(directory)) }
      return nd_g_file_monitor_directory(directory, G_FILE_MONITOR_NONE, nil, nil)
    }
    if let monitor {
      nd_g_file_monitor_set_rate_limit(monitor, 500)
      let changed:
        @convention(c) (
          UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UInt32,
          UnsafeMutableRawPointer?
        ) -> Void = { _, _, _, _, data in
          guard let data else { return }
          let state = Unmanaged<WaitState>.fromOpaque(data).takeUnretainedValue()
          if state.isDoneElsewhere() {
            state.end(.doneElsewhere)
          } else {
            IdleMemory.release()  // the check touched the store's code: back to waiting light
          }
        }
      nd_g_signal_connect_data(
        UnsafeMutableRawPointer(monitor), "changed", unsafeBitCast(changed, to: GCallback.self),
        data, nil, GConnectFlags(rawValue: 0))
    }
    defer {
      if let monitor {
        nd_g_file_monitor_cancel(monitor)
        nd_g_object_unref(UnsafeMutableRawPointer(monitor))
      }
    }
    if isDoneElsewhere() { return .doneElsewhere }
    return run(seconds: seconds)
  }

  /// Waits up to `seconds` for a notification server to own its name on the bus.
  func waitForServer(seconds: Double) -> Bool {
    serverAppeared = false
    let data = Unmanaged.passUnretained(self).toOpaque()
    let watch = nd_g_bus_watch_name(
      G_BUS_TYPE_SESSION, "org.freedesktop.Notifications", G_BUS_NAME_WATCHER_FLAGS_NONE,
      { _, _, _, data in
        guard let data else { return }
        let state = Unmanaged<WaitState>.fromOpaque(data).takeUnretainedValue()
        state.serverAppeared = true
        state.end(.action("server"))
      }, nil, data, nil)
    defer { nd_g_bus_unwatch_name(watch) }
    _ = run(seconds: seconds)
    return serverAppeared
  }
}
