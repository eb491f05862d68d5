import Dispatch
import FoundationEssentials
import NudgeCore
import NudgeDesktop
import NudgeStore
import Synchronization

/// Where a command reads typed answers from.
public protocol LineInput: AnyObject, Sendable {
  /// True when a person is typing (stdin is a terminal).
  var isTerminal: Bool { get }
  /// One line without its newline, or nil at end of input or after Ctrl-C.
  func readLine() -> String?
  /// True once the person pressed Ctrl-C (a read then returns nil).
  var wasInterrupted: Bool { get }
  /// From now on Ctrl-C is noted (`wasInterrupted`) instead of ending the process at once.
  func catchInterrupts()
  /// Waits up to `seconds` for a line to be ready; true when one is.
  func waitForLine(seconds: Double) -> Bool
  /// Everything left, to the end of input (a document piped in); nil when it holds more than
  /// `limit` bytes.
  func readAll(limit: Int) -> Data?
}

/// Where a command writes what the person sees.
public protocol TextOutput: AnyObject, Sendable {
  /// True when stdout is a terminal.
  var isTerminal: Bool { get }
  func write(_ text: String)
  func writeError(_ text: String)
}

/// Everything one command run touches of the outside world; the live one is built in `main`.
/// It is Sendable: the daemon's service and a notification's watchdog thread carry it.
public struct Context: Sendable {
  public var now: Instant
  /// The local zone (`TZ`, else /etc/localtime), as the calendar engine and the C library
  /// read it: days, rollover, firing, history and the log all use it.
  public var timeZone: ZoneRules
  public var environment: [String: String]
  public var input: any LineInput
  public var output: any TextOutput
  /// Opens the database only when a command needs it (`--help` never does).
  public var openDatabase: @Sendable () throws(StoreError) -> AppDatabase
  /// A fresh identifier for a new help note.
  public var makeID: @Sendable () -> String
  /// Seeds the reward draw: `NUDGE_SEED`, else random per run.
  public var rewardSeed: UInt64
  /// Waits between animation frames.
  public var pause: @Sendable (Double) -> Void
  /// The system's time zone files.
  var zones = ZoneDirectory()
  /// Posts desktop notifications (libnotify in a live run).
  public var notifier: any Notifier = NoNotifier()
  /// The machine: programs, the systemd user manager, terminal windows, the terminal, Ctrl-C.
  public var platform: any Platform = NoPlatform()
  /// Opens a nudge:// link in a new terminal window.
  public var launcher: any LinkLauncher = NoLauncher()
  /// The service manager running Nudge (readiness and watchdog of the daemon).
  public var serviceManager: any ServiceManager = NoServiceManager()
  /// The terminal's width in columns for wrapped text (`COLUMNS`, else the terminal's, else 80).
  public var columns = 80
  /// The current time for long-running commands (the daemon): `NUDGE_NOW` advances from its
  /// fixed start at the pace of the monotonic clock.
  public var clock: @Sendable () -> Instant

  public init(
    now: Instant, timeZone: ZoneRules, environment: [String: String], input: any LineInput,
    output: any TextOutput,
    openDatabase: @escaping @Sendable () throws(StoreError) -> AppDatabase,
    makeID: @escaping @Sendable () -> String, rewardSeed: UInt64 = 0,
    pause: @escaping @Sendable (Double) -> Void = { _ in }
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

  /// Writes `text` wrapped to the terminal's width, continuation lines indented by `indent`;
  /// `style` colours each line (the wrapping counts the plain text).
  func wrappedLine(_ text: String, indent: Int = 0, style: (String) -> String = { $0 }) {
    for part in TerminalText.wrap(text, width: columns, indent: indent) { line(style(part)) }
  }
}

extension Context {
  /// The wall clock (CLOCK_REALTIME).
  static func systemClock() -> Instant { LinuxPlatform.wallClock() }

