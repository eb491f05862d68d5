import NudgeCore

extension Context {
  /// What a change that can take history away did to the achievements, said plainly: each one
  /// taken back (and why), each one earned.
  func sayAchievements(lost: [Achievement], new: [Achievement], lostBecause: String) {
    for achievement in lost {
      line(
        style.yellow("Achievement taken back: \(achievementTitle(achievement)) (\(lostBecause))."))
    }
    for achievement in new {
      line("🏆 Achievement: \(achievementTitle(achievement)).")
    }
  }
}
