import Foundation
import NudgeCore
import Testing

@testable import NudgeCLI

/// `nudge doctor` and the terminal setting it checks.
@Suite struct DoctorTests {
  @Test func aTerminalThatIsNotInstalledIsRefusedAndDoctorFailsIt() throws {
    var nudge = InProcess()
    nudge.platform = TestPlatform(terminals: [["xterm", "-e"], ["konsole", "-e"]])
    let refused = try nudge.run(["config", "set", "terminal", "gnome-terminal"])
    #expect(refused.status == 64)
    #expect(refused.stderr.contains("'gnome-terminal' is not installed here"))
    #expect(refused.stderr.contains("terminals found here: 'xterm -e', 'konsole -e'"))
    #expect(try nudge.run(["config", "get", "terminal"]).stdout == "\n")
    #expect(try nudge.run(["config", "set", "terminal", "xterm -e"]).status == 0)
    // set while it was installed, gone since: doctor fails it with what is there
    nudge.platform = TestPlatform(terminals: [["konsole", "-e"]])
    nudge.notifier = ScriptedNotifier()
    let doctor = try nudge.run(["doctor", "--json"])
    #expect(doctor.status == 1)
    let checks = try #require(
      try JSONSerialization.jsonObject(with: Data(doctor.stdout.utf8)) as? [[String: Any]])
    let terminal = try #require(checks.first { $0["name"] as? String == "terminal" })
    #expect(terminal["ok"] as? Bool == false)
    #expect((terminal["detail"] as? String)?.contains("xterm, which is not installed") == true)
    #expect((terminal["fix"] as? String)?.contains("'konsole -e'") == true)
  }
}
