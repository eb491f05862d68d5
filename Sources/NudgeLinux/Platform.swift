import Glibc
import NudgeCore

/// The machine Nudge runs on, as one seam: programs it starts and waits for, the systemd user
/// manager (its units, transient scopes and timers), terminal windows, the terminal it reads
/// keys from, Ctrl-C, and the few process-wide calls (clock, sleep, immediate exit). The
/// command layer reaches the machine only through this (the context's `platform`).
public protocol Platform: ProcessSpawner {
  /// The files a command reads and writes.
  var files: any FileSystem { get }
  /// This machine's host name, nil when it has none.
  func hostname() -> String?
  /// Watches for the wall clock being set and the zone files being replaced (the daemon).
  func wakeWatch(zonePaths: [String]) -> WakeWatch

  /// The full path of `name` on `path` (a name with a slash is taken as a path), if executable.
  func which(_ name: String, path: String?) -> String?

  /// A systemd user manager runs for this session (it listens on
  /// `$XDG_RUNTIME_DIR/systemd/private`).
  func hasUserManager(environment: [String: String]) -> Bool
  /// Runs `systemctl --user ARGUMENTS` and waits; its exit status.
  func systemctl(_ arguments: [String], environment: [String: String]) throws -> Int32
  /// A `nudge daemon` (the reminders' scheduler where no systemd user instance runs) reminds
  /// for the database at `databasePath`: it holds that database's daemon lock.
  func daemonRuns(databasePath: String) -> Bool
  /// Takes the daemon lock of the database at `databasePath` for the rest of this process's
  /// life; false when another daemon holds it (or the lock file can't be opened).
  func holdDaemonLock(databasePath: String) -> Bool
  /// The user manager's environment (`systemctl --user show-environment`), empty without one.
  func userManagerEnvironment(environment: [String: String]) -> [String: String]
  /// Hands `timer` to the user manager; true when the transient timer was created.
  func startTransientTimer(_ timer: TransientTimer, environment: [String: String]) -> Bool
  /// Runs `scope`'s program in a transient scope of the user manager; true once it runs there,
  /// false when systemd-run failed first (or there is no manager).
  func startInScope(_ scope: TransientScope, environment: [String: String]) -> Bool

  /// The argvs that start a terminal emulator running `program`, best first: `$TERMINAL`
  /// (with `-e`), then each known terminal on `PATH` (one argv for each program they resolve
  /// to: `x-terminal-emulator` and the konsole it points at are one); empty when none is found.
  func terminalCommands(running program: [String], environment: [String: String]) -> [[String]]
  /// Starts `terminal` (its first word a path) outside Nudge's cgroup and session — in a
  /// transient scope where a user manager runs, else as a plain detached process — and watches
  /// its first second: one that fails to start, or ends with a failure by then, is `failed`.
  func launchTerminal(_ terminal: [String], environment: [String: String]) -> TerminalStart
  /// Removes `names` from this process's environment (so no later child inherits them).
  func unsetEnvironment(_ names: [String])

  /// True when `stream` is a terminal.
  func isTerminal(_ stream: StandardStream) -> Bool
  /// Waits up to `seconds` for standard input to have something to read; true when it has.
  func waitForInput(seconds: Double) -> Bool
  /// When this computer went to sleep or shut down, and woke or started, from `since` to
  /// `until` (epoch seconds), as far as the journal tells this user; empty when it tells nothing.
  func sleepEvents(since: Int, until: Int) -> [(at: Int, event: LastNight.Event)]

  /// Everything standard input holds until its end.
  func readAllInput(limit: Int) -> [UInt8]?
  /// One line of standard input (not a terminal), cut at `maxBytes`; nil at its end.
  func readInputLine(maxBytes: Int) -> String?
  /// The regular file at `path`, at most `limit` bytes; never waits on a FIFO or a device.
  func readFile(_ path: String, limit: Int) -> Result<[UInt8], StandardStreams.FileReadFailure>
  /// Writes all of `text` to standard output or error.
  func write(_ text: String, to stream: StandardStream)
  /// The width of the terminal on standard output in columns, nil when it is not one.
  func terminalColumns() -> Int?
  /// The terminal on standard input and output, for a line editor or an animation; nil when
  /// standard input is not a terminal.
  func terminal() -> TerminalDevice?

  /// From now on Ctrl-C (SIGINT) is noted (`interruptPending`) instead of ending the process.
  func catchInterrupts()
  /// Marks an interrupt (a line editor that read Ctrl-C as a key).
  func raiseInterrupt()
  /// True once Ctrl-C was pressed.
  var interruptPending: Bool { get }

