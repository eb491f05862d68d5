import Foundation
import NudgeCore
import NudgeLinux
import NudgeStore
import Testing

@testable import NudgeCLI

/// The live launcher against a recording machine: which terminal a click starts, in which
/// order they are tried, and what environment (display, focus token) each gets.
@Suite struct TerminalLauncherTests {
  let url = "nudge://review"

  func run(
    _ platform: TestPlatform, environment: [String: String] = [:], token: String? = nil,
    terminalSetting: String? = nil
  ) throws -> Result<Void, TerminalOpenFailure> {
    var nudge = InProcess()
    for (key, value) in environment { nudge.environment[key] = value }
    if let terminalSetting {
      // set where its program was installed (config set refuses one that is not)
      let program = try CommandLineWords.split(terminalSetting)[0]
      nudge.platform = TestPlatform(terminals: [[program]])
      try #require(try nudge("config", "set", "terminal", terminalSetting).status == 0)
    }
    nudge.platform = platform
    let ctx = try nudge.context(now: nil, stdin: nil, env: [:], output: CapturedOutput())
    do {
      try TerminalLauncher(ctx: ctx).open(url, activationToken: token)
      return .success(())
    } catch {
      return .failure(error)
    }
  }

  @Test func underX11TheTokenIsTheStartupIDUnderWaylandTheActivationToken() throws {
    let x11 = TestPlatform(terminals: [["xterm", "-e"]])
    #expect(throws: Never.self) {
      try run(x11, environment: ["DISPLAY": ":5", "DESKTOP_STARTUP_ID": "stale"], token: "t1").get()
    }
    let started = try #require(x11.terminalEnvironments.first)
    #expect(started["DESKTOP_STARTUP_ID"] == "t1")
    #expect(started["XDG_ACTIVATION_TOKEN"] == nil)
    #expect(x11.started.first?.suffix(3) == ["open", "--hold", url])
    let wayland = TestPlatform(terminals: [["foot"]])
    try run(
      wayland, environment: ["WAYLAND_DISPLAY": "wayland-1", "DISPLAY": ":0"], token: "t2"
    ).get()
    let waylandStarted = try #require(wayland.terminalEnvironments.first)
    #expect(waylandStarted["XDG_ACTIVATION_TOKEN"] == "t2")
    #expect(waylandStarted["DESKTOP_STARTUP_ID"] == nil)
    // no token from the server: none inherited either
    let none = TestPlatform(terminals: [["xterm", "-e"]])
    try run(none, environment: ["DISPLAY": ":5", "XDG_ACTIVATION_TOKEN": "stale"]).get()
    #expect(none.terminalEnvironments.first?["XDG_ACTIVATION_TOKEN"] == nil)
    #expect(none.terminalEnvironments.first?["DESKTOP_STARTUP_ID"] == nil)
  }

  @Test func aTerminalThatFailsGivesWayToTheNextAndWhenNoneStartsTheFailureSaysWhy() throws {
    let platform = TestPlatform(
      terminals: [["konsole", "-e"], ["xterm", "-e"]], terminalStarts: [.failed("konsole exited 1")]
    )
    try run(platform, environment: ["DISPLAY": ":5"]).get()
    #expect(platform.started.map { $0[0] } == ["/usr/bin/konsole", "/usr/bin/xterm"])
    let none = TestPlatform(
      terminals: [["konsole", "-e"], ["xterm", "-e"]],
      terminalStarts: [.failed("konsole exited 1"), .failed("xterm exited 2")])
    let failure = try #require(
      try run(none, environment: ["DISPLAY": ":5"]).failureValue)
    #expect(failure.reason == "konsole exited 1; xterm exited 2")
    #expect(
      failure.message
        == "could not open a terminal (konsole exited 1; xterm exited 2): set one with 'nudge config set terminal …', or run 'nudge open nudge://review' in a terminal."
    )
  }

  @Test func theConfiguredTerminalIsTriedFirstAndOneNotInstalledIsPassedOver() throws {
    let platform = TestPlatform(terminals: [["xterm", "-e"]])
    try run(platform, environment: ["DISPLAY": ":5"], terminalSetting: "kitty --hold").get()
    // kitty is not on this PATH: xterm opens the flow
    #expect(platform.started.map { $0[0] } == ["/usr/bin/xterm"])
  }

  @Test func withoutADisplayOrATerminalNothingStartsAndTheFailureSaysWhatToDo() throws {
    let platform = TestPlatform(terminals: [["xterm", "-e"]])
    let noDisplay = try #require(try run(platform).failureValue)
    #expect(noDisplay.reason == "no graphical session: DISPLAY and WAYLAND_DISPLAY are unset")
    #expect(platform.started.isEmpty)
    let noTerminal = try #require(
      try run(TestPlatform(), environment: ["DISPLAY": ":5"]).failureValue)
    #expect(noTerminal.reason == "no terminal emulator found")
  }

  @Test func theHandlerLaunchedWithATokenHandsItToTheTerminalItStarts() throws {
    let launcher = RecordingLauncher()
    let platform = TestPlatform()
    var nudge = InProcess()
    nudge.launcher = launcher
    nudge.platform = platform
    nudge.environment["DISPLAY"] = ":5"
    nudge.environment["DESKTOP_STARTUP_ID"] = "kio-7_TIME99"
    let run = try nudge("open", "nudge://checkin")
    #expect(run.status == 0, "\(run.stderr)")
    #expect(launcher.links == ["nudge://checkin"])
    #expect(launcher.tokens == ["kio-7_TIME99"])
    #expect(Set(platform.unsetVariables) == ["DESKTOP_STARTUP_ID", "XDG_ACTIVATION_TOKEN"])
  }

  @Test func nudgeOpenTakesTheFocusTokenOutOfItsOwnEnvironment() throws {
    let platform = TestPlatform()
    var nudge = InProcess()
    nudge.platform = platform
    nudge.environment["DESKTOP_STARTUP_ID"] = "t1"
    nudge.environment["XDG_ACTIVATION_TOKEN"] = "t2"
    let run = try nudge.typing("", "open", "nudge://today")
    #expect(run.status == 0, "\(run.stderr)")
    #expect(Set(platform.unsetVariables) == ["DESKTOP_STARTUP_ID", "XDG_ACTIVATION_TOKEN"])
  }
}
