import FoundationEssentials
import Glibc
import NudgeCore
import Synchronization

/// Nudge's SQLite database: migrations and the named reads and writes the commands use.
public final class AppDatabase: Sendable {
  /// The schema version this binary writes (`PRAGMA user_version`).
  public static let schemaVersion = 18

  /// The one connection: used only by the thread holding `lock` (which swaps it for one to
  /// the file now at `path` when the one opened was deleted or replaced).
  private let slot: ConnectionSlot
  private var connection: SQLiteConnection { slot.connection }
  /// Held for a whole transaction, so one thread at a time uses `connection`.
  private let lock = Mutex<Void>(())
  /// The thread holding `lock` (its `pthread_self`), 0 when none does: a `read` or `write` on
  /// that thread is nested in its transaction.
  private let owner = Atomic<UInt>(0)
  /// The file this database lives in (":memory:" for tests).
  public let path: String
  /// Opened read-only (its file or folder cannot be written: read-only media): it shows and
  /// exports; a write says why it cannot.
  public let isReadOnly: Bool
  /// Runs after each outermost write transaction commits (sync writes the change out); not
  /// again for a write the hook itself makes.
  private let afterWrite = Mutex<(@Sendable () -> Void)?>(nil)
  private let inAfterWrite = Atomic<Bool>(false)

  /// Wraps an open connection and brings its schema up to date.
  init(
    _ connection: SQLiteConnection, path: String = ":memory:", identity: FileIdentity? = nil,
    readOnly: Bool = false
  ) throws {
    if !readOnly { try Self.prepare(connection) }
    if readOnly {
      let version = try connection.integer("PRAGMA user_version") ?? 0
      if version != Self.schemaVersion {
        throw StoreError.cannotCreate(
          "\(path) is read-only and from an older Nudge (schema \(version)); copy it somewhere writable (and set NUDGE_DB to the copy) to upgrade it."
        )
      }
    } else {
      try Self.migrate(connection)
    }
    self.slot = ConnectionSlot(connection, identity: identity)
    self.path = path
    self.isReadOnly = readOnly
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

  /// Runs `body` as one write transaction: every named read and write it calls joins it (see
  /// `read`), so a use case's reads, decision and writes commit together or not at all.
  public func inTransaction<T>(_ body: () throws -> T) throws(StoreError) -> T {
    try write { _ in try body() }
  }

  /// Sets what runs after each outermost write commits (`afterWrite`).
  public func afterEachWrite(_ hook: @escaping @Sendable () -> Void) {
    afterWrite.withLock { $0 = hook }
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
      defer {
        if immediate, case .success = result,
          inAfterWrite.compareExchange(expected: false, desired: true, ordering: .acquiring)
            .exchanged
        {
          afterWrite.withLock { $0 }?()
          inAfterWrite.store(false, ordering: .releasing)
        }
      }
      lock.withLock { _ in
        owner.store(thread, ordering: .releasing)
        defer { owner.store(0, ordering: .releasing) }
        result = Result {
          if immediate { try reopenIfReplaced() }
          return try connection.transaction(immediate: immediate) { try body(connection) }
        }
      }
    }
    do { return try result!.get() } catch { throw StoreError.from(error, path: path) }
  }

  /// Before a write: when the file at `path` is no longer the one this connection opened
  /// (deleted, or replaced by another while a flow was open), nothing is committed to the old
  /// one; the write goes to the database that is there now (a new one when none is), and
  /// `replacedNotice` says so. A file there that Nudge must not open is refused as at start.
  private func reopenIfReplaced() throws {
    if isReadOnly {
      throw StoreError.cannotCreate(
        "\(path) is on read-only media (or its folder is read-only): it can be shown and exported ('nudge export -o FILE'), not changed. Nothing was saved."
      )
    }
    guard let identity = slot.identity, FileIdentity(path: path) != identity else { return }
    let gone = FileIdentity(path: path) == nil
    // The old file's WAL is folded into it (through the open file, wherever it is now) and
    // emptied before its connection closes: SQLite does not checkpoint a file that was moved
    // or deleted when it closes, and frames left in the WAL under the path's name would be
    // read into the database there now (a backup moved into place lost its own entries to
    // the old file's). A WAL another process keeps from emptying is set aside instead.
    let emptied = (try? slot.connection.integer("PRAGMA wal_checkpoint(TRUNCATE)")) == 0
    slot.connection = try SQLiteConnection(path: ":memory:")
    if !emptied { Self.setAsideOrphans(of: path) }
    let what = gone ? "deleted" : "replaced"
    do {
      let fresh = try Self.open(path: path, creatingFolders: false)
      slot.connection = fresh.connection
      slot.identity = fresh.slot.identity
      slot.notice =
        "The database at \(path) was \(what) while Nudge had it open: this save went to \(gone ? "a new database there" : "the database there now"), and nothing more to the old one."
    } catch {
      // what is there now is not Nudge's: the answers go to a database beside it instead
      let rescue = path + ".rescued-\(Int(time(nil)))"
      do {
        let fresh = try Self.open(path: rescue, creatingFolders: false)
        slot.connection = fresh.connection
        slot.identity = fresh.slot.identity
        slot.notice =
          "The database at \(path) was replaced while Nudge had it open by a file that is not Nudge's (\(error.message)); this save went to \(rescue): set NUDGE_DB to it, or export it and import into your database."
      } catch {
        throw StoreError.fileReplaced(
          "The database at \(path) was \(what) while Nudge had it open, and neither it nor a rescue file beside it can be used (\(error.message)); nothing was saved."
        )
      }
    }
  }

