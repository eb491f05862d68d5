import NudgeCore
import NudgeStore

/// Writing a habit change through to its reminder's timer, when the reminders are installed
/// (a habit removed, archived or without a time loses its timer).
enum HabitReminders {
  static func update(_ ctx: Context, _ db: AppDatabase) throws {
    try UserUnits(ctx: ctx, dryRun: false).update(try ctx.allSchedules(db), db: db)
  }
}
