// The libnotify `Notifier`: the post and its wait for an answer. The server probe is in
// LibnotifyProbe.swift, the hang watchdog in NotificationWatchdog.swift and the GLib main
// loop in WaitState.swift.

internal import CDesktop
import Glibc
import NudgeCore
import Synchronization

/// Posts notifications through libnotify and waits in a GLib main loop for the click; one
/// nobody waits for goes straight over the bus's socket (`BusPost`). Every D-Bus call is
/// bounded: the server is asked for its capabilities with a 2-second timeout before libnotify
/// (whose own calls wait 25 s) is used.
public final class LibnotifyNotifier: Notifier {
  let environment: [String: String]
  /// Runs if a D-Bus call is still blocked after `deadline` seconds; it must end the process
  /// (the blocked call cannot be abandoned). The default prints one line and exits 69.
  let onHang = Mutex<@Sendable () -> Void>({
    StandardStreams.write(
      "nudge: the notification server did not answer within 3 seconds.\n", to: STDERR_FILENO)
    _exit(69)
  })
  public let deadline = 2.9

  public init(environment: [String: String]) { self.environment = environment }

  /// The server the last probe found, and when: a post right after `unavailableReason` uses
  /// it instead of asking again (a server gone since makes the post itself fail).
  let lastServer = Mutex<(info: ServerInfo, at: ContinuousClock.Instant)?>(nil)

  /// Shows `notification` on the server found now (or by the check just before it), then waits for a
  /// click, a close, the end of the wait, the flow done elsewhere or a stop signal; whatever
  /// ends the wait without a click takes the notification off the screen. A server that is not
  /// there yet (login catch-up) or restarts while the notification is shown is waited for,
  /// bounded, and the notification is shown on the new one, once.
  public func post(_ notification: DesktopNotification, wait: DesktopNotification.Wait)
    -> DesktopNotification.Ending
  {
    if wait.seconds <= 0 {
      // nobody waits for Do Not Disturb to end: it is held or shown, as the post found it
      let (outcome, visibility) = leave(notification)
      if outcome == .left { wait.onVisibility(visibility) }
      return outcome
    }
    if let missing = Self.libraryMissing { return .undelivered(missing.message) }
    let started = ContinuousClock.now
    func remaining() -> Double {
      let elapsed = (ContinuousClock.now - started).components
      return wait.seconds - Double(elapsed.seconds) - Double(elapsed.attoseconds) / 1e18
    }
    let watch = WaitState()
    let signals = [SIGTERM, SIGINT, SIGHUP].map { watch.onSignal($0) }
    defer { for id in signals { nd_g_source_remove(id) } }
    var server: ServerInfo
    switch findServer(waitingUpTo: wait.serverSeconds, watch) {
    case .failure(let error): return .undelivered(error.message)
    case .success(let info): server = info
    }
    var reposted = false
    while true {
      let shown = show(notification, watch, server: server)
      guard let note = shown.note else { return .undelivered(shown.error) }
      defer { nd_g_object_unref(UnsafeMutableRawPointer(note)) }
      // Do Not Disturb: the server has it but shows nothing until it is switched off
      var held = shown.visibility == .held
      if !reposted { wait.onVisibility(held ? .held : .shown) }
      // a reminder may wait for hours: what start-up touched goes back first
      if remaining() > 5 { IdleMemory.release() }
      let heldServer = server
      let end = watch.waitForAnswer(
        seconds: max(0.001, remaining()), watchDirectories: wait.watchDirectories,
        isDoneElsewhere: wait.isDoneElsewhere,
        held: held
          ? WaitState.HeldWatch(
            isHeld: { self.isHeldByDoNotDisturb(heldServer) },
            released: {
              held = false
              wait.onVisibility(.shown)
            }) : nil)
      switch end {
      case .action(let id, let token):
        bounded { _ = nd_notify_notification_close(note, nil) }
        return .action(Reminder.Action(rawValue: id) ?? .open, activationToken: token)
      case .closed(let reason):
        return .closed(CloseReason(code: Int(reason)))
      case .expired, .doneElsewhere, .stopped:
        // the window's last look: switched off since the last ask, it was seen after all
        if end == .expired && held && !isHeldByDoNotDisturb(server) {
          wait.onVisibility(.shown)
        }
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
        switch findServer(waitingUpTo: bound, watch, justVanished: true) {
        case .failure(let error): return .undelivered(error.message)
        case .success(let info): server = info
        }
      }
    }
  }

