import NudgeCore

/// Asks questions on the terminal; only used when a person is there to answer.
struct Prompter {
  let ctx: Context

  var style: Style { ctx.style }

  /// Ctrl-D at a prompt: leave without saving.
  static let cancelled = CLIError("Cancelled; nothing was saved.", code: .failure)

  private func read() throws -> String {
    guard let line = ctx.input.readLine() else {
      ctx.line()
      throw Self.cancelled
    }
    return line
  }

  /// Free text; Enter keeps `current` (shown in brackets), "-" clears it.
  func text(_ question: String, current: String? = nil) throws -> String? {
    while true {
      let hint = current.map { style.dim(" [\($0)]") } ?? style.dim(" (Enter to skip)")
      ctx.output.write("\(question)\(hint) ")
      let answer = try read()
      if answer.trimmingSpaces.isEmpty { return current }
      if answer.trimmingSpaces == "-" { return nil }
      do {
        // the person sees "that answer", never an internal field name
        return try FreeText.clean(answer, field: "That answer")
      } catch {
        ctx.line(style.yellow(error.message))
      }
    }
  }

  /// Yes or no; Enter takes `current` when there is one.
  func yesNo(_ question: String, current: Bool? = nil) throws -> Bool {
    try yesNo(question, current: current, allowingAll: false)!
  }

  /// Yes, no, or "a" for all (nil; the first question of a checklist); Enter takes `current`.
  func yesNoOrAll(_ question: String, current: Bool? = nil) throws -> Bool? {
    try yesNo(question, current: current, allowingAll: true)
  }

  private func yesNo(_ question: String, current: Bool?, allowingAll: Bool) throws
    -> Bool?
  {
    let all = allowingAll ? "/a" : ""
    let hint =
      switch current {
      case true?: "[Y/n\(all)]"
      case false?: "[y/N\(all)]"
      case nil: "[y/n\(all)]"
      }
    while true {
      ctx.output.write("\(question) \(style.dim(hint)) ")
      switch try read().trimmingSpaces.lowercased() {
      case "y", "yes": return true
      case "n", "no": return false
      case "a",
        "all" where allowingAll:
        return nil
      case "" where current != nil: return current!
      default:
        ctx.line(
          style.yellow(allowingAll ? "Type y or n, or a when everything is ready." : "Type y or n.")
        )
      }
    }
  }

  /// A numbered menu; accepts the number or the option's key. Enter takes `current`.
  func choose<Option>(
    _ question: String, options: [Option], key: (Option) -> String, label: (Option) -> String,
    current: Option? = nil
  ) throws -> Option {
    ctx.line(question)
    for (index, option) in options.enumerated() {
      ctx.line("  \(style.bold("\(index + 1)")) \(label(option))")
    }
    let currentIndex = current.flatMap { c in options.firstIndex { key($0) == key(c) } }
    while true {
      let hint = currentIndex.map { " [\($0 + 1)]" } ?? ""
      ctx.output.write("Choose 1-\(options.count)\(style.dim(hint)): ")
      let answer = try read().trimmingSpaces.lowercased()
      if answer.isEmpty, let currentIndex { return options[currentIndex] }
      if let n = Int(answer), (1...options.count).contains(n) { return options[n - 1] }
      if let match = options.first(where: { key($0) == answer }) { return match }
      ctx.line(style.yellow("Type a number from 1 to \(options.count)."))
    }
  }
}

extension Context {
  /// Decides whether to ask questions: only on a terminal and without `--no-input`. Off a
  /// terminal with no answers given, it fails naming the flags instead of waiting for input.
  func isInteractive(noInput: Bool, hasAnswers: Bool, example: String) throws -> Bool {
    if noInput { return false }
    if input.isTerminal { return true }
    if hasAnswers { return false }
    throw CLIError(
      "stdin is not a terminal, so Nudge will not ask; pass the answers as flags, for example: \(example)",
      code: .usage)
  }
}
