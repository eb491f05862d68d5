import ArgumentParser
import FoundationEssentials
import Glibc
import NudgeCore
import NudgeLinux

/// `nudge`: the root command; with no subcommand it shows the today view.
public struct Nudge: ParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "nudge",
    abstract: "A calm daily loop: prep tonight, review in the morning, ask for help, check in.",
    discussion: """
      A small daily loop: prep tonight for tomorrow (nudge prep), review it in the morning and \
      set a focus (nudge review), get help with a craving (nudge need-help), check in at the \
      end of the day (nudge checkin). Reminders are desktop notifications from systemd user \
      timers (nudge install); everything stays in one SQLite file. The environment, the files \
      and the exit codes: man nudge.
      """,
    // "nudge 0.1.0", as other tools say it (scripts/package takes the last word; the man
    // page reads `version` below)
    version: "nudge " + version,
    subcommands: [
      TodayCommand.self, PrepCommand.self, ReviewCommand.self, CheckinCommand.self,
      NeedHelpCommand.self, ShowCommand.self, HistoryCommand.self, EditCommand.self,
      DeleteCommand.self, UndoCommand.self, RedoCommand.self, PauseCommand.self, ResumeCommand.self,
      HealthCommand.self,
      WeekCommand.self, StreakCommand.self, AchievementsCommand.self,
      CelebrateCommand.self, ScheduleCommand.self, NotifyCommand.self, LogCommand.self,
      OpenCommand.self, DoctorCommand.self, InstallCommand.self, UninstallCommand.self,
      DaemonCommand.self,
      ConfigCommand.self, PlanCommand.self, HabitCommand.self, SyncCommand.self,
      ExportCommand.self,
      ImportCommand.self, StatusCommand.self, TrayCommand.self,
    ],
    defaultSubcommand: TodayCommand.self
  )

  /// This Nudge's version.
  static let version = "0.1.0"

  public init() {}
}

/// A command that runs against a `Context`; its plain `run()` only builds the live one.
protocol ContextCommand: ParsableCommand {
  func run(_ ctx: Context) throws
}

extension ContextCommand {
  public func run() throws { try run(Context.live()) }
}

