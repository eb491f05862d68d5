import Glibc
import Synchronization

/// Ctrl-C while a person is answering or watching: caught as a flag instead of ending the
/// process at once, so a flow can stop where it is, say what it kept and exit 130. A waiting
/// `poll` or `usleep` returns early when it arrives (no `SA_RESTART`).
public enum Interrupts {
  private static let raised = Atomic<Bool>(false)

  /// From now on SIGINT sets the flag instead of ending the process.
  public static func catchInterrupts() {
    _ = pending  // the flag exists before a handler can touch it (no lazy set-up inside one)
    var action = sigaction()
    action.__sigaction_handler.sa_handler = { _ in Interrupts.raise() }
    sigemptyset(&action.sa_mask)
    action.sa_flags = 0
    sigaction(SIGINT, &action, nil)
  }

  /// Marks an interrupt (the handler, or a line editor that read Ctrl-C as a key).
  public static func raise() { raised.store(true, ordering: .relaxed) }

  /// True once Ctrl-C was pressed.
  public static var pending: Bool { raised.load(ordering: .relaxed) }
}