  /// The context of a real run: the process's clock (or `NUDGE_NOW`), `TZ`, stdin and stdout.
  public static func live() throws -> Context {
    let env = ProcessInfo.processInfo.environment
    let now = try fixedNow(env) ?? checkedClock(Self.systemClock())
    let seed = try fixedSeed(env) ?? UInt64.random(in: 0...UInt64.max)
    let platform = LinuxPlatform()
    var context = Context(
      now: now, timeZone: ZoneDirectory().local(tz: env["TZ"]), environment: env,
      input: StandardInput(platform: platform),
      output: StandardOutput(platform: platform),
      openDatabase: OpenedOnce {
        () throws(StoreError) -> AppDatabase in
        try AppDatabase.open(
          path: DatabaseLocation.path(environment: env),
          creatingFolders: env["NUDGE_DB"].map(\.isEmpty) ?? true)
      }.database,
      makeID: { UUID().uuidString.lowercased() }, rewardSeed: seed,
      pause: { platform.sleep(seconds: $0) })
    context.platform = platform
    context.launcher = TerminalLinkLauncher()
    context.serviceManager = SystemdServiceManager()
    context.notifier = LibnotifyNotifier(environment: env)
    context.columns =
      env["COLUMNS"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
      ?? platform.terminalColumns() ?? 80
    if env["NUDGE_NOW"].map({ !$0.isEmpty }) == true {
      let fixed = now
      let started = DispatchTime.now().uptimeNanoseconds
      context.clock = {
        fixed.adding(seconds: Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9)
      }
    } else {
      context.clock = { platform.now() }
    }
    return context
  }
}

extension Context {
  /// `NUDGE_NOW`, when set: the time every command takes as now.
  static func fixedNow(_ env: [String: String]) throws -> Instant? {
    guard let fixed = env["NUDGE_NOW"], !fixed.isEmpty else { return nil }
    guard let parsed = InstantFormat.parse(fixed) else {
      throw CLIError(
        "NUDGE_NOW='\(fixed)' is not a time: use ISO 8601 with an offset (2026-03-29T06:59:00+02:00) or @EPOCH.",
        code: .usage)
    }
    guard SupportedTime.contains(parsed) else {
      throw CLIError(
        "NUDGE_NOW='\(fixed)' is outside the dates Nudge keeps (\(SupportedTime.described)); use a time in that range.",
        code: .usage)
    }
    return parsed
  }

  /// The machine's clock, when it reads a time Nudge keeps: a clock set to the year 1 or
  /// 20000 would make days no later command can read.
  static func checkedClock(_ instant: Instant) throws -> Instant {
    guard SupportedTime.contains(instant) else {
      throw CLIError(
        "The system clock reads \(instant.seconds) s since 1970, outside the dates Nudge keeps (\(SupportedTime.described)); set the clock (timedatectl set-time) or NUDGE_NOW.",
        code: .usage)
    }
    return instant
  }

  /// `NUDGE_SEED`, when set: makes the reward draws reproducible.
  static func fixedSeed(_ env: [String: String]) throws -> UInt64? {
    guard let fixed = env["NUDGE_SEED"], !fixed.isEmpty else { return nil }
    guard let parsed = UInt64(fixed) else {
      throw CLIError(
        "NUDGE_SEED='\(fixed)' is not a whole number from 0 to 18446744073709551615.",
        code: .usage)
    }
    return parsed
  }
}

/// Standard input, read line by line.
final class StandardInput: LineInput {
  let platform: any Platform
  let isTerminal: Bool

  init(platform: any Platform) {
    self.platform = platform
    isTerminal = platform.isTerminal(.input)
  }

  /// Answers typed on a terminal are read with line editing (and this run's history).
  private let editor = Mutex<LineEditor?>(nil)

  func readLine() -> String? {
    guard isTerminal, let terminal = platform.terminal() else {
      return platform.readInputLine(maxBytes: StandardInput.maxLineBytes)
    }
    // Ctrl-D ends one answer, not every later read, so a window can still say "Press Enter"
    return editor.withLock { editor in
      if editor == nil {
        editor = LineEditor(terminal: terminal) { [platform] in platform.raiseInterrupt() }
      }
      return editor!.readLine()
    }
  }

  func readAll(limit: Int) -> Data? { platform.readAllInput(limit: limit).map { Data($0) } }

  /// The longest line read from a pipe: far more than any answer may be, so the flow says
  /// the answer is too long instead of reading a line without end.
  static let maxLineBytes = 64 * 1024

  var wasInterrupted: Bool { platform.interruptPending }

  func catchInterrupts() { platform.catchInterrupts() }

  func waitForLine(seconds: Double) -> Bool { platform.waitForInput(seconds: seconds) }
}

/// Standard output and standard error, unbuffered so prompts show before input.
final class StandardOutput: TextOutput {
  let platform: any Platform
  let isTerminal: Bool

  init(platform: any Platform) {
    self.platform = platform
    isTerminal = platform.isTerminal(.output)
  }

  func write(_ text: String) { platform.write(text, to: .output) }

  func writeError(_ text: String) { platform.write(text, to: .error) }
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

/// Refuses: this context was given no notifier, so nothing can be shown.
final class NoNotifier: Notifier {
  func unavailableReason(waitingForServer seconds: Double) -> String? {
    "no notifier in this context"
  }

