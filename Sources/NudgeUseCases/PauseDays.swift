import NudgeCore
import NudgeStore

/// Changes the days off (`nudge pause`, `resume`, `pause remove`, and `undo`/`redo` of those),
/// each in one transaction: the pauses are stored, the change is journaled for `undo`, and
/// achievements follow the history they give (a streak that waited over sick days may reach a
/// milestone it had missed; one a wrong pause gave is taken back when the pause goes).
public struct PauseDays: Sendable {
  public let db: AppDatabase

  public init(db: AppDatabase) { self.db = db }

  /// What a change of the days off did to the achievements.
  public struct Settled: Sendable {
    public var new: [Achievement]
    public var lost: [Achievement]
  }

  /// Stores `pause` as of `today` (ahead, from today, or past); returns the achievements it
  /// gave and took away.
  public func callAsFunction(_ pause: Pause, today: Day, at: String) throws(StoreError) -> Settled {
    try change(.paused, pause, today: today, at: at) { () throws(StoreError) in
      try db.startPause(pause, today: today)
    }
  }

  /// Ends the pause covering `today` (it lasted until yesterday); nil when none covers today.
  public func resume(today: Day, at: String) throws(StoreError) -> (ended: Pause, Settled)? {
    try db.inTransaction {
      guard let covering = try db.pauses().first(where: { $0.contains(today) }) else {
        return nil
      }
      let settled = try change(.resumed, covering, today: today, at: at) {
        () throws(StoreError) in try db.endPause(today: today)
      }
      return (covering, settled)
    }
  }

  /// Takes `pause` away whole; nil when no pause starts on its first day.
  public func remove(_ pause: Pause, today: Day, at: String) throws(StoreError) -> Settled? {
    try db.inTransaction {
      guard try db.pauses().contains(pause) else { return nil }
      return try change(.removed, pause, today: today, at: at) { () throws(StoreError) in
        _ = try db.removePause(startingOn: pause.firstDay)
      }
    }
  }

  /// What an undo (or a redo) of a pause change did.
  public enum Moved: Sendable {
    case moved(PauseChange, Settled)
    /// The days off are no longer as the change left them (a sync or an import changed them
    /// since): nothing was changed.
    case changedSince(PauseChange)
  }

  /// Takes `change` back (`undo`: the days off as they were before it) or re-applies it
  /// (`redo`), when the days off are still as it left them.
  public func move(_ change: PauseChange, undo: Bool) throws(StoreError) -> Moved {
    try db.inTransaction {
      let (expected, target) = undo ? (change.after, change.before) : (change.before, change.after)
      guard Pause.disjoint(try db.pauses()) == Pause.disjoint(expected) else {
        return .changedSince(change)
      }
      let ledger = AchievementLedger(db: db)
      let heldBefore = try ledger.held()
      try db.movePauses(to: target, marking: change, undone: undo)
      let (new, lost) = try ledger.settle(heldBefore: heldBefore)
      return .moved(change, Settled(new: new, lost: lost))
    }
  }

  private func change(
    _ kind: PauseChange.Kind, _ pause: Pause, today: Day, at: String,
    _ body: () throws(StoreError) -> Void
  ) throws(StoreError) -> Settled {
    try db.inTransaction {
      let ledger = AchievementLedger(db: db)
      let heldBefore = try ledger.held()
      let before = try db.pauses()
      try body()
      try db.journalPauses(
        kind, pause, madeOn: today, at: at, before: before, after: try db.pauses())
      let (new, lost) = try ledger.settle(heldBefore: heldBefore)
      return Settled(new: new, lost: lost)
    }
  }
}
