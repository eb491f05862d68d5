// The GLib main-loop wait: a shown notification's answer, a server leaving or appearing on
// the bus, the flow done elsewhere, stop signals.

internal import CDesktop
import Glibc

/// One wait in a GLib main loop and what ended it; the C callbacks reach it through
/// `user_data`. Stop signals (TERM, INT, HUP) are watched for as long as it lives.
final class WaitState {
  /// What ended a wait.
  enum End: Equatable {
    /// An action, with the activation token the server sent just before it (if any).
    case action(String, token: String?)
    /// Closed by the server, with its reason (1 expired, 2 dismissed, 3 closed by a call).
    case closed(reason: Int32)
    case expired, doneElsewhere, stopped, serverGone
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

  /// Asked every 2 seconds while a notification is held back by Do Not Disturb: true while it
  /// still is; once false, `released` runs and the asking stops.
  struct HeldWatch {
    var isHeld: () -> Bool
    var released: () -> Void
  }
  private var heldWatch: HeldWatch?

  /// Waits for the server's answer to a shown notification; the server leaving the bus or
  /// (after a change in one of `watchDirectories`) the flow being done elsewhere ends the wait too.
  /// `held`, when given, is asked until Do Not Disturb lets the notification through.
  func waitForAnswer(
    seconds: Double, watchDirectories: [String], isDoneElsewhere: @escaping @Sendable () -> Bool,
    held: HeldWatch? = nil
  ) -> End {
    self.isDoneElsewhere = isDoneElsewhere
    let data = Unmanaged.passUnretained(self).toOpaque()
    heldWatch = held
    let heldTimer =
      held == nil
      ? nil
      : nd_g_timeout_add(
        2000,
        { data in
          guard let data else { return 0 }
          let state = Unmanaged<WaitState>.fromOpaque(data).takeUnretainedValue()
          guard let watch = state.heldWatch, !watch.isHeld() else { return 1 }
          state.heldWatch = nil
          watch.released()
          return 0
        }, data)
    defer {
      if let heldTimer, heldWatch != nil { nd_g_source_remove(heldTimer) }
      heldWatch = nil
    }
    let watch = nd_g_bus_watch_name(
      G_BUS_TYPE_SESSION, "org.freedesktop.Notifications", G_BUS_NAME_WATCHER_FLAGS_NONE, nil,
      { _, _, data in
        guard let data else { return }
        Unmanaged<WaitState>.fromOpaque(data).takeUnretainedValue().end(.serverGone)
      }, data, nil)
    defer { nd_g_bus_unwatch_name(watch) }
    let monitors = watchDirectories.compactMap { path in
      let directory = nd_g_file_new_for_path(path)
      defer { nd_g_object_unref(UnsafeMutableRawPointer(directory)) }
      return nd_g_file_monitor_directory(directory, G_FILE_MONITOR_NONE, nil, nil)
    }
    for monitor in monitors {
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
      for monitor in monitors {
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
        state.end(.action("server", token: nil))
      }, nil, data, nil)
    defer { nd_g_bus_unwatch_name(watch) }
    _ = run(seconds: seconds)
    return serverAppeared
  }
}
