import NudgeCore
import NudgeStore

/// The next celebration drawn and remembered, inside the caller's transaction: the one place a
/// reward is drawn, for a flow finished (`FinishFlow`) and a habit's day done (`HabitChanges`).
struct CelebrationDraw {
  let db: AppDatabase
  let reward: RewardDraw

  /// Draws the next celebration (the core's rules, from what was earned and the moment) and
  /// remembers it; nil, and nothing remembered, when the draw gives none.
  func callAsFunction(
    newAchievements: [Achievement], updated: Bool, moment: CelebrationMoment = .regular
  ) throws(StoreError) -> StoredCelebration? {
    let drawn = try db.celebrationsDrawn()
    guard
      let celebration = reward.celebration(
        number: drawn.count, newAchievements: newAchievements, updated: updated,
        celebrationsOn: try db.settings().celebrationsOn, recentMessages: drawn.recentMessages,
        moment: moment)
    else { return nil }
    let stored = StoredCelebration(number: drawn.count, celebration: celebration)
    try db.rememberCelebration(stored, keepingRecent: RewardPicker.freshness)
    return stored
  }
}
