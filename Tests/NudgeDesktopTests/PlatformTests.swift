import Foundation
import NudgeCore
import Testing

@testable import NudgeDesktop

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

/// `nudge doctor` where nothing of a desktop runs: one consistent fix per failure.
@Suite struct DoctorTests {

  @Test func runReportsExitStatusAndSignals() throws {
    #expect(try Spawn.run(["/bin/sh", "-c", "exit 3"], environment: [:]) == 3)
    #expect(try Spawn.run(["/bin/sh", "-c", "kill -TERM $$"], environment: [:]) == 128 + SIGTERM)
  }

  @Test func captureReadsStdoutWithoutAShellAndFailsOnNonZero() {
    let words = Spawn.capture(["/bin/echo", "a b", "$HOME;id"], environment: [:])
    #expect(words == "a b $HOME;id\n")
    #expect(Spawn.capture(["/bin/false"], environment: [:]) == nil)
  }

  @Test func aProgramThatCannotStartIsASpawnError() {
    #expect(throws: SpawnError.self) {
      try Spawn.start(["/nonexistent/terminal"], environment: [:])
    }
  }

  @Test func whichFindsExecutablesOnThePathOnly() {
    #expect(Spawn.which("sh", path: "/nonexistent:/bin") == "/bin/sh")
    #expect(Spawn.which("sh", path: "/nonexistent") == nil)
    #expect(Spawn.which("/bin/sh", path: nil) == "/bin/sh")
  }
}

@Suite struct LibnotifyWithoutABusTests {
  @Test func noSessionBusIsReportedAtOnceAndNothingIsShown() {
    let notifier = LibnotifyNotifier(environment: ["DBUS_SESSION_BUS_ADDRESS": "", "HOME": "/"])
    #expect(notifier.inspect() == .noSessionBus)
    let reason = notifier.unavailableReason(waitingForServer: 0)
    #expect(reason?.contains("no D-Bus session bus") == true, "\(reason ?? "nil")")
  }
}
