import NudgeCore
import NudgeStore

/// Changes the days off (`nudge pause`, `resume`, `pause remove`),
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

    public init(new: [Achievement], lost: [Achievement]) {
      self.new = new
      self.lost = lost
    }
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

  private func change(
    _ kind: PauseChange.Kind, _ pause: Pause, today: Day, at: String,
    _ body: () throws(StoreError) -> Void
  ) throws(StoreError) -> Settled {
    try db.inTransaction {
      let ledger = AchievementLedger(db: db)
      let heldBefore = try ledger.held()
      try db.journaling(
        .pause(kind, pause), madeOn: today, at: at,
        keys: .everyPause, body)
      let (new, lost) = try ledger.settle(heldBefore: heldBefore)
      return Settled(new: new, lost: lost)
    }
  }
}
