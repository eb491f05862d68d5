import ArgumentParser
import FoundationEssentials
import NudgeCore
import NudgeDesktop
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
    do { link = try DeepLink.parse(url) } catch {
      throw CLIError(
        "refusing the link: \(error.message). Nothing was opened.", code: .badData)
    }
    guard ctx.input.isTerminal else {
      try ctx.launcher.open(url, in: ctx)
      return
    }
    var failure: CLIError? = nil
    do {
      // every command a link names runs against the context (`DeepLink.arguments`)
      guard let routed = try Nudge.parseAsRoot(link.arguments) as? any ContextCommand else {
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
    if let failure { ctx.output.writeError("nudge: \(failure.message)\n") }
    ctx.line()
    // not now: servers whose tray hides buttons still get a Snooze, here
    let left = failure.map { $0.code == .failure && $0.message.hasPrefix(Prompter.leftPrefix) }
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
  func snooze(_ ctx: Context, _ slot: Slot) throws {
    let db = try ctx.openDatabase()
    let seconds = try settingsSnooze(ctx)
    if try ReminderSession.snooze(ctx, db, slot, elapse: nil, seconds: seconds) {
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

/// Starts a terminal emulator running `nudge open URL`, without a shell: the configured
/// `terminal` command, else the platform's choice (`$TERMINAL`, `x-terminal-emulator`, then
/// terminals known by name).
struct TerminalLauncher {
  let ctx: Context

  func which(_ name: String) -> String? { ctx.platform.which(name, path: ctx.environment["PATH"]) }

  /// The argv that starts a terminal running `program`, or nil when no terminal is found.
  func command(running program: [String]) throws -> [String]? {
    let db = try? ctx.openDatabase()
    let configured = (try? db?.settings())??.value(.terminal) ?? ""
    if !configured.isEmpty, let words = try? CommandLineWords.split(configured), !words.isEmpty {
      return words + program
    }
    return ctx.platform.terminalCommand(running: program, environment: ctx.environment)
  }

  /// Starts the terminal for `url` outside Nudge's own cgroup and session, so stopping the
  /// reminder (or its systemd service) never takes the flow with it: in a transient scope of the
  /// user's systemd manager where one runs, else as a plain detached process.
  func open(_ url: String) throws {
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
      throw CLIError(
        "no graphical session to open a terminal in (DISPLAY and WAYLAND_DISPLAY are unset): run 'nudge open \(url)' in a terminal.",
        code: .unavailable)
    }
    let program = [UserUnits.binaryPath, "open", OpenCommand.holdFlag, url]
    guard let argv = try command(running: program) else {
      throw CLIError(
        "no terminal emulator found: set one with 'nudge config set terminal \"xterm -e\"' or $TERMINAL, or run 'nudge open \(url)' in a terminal.",
        code: .unavailable)
    }
    guard let executable = which(argv[0]) else {
      throw CLIError(
        "the terminal command '\(argv[0])' was not found; fix it with 'nudge config set terminal …'.",
        code: .unavailable)
    }
    try ctx.platform.launchTerminal([executable] + argv.dropFirst(), environment: environment)
  }
}
