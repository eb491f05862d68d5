import CSQLite

/// Why the database could not be used, with a sentence that says what to do.
public enum StoreError: Error, Equatable, Sendable {
  /// The file is not a Nudge database (garbage, truncated, another program's); left untouched.
  case notNudgeDatabase(String)
  /// The file was written by a newer Nudge; left untouched.
  case newerSchema(String)
  /// The directory or file cannot be created or written (permissions, read-only, disk full).
  case cannotCreate(String)
  /// Another process held the database for longer than the busy timeout.
  case busy(String)
  /// The file holds a value this Nudge cannot read (an unknown enum text a newer Nudge wrote,
  /// say); left untouched. Bad data (exit 65), not a write failure.
  case unreadable(String)
  /// The file was deleted or replaced while it was open: nothing was written (exit 75, try
  /// again).
  case fileReplaced(String)
  /// A write the data as it stands refuses (a habit's name another one has; a habit removed
  /// meanwhile): nothing was written (exit 64).
  case refused(String)

  public var message: String {
    switch self {
    case .notNudgeDatabase(let m), .newerSchema(let m), .cannotCreate(let m), .busy(let m),
      .unreadable(let m), .fileReplaced(let m), .refused(let m):
      m
    }
  }
}

extension StoreError {
  /// Maps an SQLite failure to what the person can do about it.
  init(_ error: any Error, path: String) {
    if let unreadable = error as? UnreadableValue {
      let what =
        unreadable.what ?? unreadable.text.map { "'\($0)' in its \(unreadable.column) column" }
      self = .unreadable(
        "The database at \(path) holds \(what ?? "no \(unreadable.column)"), which this Nudge cannot read (a newer Nudge may have written it). Update Nudge; the file was left untouched."
      )
      return
    }
    if let bad = (error as? any BadValueError)?.badValueMessage {
      // the caller's own refusal, met inside a transaction (nothing was written)
      self = .unreadable(bad)
      return
    }
    guard let db = error as? SQLiteError else {
      self = .cannotCreate("Cannot use the database at \(path): \(error).")
      return
    }
    let keep =
      "Nudge left it untouched; move it away (or set NUDGE_DB to another file) to start fresh."
    switch db.code {
    case SQLiteError.libraryMissing:
      self = .cannotCreate(
        "Cannot load SQLite (\(db.message)): install it (apt-get install libsqlite3-0) and try again."
      )
    case SQLITE_BUSY, SQLITE_LOCKED:
      self = .busy(
        "The database at \(path) is busy: another nudge is writing. Try again in a moment.")
    case SQLITE_NOTADB, SQLITE_CORRUPT:
      self = .notNudgeDatabase("\(path) is damaged or not a database. \(keep)")
    case SQLITE_FULL:
      self = .cannotCreate(
        "The disk holding \(path) is full: free some space and try again; nothing was saved.")
    case SQLITE_READONLY, SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_AUTH:
      self = .cannotCreate(
        "Cannot write the database at \(path) (\(db.message)): fix the permissions of the file and its directory, or set NUDGE_DB."
      )
    default:
      self = .cannotCreate(
        "The database at \(path) failed: \(db.message). Nothing was changed; try again."
      )
    }
  }
}

extension StoreError {
  /// Maps any failure of a read or write to a `StoreError`.
  public static func from(_ error: any Error, path: String) -> StoreError {
    if let error = error as? StoreError { return error }
    return StoreError(error, path: path)
  }
}

/// An error of a caller's, thrown from inside a transaction, that says a value it read is bad
/// (a stored reminder time no longer taken): passed on as bad data (exit 65) with its own
/// words, not as a database that cannot be used.
public protocol BadValueError: Error {
  /// The one line to show; nil when the error is no bad value.
  var badValueMessage: String? { get }
}
