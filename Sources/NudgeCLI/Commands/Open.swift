import ArgumentParser
import FoundationEssentials
import NudgeCore
import NudgeLinux
import NudgeStore

/// `nudge open URL`: the deep-link entry point (the x-scheme-handler runs it).
struct OpenCommand: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "open",
    abstract: "Open a nudge:// link: run its flow here, or in a new terminal when there is none.")

  @Argument(
    parsing: .allUnrecognized,
    help: "A nudge:// link, e.g. nudge://review or nudge://need-help?category=stress.")
  var words: [String] = []

  /// Everything after `open` on the command line, untouched by option parsing (a link is data,
  /// never an option), or nil when this is not `nudge open` or asks only for its help.
  static func linkWords(_ arguments: [String]) -> [String]? {
    guard arguments.first == "open", arguments.count > 1 else { return nil }
    let words = Array(arguments.dropFirst())
    if words.count == 1, ["-h", "--help", "--version"].contains(words[0]) { return nil }
    return words
  }

  func run(_ ctx: Context) throws {
    // a focus token is for one window: the terminal this starts, when a desktop launched the
    // handler with one (KIO, GIO); else this window's, spent when it mapped. Either way no
    // later child may reuse it.
    let tokens = [FocusToken.wayland, FocusToken.x11]
    let received =
      ctx.environment[FocusToken.variable(in: ctx.environment)].flatMap { $0.isEmpty ? nil : $0 }
    ctx.platform.unsetEnvironment(tokens)
    var ctx = ctx
    for name in tokens { ctx.environment[name] = nil }
    // `--hold` (given by the terminal a click opens) keeps the window open at the end
    let hold = words.count == 2 && words[0] == Self.holdFlag
    let given = hold ? Array(words.dropFirst()) : words
    guard !given.isEmpty else {
      throw CLIError(
        "give the nudge:// link to open, e.g. 'nudge open nudge://review'.", code: .usage)
    }
    guard given.count == 1, let url = given.first else {
      throw CLIError(
        "refusing the link: give exactly one nudge:// link as one argument. Nothing was opened.",
        code: .badData)
    }
    let link: DeepLink
    do { link = try DeepLink.parse(url, flowWords: ctx.definedFlowWords) } catch {
      throw CLIError(
        "refusing the link: \(error.message). Nothing was opened.", code: .badData)
    }
    guard ctx.input.isTerminal else {
      try ctx.launcher.open(url, in: ctx, activationToken: received)
      return
    }
    var failure: CLIError? = nil
    do {
      // every command a link names runs against the context (`DeepLink.arguments`)
      guard
        let routed = try NudgeMain.parse(link.arguments, environment: ctx.environment)
          as? any ContextCommand
      else {
        throw CLIError("the link \(url) names no command that runs here.", code: .internal)
      }
      try routed.run(ctx)
    } catch {
      failure = CLIError.from(error) ?? CLIError("\(error)", code: .internal)
    }
    guard hold else {
      if let failure { throw failure }
      return
    }
    if let failure {
      // wrapped to the window, as every line of the flow was
      let text = "nudge: \(failure.message)"
      let lines =
        ctx.output.isTerminal ? TerminalText.wrap(text, width: ctx.columns, indent: 2) : [text]
      ctx.output.writeError(lines.joined(separator: "\n") + "\n")
    }
    ctx.line()
    // not now: servers whose tray hides buttons still get a Snooze, here
    let left = failure.map { $0.kind == .leftFlow }
    let snoozable = left == true ? link.slot : nil
    if let slot = snoozable {
      let length = DurationText.spoken(seconds: try settingsSnooze(ctx))
      ctx.output.write(
        ctx.style.dim("Press Enter to close this window, or s and Enter to snooze \(length).")
          + " ")
      if ctx.input.readLine()?.trimmingSpaces.lowercased() == "s" {
        try snooze(ctx, slot)
      }
    } else {
      ctx.output.write(ctx.style.dim("Press Enter to close this window.") + " ")
      _ = ctx.input.readLine()
    }
    // said above already: the window ends with the flow's status and no second line
    if let failure { throw CLIError("", code: failure.code) }
  }

  func settingsSnooze(_ ctx: Context) throws -> Int {
    let db = try ctx.openDatabase()
    return try db.settings().snoozeSeconds
  }

  /// Snoozes the slot's reminder from the flow (as its Snooze button would).
  func snooze(_ ctx: Context, _ slot: ReminderSource) throws {
    let db = try ctx.openDatabase()
    let seconds = try settingsSnooze(ctx)
    if try Reminder.Session.snooze(ctx, db, slot, elapse: nil, seconds: seconds) {
      ctx.line("Snoozed: the reminder comes back in \(DurationText.spoken(seconds: seconds)).")
    } else {
      ctx.line(
        "Snoozed: 'nudge daemon' brings the reminder back in \(DurationText.spoken(seconds: seconds))."
      )
    }
  }

  /// The word before the link with which a launched terminal keeps its window open at the end.
  static let holdFlag = "--hold"
}

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
