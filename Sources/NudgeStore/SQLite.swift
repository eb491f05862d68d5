import CSQLite
import NudgeCore

/// A failure SQLite reported: its primary result code (`SQLITE_BUSY`, `SQLITE_CORRUPT`…) and
/// its message.
struct SQLiteError: Error, CustomStringConvertible {
  let code: Int32
  let message: String

  var description: String { "\(message) (SQLite code \(code))" }

  /// Not SQLite's: the library itself could not be loaded (`message` says why).
  static let libraryMissing: Int32 = -1
}

/// A value bound to a statement's parameter or read from a column.
public enum SQLValue: Equatable, Sendable {
  case null
  case integer(Int64)
  case real(Double)
  case text(String)
}

/// One open SQLite connection: statements, transactions and the errors SQLite reports.
///
/// `@unchecked Sendable` so that `AppDatabase` (Sendable) can hold it; what makes that safe is
/// `AppDatabase`'s lock, held for each whole transaction (SQLite's own per-call mutex,
/// `SQLITE_OPEN_FULLMUTEX`, only serialized single calls, while a transaction spans several;
/// the connection is opened `SQLITE_OPEN_NOMUTEX`: a lock and an unlock around every column
/// read were 2% of reading ten years). Use a connection only inside an `AppDatabase` read or
/// write body, or before the database is shared (migrations).
final class SQLiteConnection: @unchecked Sendable {
  private let handle: OpaquePointer
  /// Statements prepared once and kept, by their text: a statement run for each of thousands of
  /// rows (sync's merge, an import) is parsed once, not each time.
  private var prepared: [String: OpaquePointer] = [:]
  /// At most this many are kept (the texts the code runs are a few dozen).
  private static let maxPrepared = 128

