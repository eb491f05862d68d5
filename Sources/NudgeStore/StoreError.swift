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

  public var message: String {
    switch self {
    case .notNudgeDatabase(let m), .newerSchema(let m), .cannotCreate(let m), .busy(let m): m
    }
  }
}
