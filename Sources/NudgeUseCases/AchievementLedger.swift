import NudgeCore
import NudgeStore

/// Holds the stored achievements to the history, with the core's `AchievementRule`: earns the
/// ones whose condition now holds (each kept at the earliest day it held), and after a change
/// that can take history away, takes back those whose condition no longer holds. Runs inside
/// its caller's transaction.
public struct AchievementLedger {
  let db: AppDatabase

  public init(db: AppDatabase) { self.db = db }

  /// The achievements whose condition holds on the history as it is now.
  public func held() throws(StoreError) -> Set<Achievement> {
    Set(AchievementRule.evaluate(try db.historyFacts()).keys)
  }

  /// Earns what the history now earns (unless not `awarding`: a delete only takes away) and,
  /// when `heldBefore` is given (what held before a change that can take history away), takes
  /// back what it no longer supports; moves each kept one to the day its condition first
  /// holds. Returns the new and the taken back.
  public func settle(heldBefore: Set<Achievement>?, awarding: Bool = true) throws(StoreError) -> (
    new: [Achievement], lost: [Achievement]
  ) {
    let computed = AchievementRule.evaluate(try db.historyFacts())
    let stored = try db.achievements()
    var new: [Achievement] = []
    var lost: [Achievement] = []
    // the compiled-in ones, then each flow's first, computed or stored
    let firsts = Set(computed.keys).union(stored.keys).subtracting(Achievement.allCases)
    for achievement in Achievement.allCases + firsts.sorted(by: { $0.rawValue < $1.rawValue }) {
      switch (computed[achievement], stored[achievement]) {
      case (let day?, nil) where awarding:
        try db.recordAchievement(achievement, earnedOn: day)
        new.append(achievement)
      case (let day?, let old?) where day < old:
        try db.recordAchievement(achievement, earnedOn: day)
      case (let day?, let old?) where day != old && heldBefore?.contains(achievement) == true:
        try db.recordAchievement(achievement, earnedOn: day)
      case (nil, _?) where heldBefore?.contains(achievement) == true:
        try db.removeAchievement(achievement)
        lost.append(achievement)
      default:
        break
      }
    }
    return (new, lost)
  }

  /// Holds every stored achievement to the entries (after an import): one no entry supports
  /// (one a file brought before this rule, say) is taken back.
  public func recompute() throws(StoreError) -> (new: [Achievement], lost: [Achievement]) {
    try settle(heldBefore: Set(try db.achievements().keys))
  }
}
