import FoundationEssentials
import Glibc
import NudgeCore
import Synchronization

/// Nudge's SQLite database: migrations and the named reads and writes the commands use.
public final class AppDatabase: Sendable {
  /// The schema version this binary writes (`PRAGMA user_version`).
  public static let schemaVersion = 7

  /// The one connection: used only by the thread holding `lock`.
  private let connection: SQLiteConnection
  /// Held for a whole transaction, so one thread at a time uses `connection`.
  private let lock = Mutex<Void>(())
  /// The thread holding `lock` (its `pthread_self`), 0 when none does: a `read` or `write` on
  /// that thread is nested in its transaction.
  private let owner = Atomic<UInt>(0)
  /// The file this database lives in (":memory:" for tests).
  public let path: String

  /// Wraps an open connection and brings its schema up to date.
  init(_ connection: SQLiteConnection, path: String = ":memory:") throws {
    try Self.prepare(connection)
    try Self.migrate(connection)
    self.connection = connection
    self.path = path
  }

  /// Runs a read in one transaction (one snapshot of the file), turning any failure into a
  /// `StoreError` that names this file.
  ///
  /// Nesting is supported: a `read` or `write` (or any public method, since each is one) called
  /// from inside another's body, on the same thread, runs in that transaction — it sees what
  /// the outer body wrote and not yet committed — inside a savepoint, so a nested body that
  /// throws takes back only its own writes. A nested write inside a read turns the read into a
  /// write transaction (busy if another process wrote since the read began). Bodies are synchronous, so the thread cannot change under them.
  func read<T>(_ body: (SQLiteConnection) throws -> T) throws(StoreError) -> T {
    try run(immediate: false, body)
  }

  /// Runs a write transaction, turning any failure into a `StoreError` that names this file;
  /// nested in the current transaction when called from inside a `read` or `write` body (see
  /// `read`).
  func write<T>(_ body: (SQLiteConnection) throws -> T) throws(StoreError) -> T {
    try run(immediate: true, body)
  }

  private func run<T>(immediate: Bool, _ body: (SQLiteConnection) throws -> T) throws(StoreError)
    -> T
  {
    let thread = UInt(pthread_self())
    var result: Result<T, any Error>? = nil
    // only this thread ever stores its own id, so a match means it holds the lock
    if owner.load(ordering: .acquiring) == thread {
      result = Result { try connection.savepoint { try body(connection) } }
    } else {
      lock.withLock { _ in
        owner.store(thread, ordering: .releasing)
        defer { owner.store(0, ordering: .releasing) }
        result = Result {
          try connection.transaction(immediate: immediate) { try body(connection) }
        }
      }
    }
    do { return try result!.get() } catch { throw StoreError.from(error, path: path) }
  }

  /// Every connection's settings: wait up to 10 s for another process's lock; in WAL mode
  /// NORMAL syncs at checkpoints, not at every commit: a killed process loses nothing (the
  /// reliability suite kills at every write), a power cut may lose the last commits, never the
  /// file (README, "Your data").
  private static func prepare(_ db: SQLiteConnection) throws {
    try db.execute("PRAGMA synchronous = NORMAL")
  }

  /// An empty in-memory database, for tests.
  public static func inMemory() throws -> AppDatabase {
    try AppDatabase(SQLiteConnection(path: ":memory:"))
  }

  /// Opens (or atomically creates) the database file at `path`, refusing files that are not
  /// Nudge's or are newer, and never writing to a file it refused. `creatingFolders`: the
  /// default location's folders are made as needed; a path given explicitly (`NUDGE_DB`)
  /// whose folder does not exist is refused (a typo there must not start an empty database).
  public static func open(path: String, creatingFolders: Bool = true) throws(StoreError)
    -> AppDatabase
  {
    let folder = parentDirectory(of: path)
    var info = stat()
    if !creatingFolders && stat(folder, &info) != 0 {
      throw .cannotCreate(
        "NUDGE_DB=\(path): the folder \(folder) does not exist. Fix the path, or create the folder (mkdir -p '\(folder)') to start a new database there."
      )
    }
    try ensureDirectory(folder)
    if !FileManager.default.fileExists(atPath: path) {
      try create(path: path)
    }
    let header = try DatabaseFileHeader.check(path: path, knownVersion: schemaVersion)
    do {
      let db = try SQLiteConnection(path: path)
      // a file made in another journal mode (an old Nudge's, a restored copy) switches to WAL
      if !header.isWAL { try db.execute("PRAGMA journal_mode = WAL") }
      return try AppDatabase(db, path: path)
    } catch {
      throw StoreError.from(error, path: path)
    }
  }

  private static func ensureDirectory(_ dir: String) throws(StoreError) {
    var info = stat()
    if stat(dir, &info) == 0 {
      if info.st_mode & S_IFMT == S_IFDIR { return }
      throw .cannotCreate("\(dir) is a file, not a directory: move it away or set NUDGE_DB.")
    }
    let parent = parentDirectory(of: dir)
    if parent != dir { try ensureDirectory(parent) }
    if mkdir(dir, 0o700) != 0 && errno != EEXIST {
      let reason = String(cString: strerror(errno))
      throw .cannotCreate(
        "Cannot create the data directory \(dir): \(reason). Fix its parent's permissions or set NUDGE_DB to a writable path."
      )
    }
  }

  /// Builds the schema in a private file, then links it into place, so that a racing process
  /// sees either no file or a complete database, never an empty one.
  private static func create(path: String) throws(StoreError) {
    removeAbandonedTempFiles(of: path)
    let temp = path + ".creating-\(getpid())"
    defer {
      for suffix in ["", "-wal", "-shm", "-journal"] { unlink(temp + suffix) }
    }
    do {
      let fd = Glibc.open(temp, O_CREAT | O_EXCL | O_WRONLY, 0o600)
      guard fd >= 0 else {
        let reason = String(cString: strerror(errno))
        throw StoreError.cannotCreate(
          "Cannot create the database at \(path): \(reason). Fix the directory's permissions or set NUDGE_DB to a writable path."
        )
      }
      close(fd)
      // closed (its WAL checkpointed away) before the file is linked into place
      try {
        let db = try SQLiteConnection(path: temp)
        try prepare(db)
        try migrate(db)
        try db.execute("PRAGMA journal_mode = WAL")
      }()
    } catch {
      throw StoreError.from(error, path: path)
    }
    if link(temp, path) != 0 && errno != EEXIST {
      let reason = String(cString: strerror(errno))
      throw .cannotCreate(
        "Cannot create the database at \(path): \(reason). Fix the directory's permissions or set NUDGE_DB to a writable path."
      )
    }
  }

  /// Deletes the private files of creators that were killed before linking theirs into place
  /// (`PATH.creating-PID` whose process is gone).
  private static func removeAbandonedTempFiles(of path: String) {
    let dir = parentDirectory(of: path)
    let prefix = (path.split(separator: "/").last.map(String.init) ?? path) + ".creating-"
    for name in (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
    where name.hasPrefix(prefix) {
      let rest = name.dropFirst(prefix.count)
      let digits = rest.prefix { $0.isNumber }
      guard let pid = pid_t(digits), kill(pid, 0) != 0, errno == ESRCH else { continue }
      unlink(dir + "/" + name)
    }
  }

  /// `PRAGMA integrity_check`: "ok" or the problems SQLite found.
  public func integrityCheck() throws(StoreError) -> String {
    try read { db in try db.texts("PRAGMA integrity_check").joined(separator: "; ") }
  }
}
