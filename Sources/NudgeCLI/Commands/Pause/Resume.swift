import ArgumentParser
import NudgeCore
import NudgeUseCases

/// `nudge resume`: ends today's pause.
struct ResumeCommand: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "resume", abstract: "End a pause early: reminders are back from today.")

  func run(_ ctx: Context) throws {
    let db = try ctx.openDatabase()
    let today = ctx.today(try db.settings()).day
    let at = InstantFormat.format(ctx.clock.started, in: ctx.timeZone)
    guard let (ended, _) = try PauseDays(db: db).resume(today: today, at: at) else {
      let next = try db.pauses().filter { $0.isAhead(of: today) }.min { $0.firstDay < $1.firstDay }
      throw CLIError(
        "nothing to resume: no pause covers today"
          + (next.map {
            "; the next starts \($0.firstDay.short) (to cancel it: nudge pause list, then nudge pause remove N)."
          } ?? "."), code: .failure)
    }
    ctx.line(
      ctx.style.green("✓") + " Resumed: reminders are back from today"
        + (ended.firstDay < today
          ? " (the pause covered \(ended.firstDay.long) to yesterday)." : "."))
  }
}
