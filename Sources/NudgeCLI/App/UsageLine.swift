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
