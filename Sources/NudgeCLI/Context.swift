import Foundation
import NudgeCore
import NudgeDesktop
import NudgeStore

/// Where a command reads typed answers from.
public protocol LineInput: AnyObject {
  /// True when a person is typing (stdin is a terminal).
  var isTerminal: Bool { get }
  /// One line without its newline, or nil at end of input.
  func readLine() -> String?
  /// Waits up to `seconds` for a line to be ready; true when one is.
  func waitForLine(seconds: Double) -> Bool
}

/// Where a command writes what the person sees.
public protocol TextOutput: AnyObject {
  /// True when stdout is a terminal.
  var isTerminal: Bool { get }
  func write(_ text: String)
  func writeError(_ text: String)
}

/// Everything one command run touches of the outside world; the live one is built in `main`.
public struct Context {
  public var now: Instant
  /// The local zone (`TZ`, else /etc/localtime), as the calendar engine and the C library
  /// read it: days, rollover, firing, history and the log all use it.
  public var timeZone: ZoneRules
  public var environment: [String: String]
  public var input: any LineInput
  public var output: any TextOutput
  /// Opens the database only when a command needs it (`--help` never does).
  public var openDatabase: () throws(StoreError) -> AppDatabase
  /// A fresh identifier for a new help note.
  public var makeID: () -> String
  /// Seeds the reward draw: `NUDGE_SEED`, else random per run.
  public var rewardSeed: UInt64
  /// Waits between animation frames.
  public var pause: (Double) -> Void
  /// The system's time zone files.
  var zones = ZoneDirectory()
  /// Posts desktop notifications (libnotify in a live run).
  public var notifier: any NotifierEdge = NoNotifier()
  /// The current time for long-running commands (the daemon): `NUDGE_NOW` advances from its
  /// fixed start at the pace of the monotonic clock.
  public var clock: () -> Instant

  public init(
    now: Instant, timeZone: ZoneRules, environment: [String: String], input: any LineInput,
    output: any TextOutput, openDatabase: @escaping () throws(StoreError) -> AppDatabase,
    makeID: @escaping () -> String, rewardSeed: UInt64 = 0,
    pause: @escaping (Double) -> Void = { _ in }
  ) {
    self.rewardSeed = rewardSeed
    self.pause = pause
    let start = now
    self.clock = { start }
    self.now = now
    self.timeZone = timeZone
    self.environment = environment
    self.input = input
    self.output = output
    self.openDatabase = openDatabase
    self.makeID = makeID
  }

  /// Colour and emphasis only on a terminal, never under `NO_COLOR` or `TERM=dumb`.
  public var style: Style {
    Style(
      enabled: output.isTerminal && environment["NO_COLOR"].map(\.isEmpty) ?? true
        && environment["TERM"] != "dumb")
  }

  func line(_ text: String = "") { output.write(text + "\n") }

  /// The database, with store failures turned into a one-line error and exit code.
  func database() throws -> AppDatabase {
    do { return try openDatabase() } catch { throw CLIError(error) }
  }
}

extension Context {
  /// The wall clock (CLOCK_REALTIME): the only place Nudge reads it.
  static func systemClock() -> Instant {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Instant(microseconds: now.tv_sec * 1_000_000 + now.tv_nsec / 1000)
  }

