import FoundationEssentials
import NudgeCore

/// Why no terminal could be opened for a link: the short reason a notification shows
/// ("konsole exited 1") and the sentence `nudge` prints.
struct TerminalOpenFailure: Error, Equatable {
  var reason: String
  var message: String
}

/// The variables that hand a desktop's focus token to the window a click opens.
enum FocusToken {
  /// Wayland's xdg-activation token.
  static let wayland = "XDG_ACTIVATION_TOKEN"
  /// X11's startup notification id.
  static let x11 = "DESKTOP_STARTUP_ID"

  /// The variable that carries `token` in a session with `environment`: Wayland's when
  /// WAYLAND_DISPLAY is set, else X11's.
  static func variable(in environment: [String: String]) -> String {
    environment["WAYLAND_DISPLAY"]?.isEmpty == false ? wayland : x11
  }
}

/// Starts a terminal emulator running `nudge open URL`, without a shell: the configured
/// `terminal` command, else the platform's choice (`$TERMINAL`, `x-terminal-emulator`, then
/// terminals known by name). A terminal that cannot start on this session gives way to the
/// next.
struct TerminalLauncher {
  let ctx: Context

  func which(_ name: String) -> String? { ctx.platform.which(name, path: ctx.environment["PATH"]) }

  /// The argvs that may start a terminal running `program`, in the order they are tried: the
  /// `terminal` setting, then the platform's candidates.
  func commands(running program: [String]) -> [[String]] {
    let db = try? ctx.openDatabase()
    let configured = (try? db?.settings())??.value(.terminal) ?? ""
    var commands: [[String]] = []
    if !configured.isEmpty, let words = try? CommandLineWords.split(configured), !words.isEmpty {
      commands.append(words + program)
    }
    return commands + ctx.platform.terminalCommands(running: program, environment: ctx.environment)
  }

  /// The program of a `terminal` setting when it is not on `PATH` (nil: found, or empty).
  func missingProgram(_ setting: String) -> String? {
    guard let program = (try? CommandLineWords.split(setting))?.first else { return nil }
    return which(program) == nil ? program : nil
  }

  /// The terminals found on this machine, as `terminal` settings ("'xterm -e'").
  var found: [String] {
    ctx.platform.terminalCommands(running: [], environment: ctx.environment).map {
      "'" + $0.joined(separator: " ") + "'"
    }
  }

  /// "terminals found here: 'xterm -e', 'konsole -e' (e.g. nudge config set terminal 'xterm
  /// -e'), or unset it to pick one", or that none was found.
  var foundSentence: String {
    let found = found
    guard let first = found.first else {
      return
        "no terminal emulator was found on PATH either: install one (e.g. apt-get install xterm)"
    }
    return
      "terminals found here: \(found.joined(separator: ", ")) (e.g. nudge config set terminal \(first)), or 'nudge config unset terminal' to pick one"
  }

  /// The argv a click starts first, or nil when no terminal is found.
  func command(running program: [String]) -> [String]? { commands(running: program).first }

  /// The environment a terminal opened from this session gets: the display (a reminder fired
  /// at login may not have it yet: the user manager's is taken), and the focus token under the
  /// name this session's kind reads, never one inherited.
  func environment(activationToken: String?) throws(TerminalOpenFailure) -> [String: String] {
    var environment = ctx.environment
    let graphical = ["DISPLAY", "WAYLAND_DISPLAY"]
    let hasDisplay = { graphical.contains { environment[$0]?.isEmpty == false } }
    if !hasDisplay() && ctx.platform.hasUserManager(environment: ctx.environment) {
      // a reminder fired at login before the desktop imported its display into the manager
      let current = userManagerEnvironment(ctx)
      for key in graphical + ["XAUTHORITY"] where current[key]?.isEmpty == false {
        environment[key] = current[key]
      }
    }
    guard hasDisplay() else {
      throw TerminalOpenFailure(
        reason: "no graphical session: DISPLAY and WAYLAND_DISPLAY are unset",
        message:
          "no graphical session to open a terminal in (DISPLAY and WAYLAND_DISPLAY are unset)")
    }
    environment[FocusToken.wayland] = nil
    environment[FocusToken.x11] = nil
    if let activationToken {
      environment[FocusToken.variable(in: environment)] = activationToken
    }
    return environment
  }

  /// Starts the terminal for `url` outside Nudge's own cgroup and session, so stopping the
  /// reminder (or its systemd service) never takes the flow with it: in a transient scope of the
  /// user's systemd manager where one runs, else as a plain detached process. A terminal that
  /// fails within its first second gives way to the next candidate; when none starts, the
  /// failure says why the last one did not.
  func open(_ url: String, activationToken: String? = nil) throws(TerminalOpenFailure) {
    let runAtTerminal = "run 'nudge open \(url)' in a terminal"
    let environment: [String: String]
    do { environment = try self.environment(activationToken: activationToken) } catch {
      throw TerminalOpenFailure(
        reason: error.reason, message: "\(error.message): \(runAtTerminal).")
    }
    let program = [UserUnits.binaryPath, "open", OpenCommand.holdFlag, url]
    let candidates = commands(running: program)
    guard !candidates.isEmpty else {
      throw TerminalOpenFailure(
        reason: "no terminal emulator found",
        message:
          "no terminal emulator found: set one with 'nudge config set terminal \"xterm -e\"' or $TERMINAL, or \(runAtTerminal)."
      )
    }
    var reasons: [String] = []
    for argv in candidates {
      guard let executable = which(argv[0]) else {
        reasons.append("\(argv[0]) was not found")
        continue
      }
      switch ctx.platform.launchTerminal([executable] + argv.dropFirst(), environment: environment)
      {
      case .started: return
      case .failed(let reason): reasons.append(reason)
      }
    }
    let reason = reasons.joined(separator: "; ")
    throw TerminalOpenFailure(
      reason: reason,
      message:
        "could not open a terminal (\(reason)): set one with 'nudge config set terminal …', or \(runAtTerminal)."
    )
  }
}