  /// Standard error goes to the systemd journal (a unit's output, `JOURNAL_STREAM`).
  func writesToJournal(environment: [String: String]) -> Bool
  /// Sends `message` to the journal with `priority` and extra `fields` (`NUDGE_SLOT`…).
  func sendToJournal(_ message: String, priority: Journal.Priority, fields: [String: String])

  /// The wall clock (CLOCK_REALTIME).
  func now() -> Instant
  /// Sleeps `seconds` (a Ctrl-C ends it early).
  func sleep(seconds: Double)
  /// This process's id.
  var processID: Int32 { get }
  /// Ends the process at once with `status`, running no exit handlers (a thread that must end
  /// a process whose main thread is stuck in a call that never returns).
  func exitImmediately(_ status: Int32) -> Never
}

/// How a terminal window's start went.
public enum TerminalStart: Equatable, Sendable {
  /// It still runs after its first second, or ended well by then (a terminal that hands the
  /// window to its server, as gnome-terminal does, ends at once with 0).
  case started
  /// It could not be started, or ended with a failure within its first second: why
  /// ("konsole exited 1").
  case failed(String)
}

/// One of the process's standard streams.
public enum StandardStream: Sendable {
  case input, output, error

  var descriptor: Int32 {
    switch self {
    case .input: STDIN_FILENO
    case .output: STDOUT_FILENO
    case .error: STDERR_FILENO
    }
  }
}

/// A timer handed to the systemd user manager (`systemd-run --user --on-active=…`): it runs
/// `argv` once, `afterSeconds` from now, even after Nudge has ended.
public struct TransientTimer: Sendable, Equatable {
  /// The unit's name (`nudge-snooze-morning-1790000000`).
  public var unit: String
  public var description: String
  public var afterSeconds: Int
  /// How far from the due second systemd may run it (`AccuracySec`).
  public var accuracySeconds: Int
  /// The longest the started service may run (`RuntimeMaxSec`).
  public var runtimeMaxSeconds: Int
  /// Variables set for the program (in name order), beyond the manager's own environment.
  public var environment: [String: String]
  /// The program and its arguments (the first word a path).
  public var argv: [String]

  public init(
    unit: String, description: String, afterSeconds: Int, accuracySeconds: Int = 1,
    runtimeMaxSeconds: Int, environment: [String: String] = [:], argv: [String]
  ) {
    self.unit = unit
    self.description = description
    self.afterSeconds = afterSeconds
    self.accuracySeconds = accuracySeconds
    self.runtimeMaxSeconds = runtimeMaxSeconds
    self.environment = environment
    self.argv = argv
  }

  /// The systemd-run command line that creates the timer.
  public func commandLine(systemdRun: String) -> [String] {
    [
      systemdRun, "--user", "--quiet", "--collect", "--unit=\(unit)",
      "--description=\(description)", "--on-active=\(afterSeconds)s",
      "--timer-property=AccuracySec=\(accuracySeconds)s",
      "--property=RuntimeMaxSec=\(runtimeMaxSeconds)s",
    ]
      + environment.sorted { $0.key < $1.key }.map { "--setenv=\($0.key)=\($0.value)" }
      + ["--"] + argv
  }
}

/// A program run in a transient scope of the systemd user manager (`systemd-run --user
/// --scope`): its own cgroup, so stopping the unit that started it leaves it running.
public struct TransientScope: Sendable, Equatable {
  /// The scope is named PREFIX-PID-RANDOM.
  public var unitPrefix: String
  public var description: String
  /// The program and its arguments (the first word a path).
  public var argv: [String]

  public init(unitPrefix: String, description: String, argv: [String]) {
    self.unitPrefix = unitPrefix
    self.description = description
    self.argv = argv
  }

  /// The systemd-run command line that runs the program in the scope named `unit`.
  public func commandLine(systemdRun: String, unit: String) -> [String] {
    [
      systemdRun, "--user", "--scope", "--quiet", "--collect", "--unit=\(unit)",
      "--description=\(description)", "--",
    ] + argv
  }
}

extension Platform {
  /// The kernel's host name (`gethostname`), nil when it cannot be read or is empty.
  public func hostname() -> String? {
    var buffer = [CChar](repeating: 0, count: 256)
    guard gethostname(&buffer, buffer.count - 1) == 0 else { return nil }
    let name = String(
      decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return name.isEmpty ? nil : name
  }
}