  /// Said once after a write went to a database other than the one opened (see
  /// `reopenIfReplaced`); nil when none did. Reading it clears it.
  public func takeReplacedNotice() -> String? {
    lock.withLock { _ in
      defer { slot.notice = nil }
      return slot.notice
    }
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
    try refuseSpecialNames(path)
    try refuseNonRegularFile(path)
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
    let identity = FileIdentity(path: path)
    let readOnly = access(path, W_OK) != 0 || access(folder, W_OK) != 0
    do {
      // immutable only when no WAL holds commits the file lacks (a WAL left by a writer
      // that was killed is read through SQLite's own read-only WAL support, or refused)
      var wal = stat()
      let walHoldsCommits = stat(path + "-wal", &wal) == 0 && wal.st_size > 0
      let db = try SQLiteConnection(
        path: path, readOnly: readOnly, immutable: readOnly && !walHoldsCommits)
      // a file made in another journal mode (an old Nudge's, a restored copy) switches to WAL
      if !header.isWAL && !readOnly { try db.execute("PRAGMA journal_mode = WAL") }
      return try AppDatabase(db, path: path, identity: identity, readOnly: readOnly)
    } catch {
      throw StoreError.from(error, path: path)
    }
  }

  /// Names SQLite reads as something other than a file (an in-memory or temporary database, a
  /// URI): data saved there would be gone at exit, so they are refused.
  static func refuseSpecialNames(_ path: String) throws(StoreError) {
    let name = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init)
    if path.isEmpty {
      throw .cannotCreate(
        "NUDGE_DB is set but empty; unset it to use your own database, or set it to a file path such as ~/nudge.sqlite3."
      )
    }
    if path == ":memory:" || path.hasPrefix("file:") || path.hasPrefix(":")
      || name?.isEmpty == true
    {
      throw .cannotCreate(
        "NUDGE_DB='\(path)' does not name a file (SQLite would keep that database in memory or read it as a URI, and your saves would be lost); set it to a file path such as ~/nudge.sqlite3."
      )
    }
  }

  /// A FIFO, a device, a directory or a link to nothing where the database should be is
  /// refused at once, never opened (opening a FIFO waits for a writer).
  static func refuseNonRegularFile(_ path: String) throws(StoreError) {
    var info = stat()
    guard lstat(path, &info) == 0 else { return }
    let keep =
      "Nudge left it untouched; set NUDGE_DB to a file (or move it away) to start fresh."
    if info.st_mode & S_IFMT == S_IFLNK && stat(path, &info) != 0 {
      throw .cannotCreate("\(path) is a link to a file that does not exist. \(keep)")
    }
    let kind: String? =
      switch info.st_mode & S_IFMT {
      case S_IFREG, S_IFLNK: nil
      case S_IFDIR: "a directory"
      case S_IFIFO: "a FIFO"
      case S_IFCHR, S_IFBLK: "a device"
      case S_IFSOCK: "a socket"
      default: "not a regular file"
      }
    if let kind { throw .notNudgeDatabase("\(path) is \(kind), not a Nudge database. \(keep)") }
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

  /// The page size of a database Nudge creates.
  static let pageSize = 1024

  /// Builds the schema in a private file, then links it into place, so that a racing process
  /// sees either no file or a complete database, never an empty one.
  private static func create(path: String) throws(StoreError) {
    // creators take turns, by a lock on the folder (no file of its own): one that waited
    // finds the database another linked into place, and never sets aside that one's live WAL
    let folder = Glibc.open(parentDirectory(of: path), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if folder >= 0 { flock(folder, LOCK_EX) }
    defer { if folder >= 0 { close(folder) } }
    if access(path, F_OK) == 0 { return }
    removeAbandonedTempFiles(of: path)
    setAsideOrphans(of: path)
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
        // 1 KiB pages, not SQLite's 4 KiB: each of its ~30 tables and indexes takes a page
        // even when it holds a row or none (120 KiB of a year's 250 KiB at 4 KiB), and a
        // year of entries is ~170 KiB of rows; a file made before keeps its page size
        try db.execute("PRAGMA page_size = \(pageSize)")
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

  /// A `-wal` or `-shm` left where no database is (its file was deleted while a writer was
  /// killed) would be read into a new database there and corrupt it: it is renamed aside
  /// (`PATH-wal.orphaned-EPOCH`), not deleted, since it may hold the last saves of that file.
  /// An empty `-wal` and its `-shm` are removed.
  static func setAsideOrphans(of path: String) {
    // an empty WAL (one emptied into a file that was then deleted) and its index hold nothing
    var wal = stat()
    if lstat(path + "-wal", &wal) == 0 && wal.st_mode & S_IFMT == S_IFREG && wal.st_size == 0 {
      var shm = stat()
      if lstat(path + "-shm", &shm) == 0 && shm.st_mode & S_IFMT == S_IFREG {
        unlink(path + "-shm")
      }
      unlink(path + "-wal")
    }
    let stamp = Int(time(nil))
    for suffix in ["-wal", "-shm", "-journal"] {
      var info = stat()
      guard lstat(path + suffix, &info) == 0 else { continue }
      rename(path + suffix, path + suffix + ".orphaned-\(stamp)")
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

/// A file's device and inode: which file a path named when it was opened.
struct FileIdentity: Equatable, Sendable {
  let device: UInt64
  let inode: UInt64

  /// The identity of the file at `path` now; nil when there is none.
  init?(path: String) {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    device = UInt64(info.st_dev)
    inode = UInt64(info.st_ino)
  }
}

/// The connection an `AppDatabase` uses, the identity of the file it opened, and the notice of
/// a swap; read and changed only under the database's lock.
final class ConnectionSlot: @unchecked Sendable {
  var connection: SQLiteConnection
  var identity: FileIdentity?
  var notice: String?

  init(_ connection: SQLiteConnection, identity: FileIdentity?) {
    self.connection = connection
    self.identity = identity
  }
}
