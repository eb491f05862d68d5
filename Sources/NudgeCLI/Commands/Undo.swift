import ArgumentParser
import NudgeUseCases

/// `nudge undo`: takes back the latest change made today.
struct UndoCommand: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "undo",
    abstract:
      "Take back the latest change made today (a save, an edit, a delete, a habit's, a pause, a reminder time, a setting, a plan on or off).",
    discussion:
      "Run it again to take back the change before that; only today's changes can be undone. 'nudge redo' re-applies what an undo took back."
  )

  @Flag(help: "Print what was undone as JSON.")
  var json = false

  func run(_ ctx: Context) throws {
    let db = try ctx.openDatabase()
    let today = ctx.today(try db.settings()).day
    // the latest change of any kind: an entry's, a habit's, the days off's, a time's, a setting's
    guard let outcome = try UndoChange(db: db)(madeOn: today) else {
      throw CLIError(
        "nothing to undo: no change made today is left to take back (undo reaches today's saves, edits, deletes, habits, pauses, reminder times, settings and plans).",
        code: .failure)
    }
    try JournalStepReport(redo: false).say(ctx, db, outcome, today: today, json: json)
  }
}
