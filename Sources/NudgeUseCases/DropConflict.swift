import NudgeStore

/// Drops a kept sync conflict (`nudge sync drop`): the version that won stays; the other is
/// marked dropped, so the same version arriving again is not shown again.
public struct DropConflict: Sendable {
  public let db: AppDatabase

  public init(db: AppDatabase) { self.db = db }

  /// Drops conflict `id`; false when there is none.
  public func callAsFunction(_ id: Int) throws(StoreError) -> Bool { try db.dropSyncConflict(id) }
}