  /// Shows a notification without buttons and leaves it for the server to expire: no probe (a
  /// missing server fails the Notify call itself), no main loop, nothing waits. Whether Do Not
  /// Disturb holds it is asked with the post (no capabilities call for it: the server is asked
  /// for `Inhibited` directly). Straight over the bus's Unix socket (`BusPost`), without
  /// loading GLib; through libnotify only on a bus reached otherwise (tcp, launchd).
  func leave(_ notification: DesktopNotification) -> (DesktopNotification.Ending, Visibility) {
    // never let GLib start a session bus of its own (it would outlive this command)
    guard hasSessionBus else {
      return (.undelivered(ProbeError.noSessionBus().message), .shown)
    }
    var plain = notification
    plain.actions = []
    if let endpoint = SessionBusSocket.endpoint(environment: environment) {
      let post = BusPost(endpoint: endpoint, deadline: .now + .seconds(deadline))
      let shown = post.leave(
        plain, server: lastServer.withLock { $0?.info },
        gnomeShowsBanners: {
          // GNOME's switch is a GSettings key: GLib is loaded for it, on GNOME only
          Self.libraryMissing == nil ? DoNotDisturb.gnomeShowsBanners() : true
        })
      switch shown {
      case .success(let visibility): return (.left, visibility)
      case .failure(let failure): return (.undelivered(failure.message), .shown)
      }
    }
    if let missing = Self.libraryMissing { return (.undelivered(missing.message), .shown) }
    // a body link needs to know whether the server makes it clickable: the last probe says
    let known = lastServer.withLock { $0?.info }
    let server = notification.link == nil ? nil : known ?? (try? probe().get())
    let shown = show(plain, WaitState(), server: server)
    guard let note = shown.note else { return (.undelivered(shown.error), .shown) }
    nd_g_object_unref(UnsafeMutableRawPointer(note))
    return (.left, shown.visibility)
  }

  /// Creates and shows the notification through a fresh libnotify connection (libnotify caches
  /// the server's unique name, which a restarted server no longer has), with whether Do Not
  /// Disturb holds it, asked with the Notify call (`DoNotDisturbAsk`).
  func show(_ notification: DesktopNotification, _ watch: WaitState, server: ServerInfo?) -> (
    note: UnsafeMutablePointer<NotifyNotification>?, error: String, visibility: Visibility
  ) {
    if nd_notify_is_initted() != 0 { nd_notify_uninit() }
    nd_notify_init("nudge")
    let hyperlinks = server?.capabilities.contains("body-hyperlinks") ?? false
    guard
      let note = nd_notify_notification_new(
        VisibleText.escaped(notification.title),
        VisibleText.escapedLines(notification.body(hyperlinks: hyperlinks)), notification.icon)
    else {
      return (nil, "libnotify could not create the notification", .shown)
    }
    nd_notify_notification_set_app_name(note, "nudge")
    // for the desktop's rules (dunst, mako, swaync match the category); never above normal,
    // so Do Not Disturb holds a reminder back as it should
    nd_notify_notification_set_category(note, notification.category)
    nd_notify_notification_set_urgency(note, NOTIFY_URGENCY_NORMAL)
    // a reminder with buttons stays until answered or withdrawn; one without, the server's time
    nd_notify_notification_set_timeout(
      note, notification.actions.isEmpty ? NOTIFY_EXPIRES_DEFAULT : NOTIFY_EXPIRES_NEVER)
    nd_notify_notification_set_hint(note, "desktop-entry", nd_g_variant_new_string("nudge"))
    let userData = Unmanaged.passUnretained(watch).toOpaque()
    for action in notification.actions {
      nd_notify_notification_add_action(
        note, action.id, action.label,
        { note, action, data in
          guard let data, let action else { return }
          // the server's ActivationToken signal came just before: libnotify holds it now only
          let token = note.flatMap { nd_activation_token($0) }.map { String(cString: $0) }
          Unmanaged<WaitState>.fromOpaque(data).takeUnretainedValue().end(
            .action(String(cString: action), token: token?.isEmpty == false ? token : nil))
        }, userData, nil)
    }
    let closed: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = {
      note, data in
      guard let data else { return }
      let reason = note.map {
        nd_notify_notification_get_closed_reason(
          $0.assumingMemoryBound(to: NotifyNotification.self))
      }
      Unmanaged<WaitState>.fromOpaque(data).takeUnretainedValue().end(
        .closed(reason: reason ?? -1))
    }
    nd_g_signal_connect_data(
      UnsafeMutableRawPointer(note), "closed", unsafeBitCast(closed, to: GCallback.self), userData,
      nil, GConnectFlags(rawValue: 0))
    var error: UnsafeMutablePointer<GError>? = nil
    var ask: DoNotDisturbAsk?
    let posted = bounded {
      ask = DoNotDisturbAsk.send(server)  // before Notify: answered before it is drawn
      return nd_notify_notification_show(note, &error)
    }
    guard posted != 0 else {
      let message = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
      nd_g_clear_error(&error)
      nd_g_object_unref(UnsafeMutableRawPointer(note))
      return (nil, "the notification server refused it: \(message)", .shown)
    }
    return (note, "", bounded { ask?.visibility() } ?? .shown)
  }
}
