import Foundation
import NudgeCore
import Testing

@testable import NudgeCLI

/// `nudge tray on|off`: the tray's user unit, written as systemd reads it (checked by
/// systemd-analyze), enabled for the graphical session and started when one is up; taken back
/// by `off` and by `uninstall`; refused in one line where no user manager runs.
@Suite struct TrayStartTests {
  @Test func onWritesAUnitSystemdReadsAndEnablesItForTheSession() throws {
    var nudge = InProcess()
    let platform = TestPlatform(userManager: true, inactiveUnits: ["graphical-session.target"])
    nudge.platform = platform
    let on = try nudge("tray", "on")
    #expect(on.status == 0, "\(on.stderr)")
    #expect(on.stdout.contains("none is up now"), "\(on.stdout)")
    let dir = nudge.home + "/config/systemd/user"
    let unit = try String(contentsOfFile: dir + "/nudge-tray.service", encoding: .utf8)
    #expect(unit.contains("ExecStart=\(UserUnits.binaryPath) tray\n"), "\(unit)")
    #expect(unit.contains("WantedBy=graphical-session.target"))
    let (status, complaints) = try systemdVerify(
      [dir + "/nudge-tray.service"], home: nudge.home, config: nudge.home + "/config")
    #expect(status == 0 && complaints.isEmpty, "\(complaints)")
    #expect(
      platform.started == [
        ["systemctl", "--user", "daemon-reload"],
        ["systemctl", "--user", "enable", "nudge-tray.service"],
        ["systemctl", "--user", "is-active", "--quiet", "graphical-session.target"],
      ])
    // off: stopped, disabled, the file gone
    let off = try nudge("tray", "off")
    #expect(off.status == 0, "\(off.stderr)")
    #expect(
      platform.started.contains(["systemctl", "--user", "disable", "--now", "nudge-tray.service"]))
    #expect(!FileManager.default.fileExists(atPath: dir + "/nudge-tray.service"))
  }

  @Test func onStartsItNowWhenTheSessionIsUpAndUninstallTakesItBack() throws {
    var nudge = InProcess()
    let platform = TestPlatform(userManager: true)
    nudge.platform = platform
    let on = try nudge("tray", "on")
    #expect(on.status == 0 && on.stdout.contains("runs now"), "\(on.stdout)\(on.stderr)")
    #expect(platform.started.last == ["systemctl", "--user", "restart", "nudge-tray.service"])
    let dir = nudge.home + "/config/systemd/user"
    #expect(FileManager.default.fileExists(atPath: dir + "/nudge-tray.service"))
    #expect(try nudge("uninstall").status == 0)
    #expect(
      platform.started.contains(["systemctl", "--user", "disable", "--now", "nudge-tray.service"]))
    #expect(!FileManager.default.fileExists(atPath: dir + "/nudge-tray.service"))
  }

  @Test func withoutAUserManagerItSaysWhatToDoAndWritesNothing() throws {
    var nudge = InProcess()
    nudge.platform = TestPlatform(userManager: false)
    let on = try nudge("tray", "on")
    #expect(on.status == 69, "\(on.stderr)")
    #expect(on.stderr.split(separator: "\n").count == 1 && on.stderr.contains("autostart"))
    #expect(!FileManager.default.fileExists(atPath: nudge.home + "/config/systemd/user"))
    // a dry run prints what it would do, wherever it runs
    let dry = try nudge("tray", "on", "--dry-run")
    #expect(dry.status == 0 && dry.stdout.contains("PartOf=graphical-session.target"))
    #expect(dry.stdout.contains("# run systemctl --user enable nudge-tray.service"))
    #expect(dry.stdout.contains("# run systemctl --user restart nudge-tray.service (when"))
    #expect(try nudge("tray", "--dry-run").status == 64)
    #expect(try nudge("tray", "maybe").status == 64)
  }
}
