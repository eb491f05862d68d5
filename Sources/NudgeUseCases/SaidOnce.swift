import NudgeStore

/// A note said once on this computer (such as "no user manager: the timers wait for one"): the
/// first ask says it is new, and remembers that it was said.
public struct SaidOnce: Sendable {
  public let db: AppDatabase

  public init(db: AppDatabase) { self.db = db }

  /// True the first time `note` is asked about, false after.
  public func isNew(_ note: String) throws(StoreError) -> Bool { try db.firstTime(note) }
}