  func post(_ notification: DesktopNotification, wait: NotificationWait) -> NotificationOutcome {
    .undelivered("no notifier in this context")
  }

  func inspect() -> NotificationSession { .noSessionBus }

  func whenServerHangs(_ handler: @escaping @Sendable () -> Void) {}
}

/// Opens a nudge:// link where the person can answer it: a terminal window. The activation
/// token, when the notification server sent one with the click, lets that window take the
/// focus. Throws `TerminalOpenFailure` when no terminal could be opened.
public protocol LinkLauncher: Sendable {
  func open(_ url: String, in ctx: Context, activationToken: String?) throws
}

/// The live launcher: a terminal emulator in its own scope (see `TerminalLauncher`).
struct TerminalLinkLauncher: LinkLauncher {
  func open(_ url: String, in ctx: Context, activationToken: String?) throws {
    try TerminalLauncher(ctx: ctx).open(url, activationToken: activationToken)
  }
}

/// Refuses: this context was given no launcher.
struct NoLauncher: LinkLauncher {
  func open(_ url: String, in ctx: Context, activationToken: String?) throws {
    throw CLIError("no terminal launcher in this context (opening \(url))", code: .internal)
  }
}

/// Refuses: this context was given no platform, so it starts no program, finds no user
/// manager or terminal, and reads no terminal (a test context that needs one gives its own).
/// A machine with no terminal, no journal and no Ctrl-C, whose streams go nowhere and whose
/// sleeps take no time: what `NoPlatform` and the test doubles share.
protocol HeadlessPlatform: Platform {}

extension HeadlessPlatform {
  func isTerminal(_ stream: StandardStream) -> Bool { false }
  func waitForInput(seconds: Double) -> Bool { false }
  func readAllInput(limit: Int) -> [UInt8]? { [] }
  func readInputLine(maxBytes: Int) -> String? { nil }
  func readFile(_ path: String, limit: Int) -> Result<[UInt8], StandardStreams.FileReadFailure> {
    .failure(.cannotOpen("no files in a headless platform"))
  }
  func write(_ text: String, to stream: StandardStream) {}
  func terminalColumns() -> Int? { nil }
  func terminal() -> TerminalDevice? { nil }
  func catchInterrupts() {}
  func raiseInterrupt() {}
  var interruptPending: Bool { false }
  func writesToJournal(environment: [String: String]) -> Bool { false }
  func daemonRuns() -> Bool { false }
  func sendToJournal(_ message: String, priority: Journal.Priority, fields: [String: String]) {}
  func now() -> Instant { LinuxPlatform.wallClock() }
  func sleep(seconds: Double) {}
  var processID: Int32 { 0 }
  func unsetEnvironment(_ names: [String]) {}
}

struct NoPlatform: HeadlessPlatform {
  func start(_ argv: [String], environment: [String: String], _ detachment: Spawn.Detachment)
    throws -> Int32
  {
    throw SpawnError(message: "no platform in this context (starting \(argv[0]))")
  }

  func run(_ argv: [String], environment: [String: String], _ detachment: Spawn.Detachment)
    throws -> Int32
  {
    throw SpawnError(message: "no platform in this context (running \(argv[0]))")
  }

  func capture(_ argv: [String], environment: [String: String]) -> String? { nil }
  func reapFinished() {}
  func which(_ name: String, path: String?) -> String? { nil }
  func hasUserManager(environment: [String: String]) -> Bool { false }

  func systemctl(_ arguments: [String], environment: [String: String]) throws -> Int32 {
    throw SpawnError(message: "no platform in this context (running systemctl)")
  }

  func userManagerEnvironment(environment: [String: String]) -> [String: String] { [:] }
  func startTransientTimer(_ timer: TransientTimer, environment: [String: String]) -> Bool {
    false
  }
  func startInScope(_ scope: TransientScope, environment: [String: String]) -> Bool { false }

  func terminalCommands(running program: [String], environment: [String: String]) -> [[String]] {
    []
  }

  func launchTerminal(_ terminal: [String], environment: [String: String]) -> TerminalStart {
    .failed("no platform in this context (starting \(terminal[0]))")
  }

  func exitImmediately(_ status: Int32) -> Never {
    fatalError("no platform in this context (exiting with \(status))")
  }
}

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

/// No service manager: notifications go nowhere, no watchdog (a run outside systemd).
struct NoServiceManager: ServiceManager {
  func notify(_ state: String) -> Bool { false }
  var watchdogInterval: Duration? { nil }
}
