import Foundation
import NudgeCore
import Testing

@testable import NudgeLinux

/// Ctrl-C, caught as a flag once asked for.
@Suite struct InterruptTests {
  @Test func aCaughtSIGINTIsNotedInsteadOfEndingTheProcess() {
    let platform = LinuxPlatform()
    platform.catchInterrupts()
    // raise() sends it to this thread, where it is unblocked: its handler has run when raise
    // returns (a test thread may have inherited a mask that blocks it)
    var interrupt = sigset_t()
    var previous = sigset_t()
    sigemptyset(&interrupt)
    sigaddset(&interrupt, SIGINT)
    pthread_sigmask(SIG_UNBLOCK, &interrupt, &previous)
    raise(SIGINT)
    pthread_sigmask(SIG_SETMASK, &previous, nil)
    #expect(platform.interruptPending)
  }
}
