import ArgumentParser
import Foundation
import NudgeCore

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

  func run(_ ctx: Context) throws(CLIError) {
    guard words.count == 1, let url = words.first else {
      throw CLIError(
        "refusing the link: give exactly one nudge:// link as one argument. Nothing was opened.",
        code: .badData)
    }
    let link: DeepLink
    do { link = try DeepLink.parse(url) } catch {
      throw CLIError(
        "refusing the link: \(error.message). Nothing was opened.", code: .badData)
    }
    if ctx.input.isTerminal {
      do {
        var command = try Nudge.parseAsRoot(link.arguments)
        try command.run()
      } catch let error as CLIError {
        throw error
      } catch {
        throw CLIError("\(error)", code: .internal)
      }
      return
    }
    try TerminalLauncher(ctx: ctx).open(url)
  }
}

/// Starts a terminal emulator running `nudge open URL`, without a shell: the configured
/// `terminal` command, else `$TERMINAL`, `x-terminal-emulator`, then terminals known by name.
struct TerminalLauncher {
  let ctx: Context

  static let known: [(String, [String])] = [
    ("x-terminal-emulator", ["-e"]), ("gnome-terminal", ["--"]), ("konsole", ["-e"]),
    ("xfce4-terminal", ["-x"]), ("alacritty", ["-e"]), ("kitty", []), ("foot", []),
    ("wezterm", ["start", "--"]), ("xterm", ["-e"]),
  ]

  func which(_ name: String) -> String? {
    if name.contains("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
    let path = ctx.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    for dir in path.split(separator: ":") {
      let candidate = "\(dir)/\(name)"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }

  /// The argv that starts a terminal running `program`, or nil when no terminal is found.
  func command(running program: [String]) throws(CLIError) -> [String]? {
    let db = try? ctx.openDatabase()
    let configured = (try? db?.settings())??.value(.terminal) ?? ""
    if !configured.isEmpty, let words = try? CommandLineWords.split(configured), !words.isEmpty {
      return words + program
    }
    if let terminal = ctx.environment["TERMINAL"], !terminal.isEmpty,
      let words = try? CommandLineWords.split(terminal), let first = words.first,
      which(first) != nil
    {
      return words + ["-e"] + program
    }
    for (name, flags) in Self.known where which(name) != nil {
      return [name] + flags + program
    }
    return nil
  }

  func open(_ url: String) throws(CLIError) {
    let display = ["DISPLAY", "WAYLAND_DISPLAY"].compactMap { ctx.environment[$0] }
    guard display.contains(where: { !$0.isEmpty }) else {
      throw CLIError(
        "no graphical session to open a terminal in (DISPLAY and WAYLAND_DISPLAY are unset): run 'nudge open \(url)' in a terminal.",
        code: .unavailable)
    }
    let program = [UserUnits.binaryPath, "open", url]
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
    _ = try Spawn.start([executable] + argv.dropFirst(), environment: ctx.environment)
  }
}
