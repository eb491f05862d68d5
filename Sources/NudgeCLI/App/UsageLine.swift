import ArgumentParser
import FoundationEssentials
import NudgeCore
import NudgeLinux

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

/// What is wrong with a command line argument-parser refused, found from the arguments and
/// the commands' declared shape (argument-parser's tool-info dump: the stable, versioned form
/// of every command's subcommands, options and allowed values), never from its message text.
enum UsageProblem: Equatable {
  /// The first word names no command.
  case notACommand(String)
  /// A word where `command` (its path, "schedule") takes only one of its subcommands.
  case notASubcommand(String, command: String, subcommands: [String])
  /// A value not among those an option or argument allows.
  case notAllowed(String, argument: String, allowed: [String])
  /// Anything else: argument-parser's own first line (an unknown option, a missing value…).
  case other(String)

  /// The problem with `arguments`, which argument-parser refused with `error`.
  static func diagnose(_ arguments: [String], error: any Error) -> UsageProblem {
    let root = CommandShape.root
    let names = root.subcommands.map(\.name)
    if let first = arguments.first, !first.hasPrefix("-"), !names.contains(first) {
      return .notACommand(first)
    }
    let (path, command, rest) = root.deepest(arguments)
    if let word = rest.first, !word.hasPrefix("-"), !command.subcommands.isEmpty,
      !(command.defaultSubcommand?.takesPositionals ?? false)
    {
      return .notASubcommand(
        word, command: path.joined(separator: " "), subcommands: command.subcommands.map(\.name))
    }
    // a value outside its declared list is the problem only if putting an allowed one in its
    // place changes the outcome (a type may take aliases: y for yes, a title for an id)
    let refusal = Nudge.message(for: error)
    for (index, given, argument, allowedWord) in command.undeclaredValues(in: rest) {
      var fixed = arguments
      fixed[index] = allowedWord
      let outcome = Result { try Nudge.parse(fixed) }
      if case .failure(let other) = outcome, Nudge.message(for: other) == refusal { continue }
      return .notAllowed(given, argument: argument.label, allowed: argument.allowed)
    }
    return .other(oneLine(refusal))
  }

  /// argument-parser's message as one line: its first line, and a list it gives one item a
  /// line (the values allowed) folded into it.
  static func oneLine(_ message: String) -> String {
    let lines = message.split(separator: "\n").map { $0.trimmingSpaces }
    var first = lines.first ?? ""
    let listed = lines.dropFirst().filter { $0.hasPrefix("- ") }.map { "'\($0.dropFirst(2))'" }
    if !listed.isEmpty {
      first = first.trimming { $0 == ":" || $0 == " " } + ": " + listed.joined(separator: ", ")
    }
    return first
  }

  /// The problem as one line: what is wrong, the closest allowed word, and where to read more.
  func line(_ arguments: [String]) -> String {
    let path = ["nudge"] + CommandShape.root.deepest(arguments).path
    let see = "See '\(path.joined(separator: " ")) --help'."
    switch self {
    case .notACommand(let word):
      let names = CommandShape.root.subcommands.map(\.name)
      let hint = Suggestion.hint(
        for: word, among: names + ["--version"], synonyms: commandSynonyms)
      return "'\(word)' is not a command.\(hint) Usage: nudge [<command>]; see 'nudge --help'."
    case .notASubcommand(let word, let command, let subcommands):
      return
        "'\(word)' is not a '\(command)' command (\(subcommands.joined(separator: ", "))).\(Suggestion.hint(for: word, among: subcommands)) \(see)"
    case .notAllowed(let given, let argument, let allowed):
      return
        "The value '\(given)' is invalid for '\(argument)': use one of \(allowed.map { "'\($0)'" }.joined(separator: ", ")).\(Suggestion.hint(for: given, among: allowed)) \(see)"
    case .other(var message):
      if let last = message.last, !".?!".contains(last) { message += "." }
      // a value or a name that starts with '-' was read as an option ('habit add -2+3')
      if message.hasPrefix("Missing"),
        let dashed = arguments.first(where: {
          $0.count > 1 && $0.hasPrefix("-") && !$0.hasPrefix("--") && !["-h", "-o"].contains($0)
        })
      {
        message +=
          " '\(dashed)' was read as an option: a name can't start with '-', and a value that does goes after '=' (--note=\(dashed))."
      }
      return "\(message) \(see)"
    }
  }
}

/// A parsing failure as one line (see `UsageProblem`).
func usageLine(_ error: any Error, _ arguments: [String]) -> String {
  UsageProblem.diagnose(arguments, error: error).line(arguments)
}

