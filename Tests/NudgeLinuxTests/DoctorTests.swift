import Foundation
import NudgeCore
import Testing

@testable import NudgeLinux

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