  /// Opens the file at `path` (":memory:" for a private in-memory database); `create` makes
  /// the file when it is missing. Waits up to `busySeconds` for another process's lock.
  init(
    path: String, create: Bool = false, readOnly: Bool = false, immutable: Bool = false,
    busySeconds: Int32 = 10
  ) throws(SQLiteError) {
    if let failure = nd_sqlite_load() {
      throw SQLiteError(code: SQLiteError.libraryMissing, message: String(cString: failure))
    }
    var db: OpaquePointer?
    var flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE) | SQLITE_OPEN_NOMUTEX
    if create { flags |= SQLITE_OPEN_CREATE }
    var name = path
    if readOnly && immutable {
      // on read-only media SQLite cannot make the WAL index beside the file: a file nobody
      // can change is read as immutable (the path percent-encoded into a URI, the one place
      // Nudge hands SQLite a URI)
      flags |= SQLITE_OPEN_URI
      name = "file:" + Self.uriEscaped(path) + "?immutable=1"
    }
    let status = nd_sqlite3_open_v2(name, &db, flags, nil)
    guard status == SQLITE_OK, let db else {
      let message = db.map { String(cString: nd_sqlite3_errmsg($0)) } ?? "out of memory"
      nd_sqlite3_close_v2(db)
      throw SQLiteError(code: status & 0xFF, message: message)
    }
    handle = db
    nd_sqlite3_busy_timeout(db, busySeconds * 1000)
  }

  deinit {
    for statement in prepared.values { nd_sqlite3_finalize(statement) }
    nd_sqlite3_close_v2(handle)
  }

  /// `path` with every byte but unreserved ones and `/` percent-encoded, for a `file:` URI.
  static func uriEscaped(_ path: String) -> String {
    var out = ""
    for byte in path.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
        UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
        out.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        let hex = Array("0123456789ABCDEF".unicodeScalars)
        out += "%"
        out.unicodeScalars.append(hex[Int(byte >> 4)])
        out.unicodeScalars.append(hex[Int(byte & 0xF)])
      }
    }
    return out
  }

  private func failure(_ status: Int32) -> SQLiteError {
    SQLiteError(code: status & 0xFF, message: String(cString: nd_sqlite3_errmsg(handle)))
  }

  /// Rows inserted, updated or deleted since the connection opened.
  var totalChanges: Int { Int(nd_sqlite3_total_changes(handle)) }

  /// Runs one or more statements that take no arguments and return no rows.
  func execute(_ sql: String) throws(SQLiteError) {
    let status = nd_sqlite3_exec(handle, sql, nil, nil, nil)
    guard status == SQLITE_OK else { throw failure(status) }
  }

  /// Runs one statement with `arguments` bound to its `?` parameters, ignoring any rows.
  func execute(_ sql: String, _ arguments: [SQLValue]) throws {
    try withStatement(sql, arguments) { statement in
      while try statement.step() {}
    }
  }

  /// Runs one statement once for each list of arguments, prepared once.
  func execute(_ sql: String, each argumentLists: [[SQLValue]]) throws {
    try withStatement(sql, []) { statement in
      for arguments in argumentLists {
        for (index, value) in arguments.enumerated() {
          try statement.bind(value, at: Int32(index + 1))
        }
        while try statement.step() {}
        nd_sqlite3_reset(statement.pointer)
      }
    }
  }

  /// Every row of a query, each made by `row` while the statement is on it.
  func rows<T>(_ sql: String, _ arguments: [SQLValue] = [], _ row: (Statement) throws -> T)
    throws -> [T]
  {
    try withStatement(sql, arguments) { statement in
      var result: [T] = []
      while try statement.step() { result.append(try row(statement)) }
      return result
    }
  }

  /// Calls `body` for every row of a query, while the statement is on it.
  func forEachRow(
    _ sql: String, _ arguments: [SQLValue] = [], _ body: (Statement) throws -> Void
  ) throws {
    try withStatement(sql, arguments) { statement in
      while try statement.step() { try body(statement) }
    }
  }

  /// The first column of every row, as text (NULLs left out).
  func texts(_ sql: String, _ arguments: [SQLValue] = []) throws -> [String] {
    try rows(sql, arguments) { $0.text(at: 0) }.compactMap { $0 }
  }

  /// The first column of the first row, as an integer; nil without rows or for NULL.
  func integer(_ sql: String, _ arguments: [SQLValue] = []) throws -> Int? {
    try rows(sql, arguments) { $0.integer(at: 0) }.first ?? nil
  }

  private func withStatement<T>(
    _ sql: String, _ arguments: [SQLValue], _ body: (Statement) throws -> T
  ) throws -> T {
    // a kept statement, unless it is running (the same text run again from inside its rows)
    let pointer: OpaquePointer
    var keep = false
    if let cached = prepared[sql], nd_sqlite3_stmt_busy(cached) == 0 {
      pointer = cached
      keep = true
    } else {
      var made: OpaquePointer?
      let persistent = prepared[sql] == nil && prepared.count < Self.maxPrepared
      let status = nd_sqlite3_prepare_v3(
        handle, sql, -1, persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0, &made, nil)
      guard status == SQLITE_OK, let made else { throw failure(status) }
      pointer = made
      if persistent {
        prepared[sql] = made
        keep = true
      }
    }
    defer {
      if keep {
        nd_sqlite3_reset(pointer)
        nd_sqlite3_clear_bindings(pointer)
      } else {
        nd_sqlite3_finalize(pointer)
      }
    }
    let statement = Statement(pointer: pointer, connection: self)
    for (index, value) in arguments.enumerated() {
      try statement.bind(value, at: Int32(index + 1))
    }
    return try body(statement)
  }

  /// Runs `body` in a transaction (`BEGIN IMMEDIATE` for writes, so a writer waits for the
  /// lock up front instead of failing halfway), committing when it returns and rolling back
  /// when it throws.
  func transaction<T>(immediate: Bool, _ body: () throws -> T) throws -> T {
    try execute(immediate ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED")
    do {
      let result = try body()
      try execute("COMMIT")
      return result
    } catch {
      if nd_sqlite3_get_autocommit(handle) == 0 { try? execute("ROLLBACK") }
      throw error
    }
  }

  /// Runs `body` inside the current transaction under a savepoint: released when it returns,
  /// rolled back to (its writes only) when it throws.
  func savepoint<T>(_ body: () throws -> T) throws -> T {
    try execute("SAVEPOINT nested")
    do {
      let result = try body()
      try execute("RELEASE nested")
      return result
    } catch {
      try? execute("ROLLBACK TO nested")
      try? execute("RELEASE nested")
      throw error
    }
  }

  /// A prepared statement, valid while the call that made it runs.
  struct Statement {
    let pointer: OpaquePointer
    let connection: SQLiteConnection

    fileprivate func bind(_ value: SQLValue, at index: Int32) throws(SQLiteError) {
      let status =
        switch value {
        case .null: nd_sqlite3_bind_null(pointer, index)
        case .integer(let number): nd_sqlite3_bind_int64(pointer, index, number)
        case .real(let number): nd_sqlite3_bind_double(pointer, index, number)
        case .text(let text):
          // SQLITE_TRANSIENT: SQLite copies the bytes before the Swift string goes away
          nd_sqlite3_bind_text(
            pointer, index, text, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
        }
      guard status == SQLITE_OK else { throw connection.failure(status) }
    }

    /// Moves to the next row; false once there are no more.
    fileprivate func step() throws(SQLiteError) -> Bool {
      let status = nd_sqlite3_step(pointer)
      if status == SQLITE_ROW { return true }
      if status == SQLITE_DONE { return false }
      throw connection.failure(status)
    }

    var columnCount: Int32 { nd_sqlite3_column_count(pointer) }

    func name(at index: Int32) -> String { String(cString: nd_sqlite3_column_name(pointer, index)) }

    func isNull(at index: Int32) -> Bool { nd_sqlite3_column_type(pointer, index) == SQLITE_NULL }

    func integer(at index: Int32) -> Int? {
      isNull(at: index) ? nil : Int(nd_sqlite3_column_int64(pointer, index))
    }

    func double(at index: Int32) -> Double? {
      isNull(at: index) ? nil : nd_sqlite3_column_double(pointer, index)
    }

    /// The column's text whole, by its length: a NUL inside it (another program's file) is
    /// kept, not taken for its end (a Loop name `Med\0itate` read as `Med` merged with "Med").
    func text(at index: Int32) -> String? {
      guard let bytes = nd_sqlite3_column_text(pointer, index) else { return nil }
      return String(
        decoding: UnsafeBufferPointer(
          start: bytes, count: Int(nd_sqlite3_column_bytes(pointer, index))), as: UTF8.self)
    }

    /// The column's text read as a flow's stored name (`Flow(rawValue:)` of `text(at:)`): the
    /// coach's four known by their bytes, without making a `String` of them.
    func flow(at index: Int32) -> Flow? {
      guard let bytes = bytes(at: index) else { return nil }
      for (flow, name) in Self.coachFlows
      where name.count == bytes.count && name.elementsEqual(bytes) {
        return flow
      }
      return text(at: index).flatMap { Flow(rawValue: $0) }
    }

    /// The coach's flows and the bytes of their stored names.
    private static let coachFlows = Flow.coach.map { ($0, Array($0.rawValue.utf8)) }

    /// The column's text read as a day (`Day("…")` of `text(at:)`), without making a
    /// `String` of it: nil for NULL or anything else.
    func day(at index: Int32) -> Day? { bytes(at: index).flatMap { Day(utf8: $0) } }

    /// The column's text as its bytes, not yet made a `String` (nil for NULL), up to a NUL
    /// as `text(at:)` reads it: for a value the caller reads byte by byte anyway (an entry's
    /// answers).
    func utf8(at index: Int32) -> [UInt8]? { bytes(at: index).map { Array($0) } }

    /// The column's text in SQLite's buffer (valid until the statement moves on), up to a NUL
    /// as `text(at:)` reads it; nil for NULL.
    private func bytes(at index: Int32) -> UnsafeBufferPointer<UInt8>? {
      guard let start = nd_sqlite3_column_text(pointer, index) else { return nil }
      let all = UnsafeBufferPointer(
        start: start, count: Int(nd_sqlite3_column_bytes(pointer, index)))
      return UnsafeBufferPointer(rebasing: all[..<(all.firstIndex(of: 0) ?? all.endIndex)])
    }
  }
}
