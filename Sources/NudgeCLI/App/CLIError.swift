import NudgeCore
import NudgeLinux
import NudgeStore

/// The exit codes of DESIGN §6 (sysexits).
public enum ExitStatus: Int32, Sendable {
  case failure = 1
  case usage = 64
  case badData = 65
  case noInput = 66
  case unavailable = 69
  case `internal` = 70
  case cannotCreate = 73
  case busy = 75
  /// Stopped with Ctrl-C (128 + SIGINT, as a shell reports it).
  case interrupted = 130
}

/// A failure shown to the person as one line on stderr, with its exit code.
public struct CLIError: Error, Equatable {
  public let message: String
  public let code: ExitStatus
  /// What kind of end this is, for code that acts on it (never read from the message).
  public let kind: Kind

  /// Ends a caller may act on.
  public enum Kind: Equatable, Sendable {
    case other
    /// The person left a flow with Ctrl-D (a held window then offers Snooze).
    case leftFlow
  }

  public init(_ message: String, code: ExitStatus, kind: Kind = .other) {
    self.message = message
    self.code = code
    self.kind = kind
  }

  init(_ error: StoreError) {
    switch error {
    case .notNudgeDatabase(let m), .newerSchema(let m), .unreadable(let m):
      self.init(m, code: .badData)
    case .cannotCreate(let m): self.init(m, code: .cannotCreate)
    case .busy(let m), .fileReplaced(let m): self.init(m, code: .busy)
    case .refused(let m): self.init(m, code: .usage)
    }
  }

  static func usage(_ error: InputError) -> CLIError { CLIError(error.message, code: .usage) }

  /// Ctrl-C after everything worth saying was said: exit 130 without another line.
  static let interruptedQuietly = CLIError("", code: .interrupted)
}

extension CLIError {
  /// The one mapping of failures to what the person sees: Nudge's own errors, and the store's
  /// (a damaged, newer, busy or unwritable database); nil for anything else.
  static func from(_ error: any Error) -> CLIError? {
    switch error {
    case let error as CLIError: error
    case let error as StoreError: CLIError(error)
    case let error as SpawnError: CLIError(error.message, code: .unavailable)
    case let error as TerminalOpenFailure: CLIError(error.message, code: .unavailable)
    default: nil
    }
  }
}

extension CLIError: BadValueError {
  public var badValueMessage: String? { code == .badData ? message : nil }
}
