import ArgumentParser
import Dispatch
import FoundationEssentials
import Glibc
import NudgeCore
import NudgeDesktop

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
    // "nudge 0.1.0", as other tools say it (scripts/package takes the last word)
    version: "nudge 0.1.0",
    subcommands: [
      TodayCommand.self, PrepCommand.self, ReviewCommand.self, CheckinCommand.self,
      NeedHelpCommand.self, ShowCommand.self, HistoryCommand.self, EditCommand.self,
      DeleteCommand.self, UndoCommand.self, PauseCommand.self, ResumeCommand.self,
      WeekCommand.self, StreakCommand.self, AchievementsCommand.self,
      CelebrateCommand.self, ScheduleCommand.self, NotifyCommand.self, LogCommand.self,
      OpenCommand.self, DoctorCommand.self, InstallCommand.self, UninstallCommand.self,
      DaemonCommand.self,
      ConfigCommand.self,
      ExportCommand.self,
      ImportCommand.self,
    ],
    defaultSubcommand: TodayCommand.self
  )

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
/// Only the daemon is async: every other command runs on the main thread without starting
/// the concurrency runtime and its threads (start-up is most of a short command's time).
public enum NudgeMain {
  public static func main(arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> Never {
    do {
      var command = try parse(arguments)
      if let asyncCommand = command as? any AsyncParsableCommand {
        runAsync(asyncCommand, arguments: arguments)
      }
      try command.run()
      exit(0)
    } catch {
      fail(error, arguments: arguments)
    }
  }

  /// Runs an async command on the concurrency runtime; the main thread serves the main queue.
  private static func runAsync(_ command: sending any AsyncParsableCommand, arguments: [String])
    -> Never
  {
    Task {
      do {
        var running = command
        try await running.run()
        exit(0)
      } catch {
        fail(error, arguments: arguments)
      }
    }
    dispatchMain()
  }

  private static func fail(_ error: any Error, arguments: [String]) -> Never {
    // on a terminal the line is wrapped to its width (piped, it stays one line for scripts)
    let width = StandardStreams.terminalColumns(of: STDERR_FILENO).map { columns in
      ProcessInfo.processInfo.environment["COLUMNS"].flatMap { Int($0) } ?? columns
    }
    let failure = report(error, arguments: arguments, width: width)
    StandardStreams.write(failure.stderr, to: STDERR_FILENO)
    StandardStreams.write(failure.stdout, to: STDOUT_FILENO)
    exit(failure.status)
  }

  /// The command the arguments name; a `nudge://` link is routed to `open` as data, never
  /// parsed as options (`nudge open --help=x` is a link to refuse).
  static func parse(_ arguments: [String]) throws -> any ParsableCommand {
    let linkWords = OpenCommand.linkWords(arguments)
    let command = try Nudge.parseAsRoot(linkWords == nil ? arguments : ["open"])
    if var open = command as? OpenCommand, let words = linkWords {
      open.words = words
      return open
    }
    return command
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
          ? "" : wrapped("nudge: \(VisibleText.escaped(failure.message))") + "\n"
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

/// Words a newcomer may try for a command, and the command they most likely mean.
let commandSynonyms: [String: String] = [
  "stats": "streak", "statistics": "streak", "progress": "streak", "status": "today",
  "summary": "week", "weekly": "week", "settings": "config", "setup": "install",
  "start": "install", "remove": "uninstall", "craving": "need-help", "sos": "need-help",
  "focus": "review", "morning": "review", "evening": "prep", "tonight": "prep",
  "check-in": "checkin", "night": "checkin", "journal": "log", "reminders": "schedule",
  "remind": "schedule", "times": "schedule", "badges": "achievements", "rewards": "achievements",
  "backup": "export", "restore": "import", "version": "--version", "stop": "pause",
]

/// A parsing failure as one line: argument-parser's message, a "did you mean" for a misspelt
/// command, subcommand or value, and where to read more.
func usageLine(_ error: any Error, _ arguments: [String]) -> String {
  let names = Nudge.configuration.subcommands.map { $0._commandName }
  if let first = arguments.first, !first.hasPrefix("-"), !names.contains(first) {
    let hint = Suggestion.hint(
      for: first, among: names + ["--version"], synonyms: commandSynonyms)
    return "'\(first)' is not a command.\(hint) Usage: nudge [<command>]; see 'nudge --help'."
  }
  // the deepest command the arguments name: its help says what is allowed
  var path = ["nudge"]
  var command: any ParsableCommand.Type = Nudge.self
  var rest = arguments[...]
  while let word = rest.first,
    let sub = command.configuration.subcommands.first(where: { $0._commandName == word })
  {
    path.append(word)
    command = sub
    rest = rest.dropFirst()
  }
  let see = "See '\(path.joined(separator: " ")) --help'."
  let subcommands = command.configuration.subcommands.map { $0._commandName }
  let lines = Nudge.message(for: error).split(separator: "\n").map(String.init)
  var message = lines.first ?? ""
  // a misspelt subcommand ("schedule sett") reads to argument-parser as stray arguments
  if let word = rest.first, !word.hasPrefix("-"), !subcommands.isEmpty,
    message.lowercased().contains("unexpected argument")
  {
    let named = path.dropFirst().joined(separator: " ")
    return
      "'\(word)' is not a '\(named)' command (\(subcommands.joined(separator: ", "))).\(Suggestion.hint(for: word, among: subcommands)) \(see)"
  }
  // a list of allowed values, one per line, becomes part of the one line
  let listed = lines.dropFirst().map { $0.trimmingSpaces }
    .filter { $0.hasPrefix("- ") }.map { String($0.dropFirst(2)) }
  if message.hasSuffix(" one of the following:"), !listed.isEmpty {
    message =
      message.dropLast(" the following:".count) + ": "
      + listed.map { "'\($0)'" }.joined(separator: ", ")
  }
  if let last = message.last, !".?!".contains(last) { message += "." }
  // a value that is not one of those allowed: the closest of them
  if message.hasPrefix("The value '"), let given = quoted(in: message).first {
    let allowed = listed.isEmpty ? Array(quoted(in: message).dropFirst(2)) : listed
    message += Suggestion.hint(for: given, among: allowed)
  }
  return "\(message) \(see)"
}

/// The 'quoted' words of a message, in order.
private func quoted(in text: String) -> [String] {
  text.split(separator: "'", omittingEmptySubsequences: false).enumerated()
    .filter { $0.offset % 2 == 1 }.map { String($0.element) }
}

/// JSON as Nudge prints it: sorted keys, indented, one trailing newline.
func jsonText<T: Encodable>(_ value: T) throws -> String {
  String(decoding: try NudgeJSON.encode(value), as: UTF8.self)
}

/// Parses yes/no answers given as flag values.
func yesNoValue(_ text: String) -> Bool? {
  switch text.lowercased() {
  case "yes", "y", "true", "1": true
  case "no", "n", "false", "0": false
  default: nil
  }
}

/// Cleans an optional flag value as free text, as a usage error when it is not.
func flagText(_ value: String?, _ flag: String) throws -> String? {
  do { return try FreeText.clean(value, field: flag) } catch { throw CLIError.usage(error) }
}

extension Day {
  /// "Sat 21 Nov" for timelines.
  var short: String {
    let names = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    let months = [
      "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]
    return "\(names[weekday]) \(day) \(months[month - 1])"
  }

  /// "Sat".
  var weekdayName: String { ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"][weekday] }

  /// "21 Nov", for the heatmap's week labels.
  var dayMonth: String { String(short.split(separator: " ", maxSplits: 1)[1]) }

  /// "Saturday 21 November" for headings.
  var long: String {
    let names = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    let months = [
      "January", "February", "March", "April", "May", "June", "July", "August", "September",
      "October", "November", "December",
    ]
    return "\(names[weekday]) \(day) \(months[month - 1])"
  }
}

/// "21:30" from a saved timestamp.
func clockTime(_ iso: String) -> String {
  let parts = Array(iso)
  guard parts.count >= 16 else { return iso }
  return String(parts[11..<16])
}

/// An optional that is written as JSON `null` when absent, so every documented key is always
/// present (synthesised `Encodable` would leave the key out).
// swift-format-ignore: UseSynthesizedInitializer
@propertyWrapper
struct NullWhenAbsent<Value: Encodable>: Encodable {
  var wrappedValue: Value?

  // spelled out: property-wrapper initialisation needs it
  init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
  }
}
