import NudgeCore
import NudgeStore
import NudgeUseCases

/// What `undo` and `redo` say of a change to the days off.
enum PauseUndo {
  struct Report: Encodable {
    var undone: String?
    var redone: String?
    var pause: Pause
    var pauses: [Pause]
    var newAchievements: [Achievement]
    var lostAchievements: [Achievement]
  }

  static func say(
    _ ctx: Context, _ db: AppDatabase, _ change: PauseChange, _ moved: UndoChange.Settled,
    redo: Bool, today: Day, json: Bool
  ) throws {
    let settled = PauseDays.Settled(new: moved.newAchievements, lost: moved.lostAchievements)
    let kind = "pause-" + change.kind.rawValue
    try ctx.render(
      Report(
        undone: redo ? nil : kind, redone: redo ? kind : nil, pause: change.pause,
        pauses: try db.pauses(), newAchievements: settled.new,
        lostAchievements: settled.lost), json: json
    ) {
      let range = PauseCommand.range(change.pause.firstDay, change.pause.lastDay)
      let what =
        switch (change.kind, redo) {
        case (.paused, false): "Undone: the pause \(range) (those days count as any others again)."
        case (.paused, true): "Redone: the pause \(range) (days off again)."
        case (.resumed, false):
          "Undone: the resume (paused until \(change.pause.lastDay.short) again)."
        case (.resumed, true): "Redone: the resume (reminders are back from today)."
        case (.removed, false): "Undone: removing the pause \(range) (it is back)."
        case (.removed, true): "Redone: removing the pause \(range) (it is gone again)."
        }
      ctx.line(ctx.style.green("✓") + " " + what)
      PauseCommand.sayAchievements(ctx, settled, streak: try ctx.streak(db, today: today))
      if !redo { ctx.line(ctx.style.dim("Undid one too many? 'nudge redo' re-applies it.")) }
    }
  }
}