  /// The context of a real run: the process's clock (or `NUDGE_NOW`), `TZ`, stdin and stdout.
  public static func live() throws -> Context {
    let env = ProcessInfo.processInfo.environment
    var now = Self.systemClock()
    if let fixed = env["NUDGE_NOW"], !fixed.isEmpty {
      guard let parsed = InstantFormat.parse(fixed) else {
        throw CLIError(
          "NUDGE_NOW='\(fixed)' is not a time: use ISO 8601 with an offset (2026-03-29T06:59:00+02:00) or @EPOCH.",
          code: .usage)
      }
      now = parsed
    }
    var seed = UInt64.random(in: 0...UInt64.max)
    if let fixed = env["NUDGE_SEED"], !fixed.isEmpty {
      guard let parsed = UInt64(fixed) else {
        throw CLIError(
          "NUDGE_SEED='\(fixed)' is not a whole number from 0 to 18446744073709551615.",
          code: .usage)
      }
      seed = parsed
    }
    var context = Context(
      now: now, timeZone: ZoneDirectory().local(tz: env["TZ"]), environment: env,
      input: StandardInput(),
      output: StandardOutput(),
      openDatabase: { () throws(StoreError) -> AppDatabase in
        try AppDatabase.open(path: DatabaseLocation.path(environment: env))
      },
      makeID: { UUID().uuidString.lowercased() }, rewardSeed: seed,
      pause: { usleep(UInt32($0 * 1_000_000)) })
    let libnotify = LibnotifyNotifier(environment: env)
    context.notifier = LiveNotifier(libnotify)
    if env["NUDGE_NOW"].map({ !$0.isEmpty }) == true {
      let fixed = now
      let started = DispatchTime.now().uptimeNanoseconds
      context.clock = {
        fixed.adding(seconds: Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9)
      }
    } else {
      context.clock = { Self.systemClock() }
    }
    return context
  }
}

/// Standard input, read line by line.
final class StandardInput: LineInput {
  let isTerminal = isatty(STDIN_FILENO) == 1

  /// Answers typed on a terminal are read with line editing (and this run's history).
  private lazy var editor = LineEditor()

  func readLine() -> String? {
    guard isTerminal else { return Swift.readLine(strippingNewline: true) }
    // Ctrl-D ends one answer, not every later read, so a window can still say "Press Enter"
    return editor.readLine()
  }

  func waitForLine(seconds: Double) -> Bool {
    var fds = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
    return poll(&fds, 1, Int32(seconds * 1000)) > 0
  }
}

/// Standard output and standard error, unbuffered so prompts show before input.
final class StandardOutput: TextOutput {
  let isTerminal = isatty(STDOUT_FILENO) == 1

  func write(_ text: String) {
    FileHandle.standardOutput.write(Data(text.utf8))
  }

  func writeError(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
  }
}

/// ANSI emphasis that turns itself off where colour is unwanted.
public struct Style: Sendable {
  public let enabled: Bool

  func wrap(_ code: String, _ text: String) -> String {
    enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }

  func bold(_ t: String) -> String { wrap("1", t) }
  func dim(_ t: String) -> String { wrap("2", t) }
  func green(_ t: String) -> String { wrap("32", t) }
  func yellow(_ t: String) -> String { wrap("33", t) }
  func cyan(_ t: String) -> String { wrap("36", t) }
}

/// The notifier as commands see it: posting, and a check before claiming a reminder.
public protocol NotifierEdge: Notifier {
  /// Why nothing can be shown (no bus, no server, no actions) after waiting up to `seconds`
  /// for a notification server to appear, or nil.
  func unavailableReason(waitingForServer seconds: Double) -> String?
}

/// libnotify, live.
struct LiveNotifier: NotifierEdge {
  let notifier: LibnotifyNotifier

  init(_ notifier: LibnotifyNotifier) { self.notifier = notifier }

  func unavailableReason(waitingForServer seconds: Double) -> String? {
    notifier.serverProblem(waitingUpTo: seconds)?.message
  }

  func post(_ notification: DesktopNotification, wait: NotificationWait) -> NotificationOutcome {
    notifier.post(notification, wait: wait)
  }
}

/// Test double that fails by default: no notification can be shown.
struct NoNotifier: NotifierEdge {
  func unavailableReason(waitingForServer seconds: Double) -> String? {
    "no notifier in this context"
  }
  func post(_ notification: DesktopNotification, wait: NotificationWait) -> NotificationOutcome {
    .undelivered("no notifier in this context")
  }
}
