import NudgeCore
import NudgeStore
import NudgeUseCases

extension OnScreen {
  /// Records a habit done, skipped or failed today from its reminder, with no terminal:
  /// journaled (undo takes it back), logged `done`, `skipped` or `failed`, and said in a
  /// notification that goes by itself. A note already on the day stays.
  func record(_ habit: Reminder.HabitOffer, as mark: HabitCheck.Mark) throws
    -> Reminder.RunReport
  {
    let (day, savedAt) = ctx.today(post.settings, at: ctx.clock.now())
    let note = try db.habitChecks(habit.id, from: day).first { $0.day == day }?.note
    let (_, settled) = try HabitChanges(db: db).record(
      HabitCheck(day: day, mark, note: note, savedAt: savedAt), habit: habit.id, madeOn: day,
      at: savedAt)
    let outcome: Reminder.Outcome = Reminder.Outcome(rawValue: mark.rawValue) ?? .done
    try log(outcome)
    let streak =
      try db.habits().first { $0.id == habit.id }.map {
        try HabitReport.of(
          $0, db, today: day, scoring: false, weekStart: ctx.weekStart(try db.settings())
        ).streak
      } ?? 0
    _ = ctx.notifier.post(
      .habitRecorded(
        habit, as: mark, streak: streak, earned: settled.newAchievements.first),
      wait: DesktopNotification.Wait(seconds: 0))
    return report(outcome)
  }
}
