import Foundation
import NudgeCore
import Testing

@testable import NudgeLinux

/// Ctrl-C, caught as a flag once asked for.
@Suite struct InterruptTests {
  @Test func aCaughtSIGINTIsNotedInsteadOfEndingTheProcess() {
    let platform = LinuxPlatform()
    platform.catchInterrupts()
    kill(getpid(), SIGINT)
    var noted = false
    for _ in 0..<100 where !noted {
      noted = platform.interruptPending
      if !noted { usleep(5_000) }
    }
    #expect(noted)
  }
}
