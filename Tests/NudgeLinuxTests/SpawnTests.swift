import Foundation
import NudgeCore
import Testing

@testable import NudgeLinux

/// The platform edge against the real system: posix_spawn's children, and libnotify where
/// there is no session bus (the dunst and systemd paths run in scripts/e2e-*.sh).
@Suite struct SpawnTests {
  @Test func childrenStartWithAnEmptySignalMaskAndDefaultDispositions() throws {
    // what a GLib or dispatch thread may have: TERM, HUP and INT blocked, HUP ignored
    var blocked = sigset_t()
    sigemptyset(&blocked)
    for signal in [SIGTERM, SIGHUP, SIGINT] { sigaddset(&blocked, signal) }
    var previous = sigset_t()
    pthread_sigmask(SIG_BLOCK, &blocked, &previous)
    let oldHup = signal(SIGHUP, SIG_IGN)
    defer {
      pthread_sigmask(SIG_SETMASK, &previous, nil)
      signal(SIGHUP, oldHup)
    }
    let pid = try Spawn.start(["/bin/sleep", "30"], environment: [:], .detached)
    var status = ""
    for _ in 0..<50 {
      status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
      if status.contains("State:\tS") { break }
      usleep(20_000)
    }
    func mask(_ name: String) -> UInt64? {
      let line = status.split(separator: "\n").first { $0.hasPrefix(name + ":") }
      return line.flatMap { UInt64($0.split(separator: "\t").last ?? "", radix: 16) }
    }
    // the standard signals 1-31 (glibc reserves 32 and 33 for itself)
    #expect(mask("SigBlk") == 0, "\(status)")
    #expect(mask("SigIgn").map { $0 & 0x7fff_ffff } == 0, "\(status)")
    // its own session: not killed with Nudge's process group
    #expect(getsid(pid) == pid)
    kill(pid, SIGTERM)
    var exit: Int32 = 0
    waitpid(pid, &exit, 0)
    #expect(exit & 0x7f == SIGTERM)
  }
}
