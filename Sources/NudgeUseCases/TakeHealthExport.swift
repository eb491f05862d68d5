import NudgeCore
import NudgeStore

/// Takes one export's nights, days and workouts into the health store, in one transaction;
/// the same file again writes nothing.
public enum TakeHealthExport {
  public static func run(_ batch: HealthImportBatch, into store: HealthDatabase) throws(StoreError)
    -> HealthTakeResult
  {
    try store.take(batch)
  }

  /// Notes a source folder's file that was refused as it is now (it is said once).
  public static func refused(_ file: HealthFileIdentity, in store: HealthDatabase)
    throws(StoreError)
  {
    try store.noteRefused(file)
  }

  /// Sets the order sources are preferred in (every file is read again by the next import).
  public static func prefer(_ sources: [String], in store: HealthDatabase) throws(StoreError) {
    try store.prefer(sources)
  }

  /// Adds or removes a folder to take exports from; whether it changed anything.
  public static func folder(_ path: String, adding: Bool, in store: HealthDatabase)
    throws(StoreError) -> Bool
  {
    adding ? try store.addFolder(path) : try store.removeFolder(path)
  }
}
