import Dispatch
import FoundationEssentials
import NudgeCore
import NudgeLinux
import NudgeStore
import Synchronization

/// Where a command reads typed answers from.
public protocol LineInput: AnyObject, Sendable {
  /// True when a person is typing (stdin is a terminal).
  var isTerminal: Bool { get }
  /// One line without its newline, or nil at end of input or after Ctrl-C.
  func readLine() -> String?
  /// One line, `offering` already on it to edit where a person types with line editing (an
  /// earlier answer: Enter keeps it; Tab on an empty line or Up brings it back).
  func readLine(offering: String?) -> String?
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

extension LineInput {
  /// Where no line is edited (a pipe, a test's typed lines): the line as read; the offer is
  /// the question's hint.
  public func readLine(offering: String?) -> String? { readLine() }
}

/// Where a command writes what the person sees.
public protocol TextOutput: AnyObject, Sendable {
  /// True when stdout is a terminal.
  var isTerminal: Bool { get }
  func write(_ text: String)
  func writeError(_ text: String)
  /// The file descriptor behind it, when it is one (a `--follow` hears its reader go).
  var descriptor: Int32? { get }
}

extension TextOutput {
  public var descriptor: Int32? { nil }
}

/// A run's clock. A command takes one now, the instant it started (`started`): its day, its
/// stamps, its checks all agree, even across midnight. What waits — the daemon, a reminder on
/// the screen, a snooze, a draft kept minutes later — reads the time as it goes on (`now()`):
/// the wall clock, or `NUDGE_NOW` advancing from its fixed start with the monotonic clock.
public struct RunClock: Sendable {
  /// The instant the run started: what "now" means to a command.
  public let started: Instant
  private let reading: @Sendable () -> Instant

  public init(started: Instant, reading: @escaping @Sendable () -> Instant) {
    self.started = started
    self.reading = reading
  }

  /// A clock that stays at `instant` (tests; a command that never waits).
  public init(fixed instant: Instant) { self.init(started: instant) { instant } }

  /// The time as it reads now.
  public func now() -> Instant { reading() }
}

/// Everything one command run touches of the outside world; the live one is built in `main`.
/// It is Sendable: the daemon's service and a notification's watchdog thread carry it.
public struct Context: Sendable {
  /// The run's one clock: when it started (a command's now) and what it reads as it goes on.
  public var clock: RunClock
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
  /// The plans that ship (`BuiltInPlans.texts`, from plans/): a test gives others, as a
  /// release that changed plans/ would have them.
  public var builtInPlans: [(name: String, text: String)] = BuiltInPlans.texts

  public init(
    now: Instant, timeZone: ZoneRules, environment: [String: String], input: any LineInput,
    output: any TextOutput,
    openDatabase: @escaping @Sendable () throws(StoreError) -> AppDatabase,
    makeID: @escaping @Sendable () -> String, rewardSeed: UInt64 = 0,
    pause: @escaping @Sendable (Double) -> Void = { _ in }
  ) {
    self.rewardSeed = rewardSeed
    self.pause = pause
    self.clock = RunClock(fixed: now)
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

  /// `parts` as one text wrapped at spaces to `width` (the terminal's), each part in its own
  /// style: the lines, without their line ends.
  func wrapped(_ parts: [(String, (String) -> String)], width: Int? = nil, indent: Int = 0)
    -> [String]
  {
    TerminalText.wrap(parts: parts.map(\.0), width: width ?? columns, indent: indent).map { runs in
      runs.map { run in run.part.map { parts[$0].1(run.text) } ?? run.text }.joined()
    }
  }

  /// Writes `parts` as one text wrapped to the terminal's width, each part in its own style.
  func wrappedLine(_ parts: [(String, (String) -> String)], indent: Int = 0) {
    for text in wrapped(parts, indent: indent) { line(text) }
  }
}

extension Context {
  /// The wall clock (CLOCK_REALTIME).
  static func systemClock() -> Instant { LinuxPlatform.wallClock() }

  /// The context of a real run: the process's clock (or `NUDGE_NOW`), `TZ`, stdin and stdout.
  public static func live() throws -> Context {
    let env = LinuxPlatform.environment()
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
      context.clock = RunClock(started: fixed) {
        fixed.adding(seconds: Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9)
      }
    } else {
      context.clock = RunClock(started: now) { platform.now() }
    }
    // the first open takes in what other devices wrote, when this one syncs
    let open = context.openDatabase
    let attached = Atomic<Bool>(false)
    context.openDatabase = { [context] () throws(StoreError) -> AppDatabase in
      let db = try open()
      if attached.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing)
        .exchanged
      {
        SyncRunner.attach(context, db)
      }
      return db
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

extension Context {
  /// The day a week begins on: the person's `week-start`, else their locale's first weekday,
  /// else Monday (ISO 8601).
  func weekStart(_ settings: Settings) -> WeekStart {
    settings.weekStart ?? LocaleWeek.start(environment: environment) ?? .monday
  }
}
