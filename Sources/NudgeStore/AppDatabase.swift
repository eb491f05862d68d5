import Foundation
import GRDB
import NudgeCore

/// Nudge's SQLite database: migrations and the named reads and writes the commands use.
public final class AppDatabase: Sendable {
  /// The schema version this binary writes (`PRAGMA user_version`).
  public static let schemaVersion = 3

  let writer: any DatabaseWriter
  /// The file this database lives in (":memory:" for tests).
  public let path: String

  /// Wraps an open connection and brings its schema up to date.
  public init(_ writer: any DatabaseWriter, path: String = ":memory:") throws {
    self.writer = writer
    self.path = path
    try Self.migrate(writer)
  }

  /// Runs a read, turning any failure into a `StoreError` that names this file.
  func read<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
    do { return try writer.read(body) } catch { throw StoreError.from(error, path: path) }
  }

  /// Runs a write transaction, turning any failure into a `StoreError` that names this file.
  func write<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
    do { return try writer.write(body) } catch { throw StoreError.from(error, path: path) }
  }

  private static func configuration() -> Configuration {
    var config = Configuration()
    config.busyMode = .timeout(10)
    config.label = "nudge"
    config.prepareDatabase { db in
      // in WAL mode NORMAL syncs at checkpoints, not at every commit: a killed process loses
      // nothing (the reliability suite kills at every write), a power cut may lose the last
      // commits, never the file (README, "Your data")
      try db.execute(sql: "PRAGMA synchronous = NORMAL")
    }
    return config
  }

  /// An empty in-memory database, for tests.
  public static func inMemory() throws -> AppDatabase {
    try AppDatabase(DatabaseQueue(configuration: configuration()))
  }

  /// Opens (or atomically creates) the database file at `path`, refusing files that are not
  /// Nudge's or are newer, and never writing to a file it refused.
  public static func open(path: String) throws(StoreError) -> AppDatabase {
    let url = URL(fileURLWithPath: path)
    try ensureDirectory(url.deletingLastPathComponent().path)
    if !FileManager.default.fileExists(atPath: path) {
      try create(path: path)
    }
    try DatabaseFileHeader.check(path: path, knownVersion: schemaVersion)
    do {
      let pool = try DatabasePool(path: path, configuration: configuration())
      return try AppDatabase(pool, path: path)
    } catch let error as StoreError {
      throw error
    } catch {
      throw StoreError(error, path: path)
    }
  }

  private static func ensureDirectory(_ dir: String) throws(StoreError) {
    var isDir: ObjCBool = false
    if FileManager.default.fileExists(atPath: dir, isDirectory: &isDir) {
      if isDir.boolValue { return }
      throw .cannotCreate("\(dir) is a file, not a directory: move it away or set NUDGE_DB.")
    }
    let parent = URL(fileURLWithPath: dir).deletingLastPathComponent().path
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
      let queue = try DatabaseQueue(path: temp, configuration: configuration())
      try migrate(queue)
      try queue.writeWithoutTransaction { db in
        try db.execute(sql: "PRAGMA journal_mode = WAL")
      }
      try queue.close()
    } catch let error as StoreError {
      throw error
    } catch {
      throw StoreError(error, path: path)
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
    let url = URL(fileURLWithPath: path)
    let prefix = url.lastPathComponent + ".creating-"
    let dir = url.deletingLastPathComponent().path
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
    try read { db in
      try String.fetchAll(db, sql: "PRAGMA integrity_check").joined(separator: "; ")
    }
  }
}
