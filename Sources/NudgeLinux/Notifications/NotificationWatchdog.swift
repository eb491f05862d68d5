// The hang watchdog: a D-Bus call still blocked after `deadline` seconds ends the process.

import Dispatch
import Glibc
import Synchronization

extension LibnotifyNotifier {
  public func whenServerHangs(_ handler: @escaping @Sendable () -> Void) {
    onHang.withLock { $0 = handler }
  }

  /// Runs `body` with a watchdog: no D-Bus wait may outlast `deadline`. The watchdog is a
  /// thread of its own that sleeps on a semaphore until the body ends or the deadline passes:
  /// no Dispatch timer, whose worker pool would then wake the process every second for as
  /// long as it lives (a reminder waiting hours for its click).
  func bounded<T>(_ body: () -> T) -> T {
    let watch = HangWatch(
      deadline: deadline, handler: onHang.withLock { $0 })
    watch.start()
    defer { watch.finished() }
    return body()
  }
}

/// One watched call: its thread runs `handler` unless `finished()` comes first. `finished()`
/// lets the handler go at once, on the caller's thread: what it captured (a reminder and its
/// database) is not left to the watching thread, which may wake only after the process has
/// moved on to its exit (and then the database would not be closed).
final class HangWatch: Sendable {
  private let deadline: Double
  private let handler: Mutex<(@Sendable () -> Void)?>
  private let done = DispatchSemaphore(value: 0)

  init(deadline: Double, handler: @escaping @Sendable () -> Void) {
    self.deadline = deadline
    self.handler = Mutex(handler)
  }

  /// Starts the watching thread (detached: it ends by itself).
  func start() {
    let box = Unmanaged.passRetained(self).toOpaque()
    var thread = pthread_t()
    let started = pthread_create(
      &thread, nil,
      { raw in
        let watch = Unmanaged<HangWatch>.fromOpaque(raw!).takeRetainedValue()
        if watch.done.wait(timeout: .now() + watch.deadline) == .timedOut {
          // taken under the lock: a call that finished meanwhile has let it go
          let handler = watch.handler.withLock { $0.take() }
          handler?()
        }
        return nil
      }, box)
    if started == 0 {
      pthread_detach(thread)
    } else {
      Unmanaged<HangWatch>.fromOpaque(box).release()  // no watchdog rather than no call
    }
  }

  /// The call returned in time: the handler is let go, and the thread woken to end.
  func finished() {
    _ = handler.withLock { $0.take() }
    done.signal()
  }
}
