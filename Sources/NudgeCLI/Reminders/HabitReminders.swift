import NudgeCore
import NudgeStore

/// Writing a habit change through to its reminder's timer, when the reminders are installed
/// (a habit removed, archived or without a time loses its timer).
enum HabitReminders {
  static func update(_ ctx: Context, _ db: AppDatabase) throws {
    try UserUnits(ctx: ctx, dryRun: false).update(try ctx.allSchedules(db), db: db)
  }

  /// What a habit's slot offers `today`: the habit, while today (or its period) wants it and it
  /// was neither done nor skipped today; nil otherwise, or when no habit has that slot.
  static func offer(_ db: AppDatabase, _ slot: ReminderSource, today: Day) throws -> Reminder.Offer?
  {
    guard let id = slot.habitID,
      let habit = try db.habits(includingArchived: false).first(where: { $0.id == id })
    else { return nil }
    let report = try HabitReport.of(habit, db, today: today, scoring: false)
    guard report.today == .due else { return nil }
    return .habit(HabitText.offer(habit, streak: report.streak))
  }
}