/// A command as its tool-info dump declares it: its subcommands (and the default one) and
/// its arguments.
struct CommandShape: Decodable {
  /// One argument: its kind, names, value name and the values it allows (empty: any).
  struct Argument: Decodable {
    enum Kind: String, Decodable { case positional, option, flag }
    struct Name: Decodable {
      var kind: String
      var name: String
      var spelled: String {
        kind == "short" ? "-" + name : kind == "long" ? "--" + name : "-" + name
      }
    }
    var kind: Kind
    var names: [Name]?
    var valueName: String?
    var allValues: [String]?
    var isRepeating: Bool?

    var allowed: [String] { allValues ?? [] }
    /// How a message names it: "--category <stress|habit…>", or "<slot>".
    var label: String {
      if let name = names?.first(where: { $0.kind == "long" }) ?? names?.first {
        return name.spelled + (valueName.map { " <\($0)>" } ?? "")
      }
      return "<\(valueName ?? "value")>"
    }
  }

  var commandName: String
  var defaultSubcommandName: String?
  var subcommandShapes: [CommandShape]?
  var arguments: [Argument]?

  enum CodingKeys: String, CodingKey {
    case commandName, arguments
    case defaultSubcommandName = "defaultSubcommand"
    case subcommandShapes = "subcommands"
  }

  var name: String { commandName }
  var subcommands: [CommandShape] { subcommandShapes ?? [] }
  var defaultSubcommand: CommandShape? {
    defaultSubcommandName.flatMap { name in subcommands.first { $0.name == name } }
  }
  var takesPositionals: Bool { (arguments ?? []).contains { $0.kind == .positional } }

  /// Nudge's commands, read once from argument-parser's dump of them.
  static let root: CommandShape = {
    struct Dump: Decodable { var command: CommandShape }
    let json = Data(Nudge._dumpHelp().utf8)
    return (try? JSONDecoder().decode(Dump.self, from: json).command)
      ?? CommandShape(commandName: "nudge")
  }()

  /// The deepest command the arguments name: its path below `nudge`, its shape and the
  /// arguments after it.
  func deepest(_ arguments: [String]) -> (
    path: [String], command: CommandShape, rest: ArraySlice<String>
  ) {
    var path: [String] = []
    var command = self
    var rest = arguments[...]
    while let word = rest.first, let sub = command.subcommands.first(where: { $0.name == word }) {
      path.append(word)
      command = sub
      rest = rest.dropFirst()
    }
    return (path, command, rest)
  }

  /// The values in `words` (a slice of the arguments: its indices are theirs) that an option
  /// or positional with a list of allowed values does not list, in order, with their index,
  /// argument, and the word at that index with an allowed value in its place; the scan stops
  /// at an option this command does not have (that is the problem).
  func undeclaredValues(in words: ArraySlice<String>) -> [(Int, String, Argument, String)] {
    let all = arguments ?? []
    func option(named word: Substring) -> Argument? {
      all.first { argument in argument.names?.contains { $0.spelled == word } ?? false }
    }
    var positionals = all.filter { $0.kind == .positional }[...]
    var found: [(Int, String, Argument, String)] = []
    var index = words.startIndex
    while index < words.endIndex {
      let word = words[index]
      if word == "--" { break }
      if word.hasPrefix("-") && word.count > 1 {
        let parts = word.split(separator: "=", maxSplits: 1)
        guard let argument = option(named: parts[0]) else { break }
        if argument.kind == .option {
          if parts.count == 2 {
            // --name=value: the value is part of the word, not a word of its own
            let value = String(parts[1])
            if !argument.allowed.isEmpty, !argument.allowed.contains(value) {
              found.append((index, value, argument, "\(parts[0])=\(argument.allowed[0])"))
            }
            index += 1
            continue
          }
          let valueIndex = index + 1
          if valueIndex < words.endIndex, !argument.allowed.isEmpty,
            !argument.allowed.contains(words[valueIndex])
          {
            found.append((valueIndex, words[valueIndex], argument, argument.allowed[0]))
          }
          index += 2
          continue
        }
        index += 1
        continue
      }
      if let argument = positionals.first {
        if !(argument.isRepeating ?? false) { positionals = positionals.dropFirst() }
        if !argument.allowed.isEmpty, !argument.allowed.contains(word) {
          found.append((index, word, argument, argument.allowed[0]))
        }
      }
      index += 1
    }
    return found
  }
}
