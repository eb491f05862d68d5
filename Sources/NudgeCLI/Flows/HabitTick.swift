import NudgeCore
import NudgeStore
import NudgeUseCases

/// A habit marked today with no terminal, from a reminder's button or the tray's menu:
/// journaled (undo takes it back), a note already on the day kept, and said in a notification
/// that goes by itself, with the streak it makes and an achievement it earns.
struct HabitTick {
  let ctx: Context
  let db: AppDatabase

  /// Marks `offer`'s habit `mark` today (`settings`: the day's rollover, the week's start).
  func callAsFunction(_ offer: Reminder.HabitOffer, as mark: HabitCheck.Mark, settings: Settings)
    throws
  {
    let (day, savedAt) = ctx.today(settings, at: ctx.clock.now())
    let note = try db.habitChecks(offer.id, from: day).first { $0.day == day }?.note
    let (_, settled) = try HabitChanges(db: db).record(
      HabitCheck(day: day, mark, note: note, savedAt: savedAt), habit: offer.id, madeOn: day,
      at: savedAt)
    let streak =
      try db.habits().first { $0.id == offer.id }.map {
        try HabitReport.of(
          $0, db, today: day, scoring: false, weekStart: ctx.weekStart(settings)
        ).streak
      } ?? 0
    _ = ctx.notifier.post(
      .habitRecorded(offer, as: mark, streak: streak, earned: settled.newAchievements.first),
      wait: DesktopNotification.Wait(seconds: 0))
  }
}
