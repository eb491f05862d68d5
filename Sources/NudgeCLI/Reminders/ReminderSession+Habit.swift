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
    try HabitTick(ctx: ctx, db: db)(habit, as: mark, settings: post.settings)
    let outcome: Reminder.Outcome = Reminder.Outcome(rawValue: mark.rawValue) ?? .done
    try log(outcome)
    return report(outcome)
  }
}
