import ArgumentParser
import FoundationEssentials
import NudgeCore
import NudgeLinux

/// `nudge --help`, the help a person asks for first, written without the argument parser: the
/// parser reflects the whole command tree before it writes a line, a third of the command's
/// time. The text is laid out as the parser lays it out (its columns, its wrapping, its width
/// rules), from the commands' own configurations; `RootHelpTests` holds it byte for byte to
/// the parser's at every width from 27 to 200.
enum RootHelp {
  /// The widths the parser's layout is followed for: a narrower one is left to the parser.
  static let widths = 27...10_000

  /// Whether `arguments` ask for the root's help and nothing else.
  static func isAsked(_ arguments: [String]) -> Bool {
    arguments == ["--help"] || arguments == ["-h"] || arguments == ["help"]
  }

  /// The width the parser would wrap to: `COLUMNS` when it is a number, else the terminal's
  /// on standard output, else 80.
  static func width() -> Int {
    if let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap({ Int($0) }) {
      return columns
    }
    return StandardStreams.terminalColumns() ?? 80
  }

  /// The root's help at `width` columns, without its final newline.
  static func text(width: Int) -> String {
    let root = Nudge.configuration
    var overview = root.abstract
    if !root.discussion.isEmpty {
      overview += (overview.isEmpty ? "" : "\n") + "\n" + root.discussion
    }
    var text = overview.isEmpty ? "" : wrapped("OVERVIEW: " + overview, width: width) + "\n\n"
    text += "USAGE: nudge <subcommand>\n\n"
    text += "OPTIONS:\n"
    text += row("--version", "Show the version.", width: width)
    text += row("-h, --help", "Show help information.", width: width)
    text += "\nSUBCOMMANDS:\n"
    for command in root.subcommands where command.configuration.shouldDisplay {
      let configuration = command.configuration
      let name = configuration.commandName ?? "\(command)"
      let isDefault =
        root.defaultSubcommand.map { ObjectIdentifier($0) == ObjectIdentifier(command) } ?? false
      text += row(name + (isDefault ? " (default)" : ""), configuration.abstract, width: width)
    }
    return text + "\n  See 'nudge help <subcommand>' for detailed help."
  }

  /// The flows the plans add, each a command of its own, after the root's help: every plan's
  /// (built in and the person's files), whether on or off (no database is opened for help).
  static func planFlows(_ environment: [String: String], width: Int = RootHelp.width()) -> String {
    let catalogue = Context.planCatalogue(environment, files: LinuxPlatform().files)
    let flows = PlanSet(catalogue: catalogue, choices: [:]).definedFlows
    guard !flows.isEmpty else { return "" }
    var text =
      "\n\nFLOWS OF PLANS (see 'nudge plan list'; 'nudge WORD --help' lists the questions):\n"
    for (flow, plan) in flows {
      text += row(
        flow.word, "\(VisibleText.escaped(flow.title)) (the \(plan.name) plan)", width: width)
    }
    return String(text.dropLast())
  }

  /// The label column is 26 wide, indented by 2; an abstract that does not fit beside a long
  /// label starts on the next line.
  private static func row(_ label: String, _ abstract: String, width: Int) -> String {
    let label = "  " + label
    guard !abstract.isEmpty else { return label + "\n" }
    let body = wrapped(abstract, width: width, indent: 26)
    return label.count < 26
      ? label + String(body.dropFirst(label.count)) + "\n" : label + "\n" + body + "\n"
  }

  /// `text` wrapped at spaces to `width` columns, every line but empty ones indented by
  /// `indent`; a word longer than a line stands alone, a newline always breaks.
  static func wrapped(_ text: String, width: Int, indent: Int = 0) -> String {
    let columns = width - indent
    guard columns > 0 else { return "" }
    var lines: [Substring] = []
    var start = text.startIndex
    while true {
      let chunk = text[start...].prefix(columns)
      if let lastBreak = chunk.lastIndex(of: "\n") {
        lines += text[start..<lastBreak].split(separator: "\n", omittingEmptySubsequences: false)
        start = text.index(after: lastBreak)
      } else if chunk.endIndex == text.endIndex {
        lines.append(text[start...])
        break
      } else if let lastSpace = chunk.lastIndex(of: " ") {
        lines.append(text[start..<lastSpace])
        start = text.index(after: lastSpace)
      } else if let nextSpace = text[start...].firstIndex(of: " ") {
        lines.append(text[start..<nextSpace])
        start = text.index(after: nextSpace)
      } else {
        lines.append(text[start...])
        break
      }
    }
    let margin = String(repeating: " ", count: indent)
    return lines.map { $0.isEmpty ? "" : margin + $0 }.joined(separator: "\n")
  }
}