/// The process entry point: parses, runs, and turns failures into one line and an exit code.
/// Every command, the daemon too, runs on the main thread without starting the concurrency
/// runtime and its threads (start-up is most of a short command's time; the daemon's idle
/// process would be woken every second by libdispatch's worker-pool monitor).
public enum NudgeMain {
  public static func main(arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> Never {
    // nor does the help a person asks for first (RootHelp)
    if RootHelp.isAsked(arguments), case let width = RootHelp.width(), RootHelp.widths ~= width {
      StandardStreams.write(
        RootHelp.text(width: width) + RootHelp.planFlows(LinuxPlatform.environment()) + "\n",
        to: STDOUT_FILENO)
      exit(0)
    }
    if arguments.first != "daemon" { IdleMemory.keepFreedHeap() }
    do {
      // the calendar preview, when its words are plain, runs without a command value at all
      if let preview = PreviewRequest.quickParse(arguments) {
        try preview.run(Context.live())
        exit(0)
      }
      var command = try parse(arguments)
      try command.run()
      exit(0)
    } catch {
      fail(error, arguments: arguments)
    }
  }

  private static func fail(_ error: any Error, arguments: [String]) -> Never {
    // on a terminal the line is wrapped to its width (piped, it stays one line for scripts)
    let width = StandardStreams.terminalColumns(of: STDERR_FILENO).map { columns in
      LinuxPlatform.environment()["COLUMNS"].flatMap { Int($0) } ?? columns
    }
    let failure = report(error, arguments: arguments, width: width)
    StandardStreams.write(failure.stderr, to: STDERR_FILENO)
    StandardStreams.write(failure.stdout, to: STDOUT_FILENO)
    exit(failure.status)
  }

  /// The command the arguments name; a `nudge://` link is routed to `open` as data, never
  /// parsed as options (`nudge open --help=x` is a link to refuse).
  /// `environment`: where the person's plan files are (a flow they define is a command too);
  /// read only for a word that may name such a flow.
  static func parse(
    _ arguments: [String],
    environment: @autoclosure () -> [String: String] = LinuxPlatform.environment(),
    builtInPlans: [(name: String, text: String)] = BuiltInPlans.texts
  ) throws -> any ParsableCommand {
    // the today view, the command run most, needs no parsing: the parser's first use (the
    // reflection of the command tree and of its completion options) is a third of a start
    if arguments.isEmpty { return TodayCommand() }
    // nor does the reminder's post, when its words are plain (nor the calendar preview: main)
    if let notify = NotifyCommand.quickParse(arguments) { return notify }
    // nor a backup or the timeline, whose words are as plain (their parse was a twentieth of
    // ten years' export)
    if let export = ExportCommand.quickParse(arguments) { return export }
    if let history = HistoryCommand.quickParse(arguments) { return history }
    if let health = HealthCommand.quickParse(arguments) { return health }
    // nor the status line a bar runs
    if let status = StatusCommand.quickParse(arguments) { return status }
    if let shell = Completions.requestedShell(arguments) {
      throw CleanExit.message(Completions.script(for: shell))
    }
    if let word = arguments.first,
      let defined = DefinedFlowCommand.definition(
        word, environment: environment(), builtIn: builtInPlans)
    {
      // its own help and its own usage errors, never the root command's
      if arguments.contains("--help") || arguments.contains("-h") {
        throw CleanExit.message(DefinedFlowCommand.help(defined.flow, plan: defined.plan))
      }
      do { return try DefinedFlowCommand.parse(arguments) } catch let error as CleanExit {
        throw error
      } catch {
        let message = DefinedFlowCommand.message(for: error)
        throw CLIError(
          message + (message.hasSuffix(".") ? "" : ".") + " See 'nudge \(word) --help'.",
          code: .usage)
      }
    }
    if let word = arguments.first,
      let setAside = DefinedFlowCommand.setAside(
        word, environment: environment())
    {
      // a flow whose plan file was set aside: where and why, not "not a command"
      throw CLIError(
        "'\(word)' is a flow of the plan file \(setAside.file), which was set aside (\(setAside.error.described(file: setAside.file))); mend it and check it with: nudge plan check \(ShellWord.quoted(setAside.file))",
        code: .usage)
    }
    let linkWords = OpenCommand.linkWords(arguments)
    if linkWords == nil { try refuseUnknownWordsAskingHelp(arguments, environment: environment()) }
    let command = try Nudge.parseAsRoot(linkWords == nil ? arguments : ["open"])
    if var open = command as? OpenCommand, let words = linkWords {
      open.words = words
      return open
    }
    return command
  }

  /// `nudge help WORD` for a plan's flow is its own help; a word that names no command, with
  /// `--help` or after `help`, is a usage error (the parser printed the today view's help, or
  /// the root's, and exited 0).
  static func refuseUnknownWordsAskingHelp(_ arguments: [String], environment: [String: String])
    throws
  {
    let asked = arguments.first == "help" ? arguments.dropFirst().first : arguments.first
    let helpAsked =
      arguments.first == "help" || arguments.contains("--help") || arguments.contains("-h")
    // a word under a command group that is none of its commands ('habit undo --help'): the
    // parser would show the group's default command's help as if it were asked
    if helpAsked, let word = asked, Nudge.commandWords.contains(word) {
      let words = arguments.first == "help" ? Array(arguments.dropFirst()) : arguments
      let (path, command, rest) = CommandShape.root.deepest(words)
      if let next = rest.first, !next.hasPrefix("-"), !command.subcommands.isEmpty,
        !(command.defaultSubcommand?.takesPositionals ?? false)
      {
        let problem = UsageProblem.notASubcommand(
          next, command: path.joined(separator: " "), subcommands: command.subcommands.map(\.name))
        throw CLIError(problem.line(words), code: .usage)
      }
    }
    guard let word = asked, !word.hasPrefix("-"), !Nudge.commandWords.contains(word), helpAsked
    else { return }
    if let defined = DefinedFlowCommand.definition(word, environment: environment) {
      throw CleanExit.message(DefinedFlowCommand.help(defined.flow, plan: defined.plan))
    }
    throw CLIError(
      "'\(VisibleText.escaped(word))' is not a command or a flow of a plan; see 'nudge --help' (and 'nudge plan list').\(Suggestion.hint(for: VisibleText.escaped(word), among: Array(Nudge.commandWords)))",
      code: .usage)
  }

  /// What a run that failed with `error` prints and exits with: Nudge's and the store's errors
  /// and usage errors as one line on stderr (64 for usage); help and version on stdout, 0.
  /// `width`: the terminal's, to wrap the line to (nil: one line, however long).
  static func report(_ error: any Error, arguments: [String], width: Int? = nil) -> (
    status: Int32, stdout: String, stderr: String
  ) {
    func wrapped(_ line: String) -> String {
      guard let width else { return line }
      return TerminalText.wrap(line, width: width, indent: 2).joined(separator: "\n")
    }
    if let failure = CLIError.from(error) {
      return (
        failure.code.rawValue, "",
        failure.message.isEmpty
          ? "" : wrapped("nudge: \(VisibleText.escapedKeepingEscapes(failure.message))") + "\n"
      )
    }
    let code = Nudge.exitCode(for: error)
    guard code == .validationFailure, !(error is CleanExit), !(error is ExitCode) else {
      let text = Nudge.fullMessage(for: error)
      let line = text.isEmpty ? "" : text + "\n"
      return code == .success ? (0, line, "") : (code.rawValue, "", line)
    }
    return (
      ExitStatus.usage.rawValue, "",
      wrapped("nudge: \(VisibleText.escaped(usageLine(error, arguments)))") + "\n"
    )
  }
}
