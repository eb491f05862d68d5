import ArgumentParser
import NudgeUseCases

/// `nudge redo`: re-applies what the latest undo took back, until the next change.
struct RedoCommand: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "redo",
    abstract: "Re-apply what the latest undo took back.",
    discussion:
      "Run it again after several undos to re-apply each in turn; a new change of any kind ends what can be redone, and only today's undos can be."
  )

  @Flag(help: "Print what was redone as JSON.")
  var json = false

  func run(_ ctx: Context) throws {
    let db = try ctx.openDatabase()
    let today = ctx.today(try db.settings()).day
    // what the latest undo took back is the earliest change undone
    guard let outcome = try RedoChange(db: db)(madeOn: today) else {
      throw CLIError(
        "nothing to redo: no undo made today is left to re-apply (a change since an undo ends what can be redone).",
        code: .failure)
    }
    try JournalStepReport(redo: true).say(ctx, db, outcome, today: today, json: json)
  }
}
