import NudgeCore
import NudgeStore

/// This computer joining or leaving sync (`nudge sync init|leave`).
public struct SyncMembership: Sendable {
  public let db: AppDatabase

  public init(db: AppDatabase) { self.db = db }

  /// Joins the sync folder at `folder` as `name`, with the id this computer had before (the
  /// others know it by it) or a new one; returns this device as it is now.
  public func join(name: String, folder: String, at: String) throws(StoreError) -> SyncSelf? {
    try db.inTransaction {
      try db.joinSync(
        device: try db.syncIdentity() ?? SyncDevice.newID(), name: name, folder: folder, at: at)
      return try db.syncDevice()
    }
  }

  /// Leaves sync (what was synced stays here).
  public func leave() throws(StoreError) { try db.leaveSync() }
}
