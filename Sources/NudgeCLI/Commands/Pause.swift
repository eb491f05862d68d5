import ArgumentParser
import NudgeCore

/// `nudge pause`: days off for a holiday or sick days.
struct PauseCommand: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "pause",
    abstract: "Take days off: no reminders, and your streak waits (it neither grows nor breaks).",
    discussion: """
      The pause starts today and ends by itself after its last day; 'nudge resume' ends it \
      early. A flow you do while paused still counts. Paused days use no streak freeze.
      """)

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "The last day of the pause: tomorrow, a weekday (the next one) or YYYY-MM-DD.",
      valueName: "day"))
  var until: String?

  // (unconditional: "--for -3d" is a length to refuse, not a missing value and an option)
  @Option(
    name: .customLong("for"), parsing: .unconditional,
    help: ArgumentHelp("How long, today included: days or weeks (5d, 2w).", valueName: "length"))
  var length: String?

  @Flag(help: "Print the pause as JSON.")
  var json = false

  func run(_ ctx: Context) throws {
    let db = try ctx.openDatabase()
    let today = ctx.today(try db.settings()).day
    let last: Day
    do { last = try Pause.lastDay(until: until, for: length, today: today) } catch {
      throw CLIError(
        "\(error.message) For example: nudge pause --for 5d, nudge pause --until tomorrow, or nudge pause --until \(today.adding(days: 6)).",
        code: .usage)
    }
    let pause = Pause(firstDay: today, lastDay: last)
    try db.startPause(pause)
    if json {
      ctx.line(try jsonText(pause))
      return
    }
    let days = last.ordinal - today.ordinal + 1
    ctx.line(
      ctx.style.green("✓") + " Paused until \(last.long) (\(days == 1 ? "today" : "\(days) days"))."
    )
    ctx.wrappedLine(
      "No reminders until then, and your streak waits: it neither grows nor breaks, and uses no freeze. A flow you do still counts. End it early with: nudge resume"
    )
  }
}

/// `nudge resume`: ends today's pause.
struct ResumeCommand: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "resume", abstract: "End a pause early: reminders are back from today.")

  func run(_ ctx: Context) throws {
    let db = try ctx.openDatabase()
    let today = ctx.today(try db.settings()).day
    guard let ended = try db.endPause(today: today) else {
      throw CLIError("nothing to resume: no pause covers today.", code: .failure)
    }
    ctx.line(
      ctx.style.green("✓") + " Resumed: reminders are back from today"
        + (ended.firstDay < today
          ? " (the pause covered \(ended.firstDay.long) to yesterday)." : "."))
  }
}
