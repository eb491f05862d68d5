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
