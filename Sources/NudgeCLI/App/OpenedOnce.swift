import Dispatch
import FoundationEssentials
import NudgeCore
import NudgeLinux
import NudgeStore
import Synchronization

/// The database opened once per process: every `openDatabase` after the first returns the same
/// connection (the terminal launcher's setting, the reminder's reads and writes).
final class OpenedOnce: Sendable {
  private let open: @Sendable () throws(StoreError) -> AppDatabase
  private let opened = Mutex<AppDatabase?>(nil)

  init(_ open: @escaping @Sendable () throws(StoreError) -> AppDatabase) { self.open = open }

  /// The open database, opening it on first use (a failure is not kept: the next call retries).
  @Sendable func database() throws(StoreError) -> AppDatabase {
    let result: Result<AppDatabase, StoreError> = opened.withLock { opened in
      if let opened { return .success(opened) }
      do throws(StoreError) {
        let db = try open()
        opened = db
        return .success(db)
      } catch { return .failure(error) }
    }
    return try result.get()
  }
}
