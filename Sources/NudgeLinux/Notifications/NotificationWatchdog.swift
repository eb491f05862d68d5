// The hang watchdog: a D-Bus call still blocked after `deadline` seconds ends the process.

import Dispatch
import Synchronization

extension LibnotifyNotifier {
  public func whenServerHangs(_ handler: @escaping @Sendable () -> Void) {
    onHang.withLock { $0 = handler }
  }

  /// Runs `body` with a watchdog: no D-Bus wait may outlast `deadline`.
  func bounded<T>(_ body: () -> T) -> T {
    let handler: @Sendable () -> Void = onHang.withLock { $0 }
    let item = DispatchWorkItem { handler() }
    DispatchQueue.global().asyncAfter(deadline: .now() + deadline, execute: item)
    defer { item.cancel() }
    return body()
  }
}
