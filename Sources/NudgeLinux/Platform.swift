import FoundationEssentials
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

/// Linux with glibc and (where it runs) a systemd user manager: the live platform.
public struct LinuxPlatform: Platform {
  public init() {}

  public var files: any FileSystem { LocalFileSystem() }

  public func sleepEvents(since: Int, until: Int) -> [(at: Int, event: LastNight.Event)] {
    JournalNights.events(since: since, until: until)
  }

  public func wakeWatch(zonePaths: [String]) -> WakeWatch { WakeWatch(zonePaths: zonePaths) }

  /// The terminal emulators tried by name, each with the flags before the program it runs.
  public static let knownTerminals: [(String, [String])] = [
    ("x-terminal-emulator", ["-e"]), ("gnome-terminal", ["--"]), ("konsole", ["-e"]),
    ("xfce4-terminal", ["-x"]), ("alacritty", ["-e"]), ("kitty", []), ("foot", []),
    ("wezterm", ["start", "--"]), ("xterm", ["-e"]),
  ]

  // MARK: programs

  public func start(
    _ argv: [String], environment: [String: String], _ detachment: Spawn.Detachment
  ) throws -> pid_t {
    try Spawn.start(argv, environment: environment, detachment)
  }

  public func run(
    _ argv: [String], environment: [String: String], _ detachment: Spawn.Detachment
  ) throws -> Int32 {
    try Spawn.run(argv, environment: environment, detachment)
  }

  public func capture(_ argv: [String], environment: [String: String]) -> String? {
    Spawn.capture(argv, environment: environment)
  }

  public func reapFinished() { Spawn.reapFinished() }

  public func which(_ name: String, path: String?) -> String? { Spawn.which(name, path: path) }

  // MARK: the systemd user manager

  public func hasUserManager(environment: [String: String]) -> Bool {
    guard let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty else { return false }
    return access(runtime + "/systemd/private", F_OK) == 0
  }

  public func systemctl(_ arguments: [String], environment: [String: String]) throws -> Int32 {
    try run(["/usr/bin/env", "systemctl", "--user"] + arguments, environment: environment)
  }

  /// The daemon lock of the database at `databasePath`: a file beside it that a running
  /// daemon holds an exclusive `flock` on (released by the kernel when the daemon ends, however
  /// it ends). One open and one lock probe, where scanning /proc took a read of every process.
  public static func daemonLockPath(databasePath: String) -> String {
    databasePath + "-daemon"
  }

  public func daemonRuns(databasePath: String) -> Bool {
    let fd = open(
      Self.daemonLockPath(databasePath: databasePath),
      O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    return flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK
  }

  public func holdDaemonLock(databasePath: String) -> Bool {
    let fd = open(
      Self.daemonLockPath(databasePath: databasePath), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW,
      0o600)
    guard fd >= 0 else { return false }
    // kept open (never closed) while the process lives: the lock is the descriptor's
    if flock(fd, LOCK_EX | LOCK_NB) == 0 { return true }
    close(fd)
    return false
  }

  public func userManagerEnvironment(environment: [String: String]) -> [String: String] {
    guard let systemctl = which("systemctl", path: environment["PATH"]) else { return [:] }
    let text = capture([systemctl, "--user", "show-environment"], environment: environment) ?? ""
    var variables: [String: String] = [:]
    for line in text.split(separator: "\n") {
      let parts = line.split(separator: "=", maxSplits: 1)
      if parts.count == 2 { variables[String(parts[0])] = String(parts[1]) }
    }
    return variables
  }

  public func startTransientTimer(_ timer: TransientTimer, environment: [String: String]) -> Bool {
    guard hasUserManager(environment: environment),
      let systemdRun = which("systemd-run", path: environment["PATH"])
    else { return false }
    let argv = timer.commandLine(systemdRun: systemdRun)
    return (try? run(argv, environment: environment)) == 0
  }

  public func startInScope(_ scope: TransientScope, environment: [String: String]) -> Bool {
    spawnInScope(scope, environment: environment) != nil
  }

  /// Starts `scope`'s program through systemd-run; its pid once systemd-run has become the
  /// program (the scope exists), nil when there is no manager or systemd-run failed first.
  private func spawnInScope(_ scope: TransientScope, environment: [String: String]) -> pid_t? {
    guard hasUserManager(environment: environment),
      let systemdRun = which("systemd-run", path: environment["PATH"])
    else { return nil }
    let unit = "\(scope.unitPrefix)-\(processID)-\(UInt32.random(in: 0...UInt32.max))"
    let argv = scope.commandLine(systemdRun: systemdRun, unit: unit)
    guard let pid = try? Spawn.start(argv, environment: environment, .detached) else {
      return nil
    }
    // systemd-run execs the program once the scope exists; it exits only when it failed
    for _ in 0..<100 {
      if let status = Spawn.exitStatusIfFinished(pid) { return status == 0 ? pid : nil }
      let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe"))
      if let exe, exe != systemdRun { return pid }
      usleep(30_000)
    }
    return pid
  }

  // MARK: terminal windows

  public func terminalCommands(running program: [String], environment: [String: String])
    -> [[String]]
  {
    let path = environment["PATH"]
    var found: [[String]] = []
    var programs = Set<String>()
    /// Each program once, by the file it resolves to (x-terminal-emulator is a link).
    func add(_ argv: [String]) {
      guard let full = which(argv[0], path: path) else { return }
      let real = realpath(full, nil).map { pointer in
        defer { free(pointer) }
        return String(cString: pointer)
      }
      if programs.insert(real ?? full).inserted { found.append(argv) }
    }
    if let terminal = environment["TERMINAL"], !terminal.isEmpty,
      let words = try? CommandLineWords.split(terminal), !words.isEmpty
    {
      add(words + ["-e"] + program)
    }
    for (name, flags) in Self.knownTerminals { add([name] + flags + program) }
    return found
  }

  public func launchTerminal(_ terminal: [String], environment: [String: String])
    -> TerminalStart
  {
    let name = terminal[0].split(separator: "/").last.map(String.init) ?? terminal[0]
    let scope = TransientScope(
      unitPrefix: "nudge-open", description: "Nudge flow opened from a reminder", argv: terminal)
    let pid: pid_t
    if let scoped = spawnInScope(scope, environment: environment) {
      pid = scoped
    } else {
      do { pid = try start(terminal, environment: environment, .detached) } catch {
        let message = (error as? SpawnError)?.message ?? "cannot start \(name)"
        return .failed(message.hasSuffix(".") ? String(message.dropLast()) : message)
      }
    }
    // its first second: a terminal that cannot run on this session ends at once
    for _ in 0..<50 {
      if let status = Spawn.exitStatusIfFinished(pid) {
        return status == 0 ? .started : .failed("\(name) exited \(status)")
      }
      usleep(20_000)
    }
    return .started
  }

  public func unsetEnvironment(_ names: [String]) {
    for name in names { Glibc.unsetenv(name) }
  }

  // MARK: the standard streams and the terminal

  public func isTerminal(_ stream: StandardStream) -> Bool { isatty(stream.descriptor) == 1 }

  public func waitForInput(seconds: Double) -> Bool {
    var fds = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
    return poll(&fds, 1, Int32(seconds * 1000)) > 0
  }

  public func readAllInput(limit: Int) -> [UInt8]? { StandardStreams.readAllInput(limit: limit) }
  public func readInputLine(maxBytes: Int) -> String? {
    StandardStreams.readInputLine(maxBytes: maxBytes)
  }
  public func readFile(_ path: String, limit: Int) -> Result<
    [UInt8], StandardStreams.FileReadFailure
  > {
    StandardStreams.readFile(path, limit: limit)
  }

  public func write(_ text: String, to stream: StandardStream) {
    StandardStreams.write(text, to: stream.descriptor)
  }

  public func terminalColumns() -> Int? { StandardStreams.terminalColumns() }

  public func terminal() -> TerminalDevice? {
    isTerminal(.input) ? TerminalDevice(input: STDIN_FILENO, output: STDOUT_FILENO) : nil
  }

  public func catchInterrupts() { Interrupts.catchInterrupts() }

  public func raiseInterrupt() { Interrupts.raise() }

  public var interruptPending: Bool { Interrupts.pending }

  // MARK: the journal

  public func writesToJournal(environment: [String: String]) -> Bool {
    Journal.stderrIsJournal(environment: environment)
  }

  public func sendToJournal(
    _ message: String, priority: Journal.Priority, fields: [String: String]
  ) {
    Journal.send(message, priority: priority, fields: fields)
  }

  // MARK: the process

  public func now() -> Instant { Self.wallClock() }

  /// This process's environment as it is now (`environ`): for a name given twice, the first,
  /// as `getenv` reads it. Read directly: Foundation's `ProcessInfo` took 3% of a start-up.
  public static func environment() -> [String: String] { environment(entries: environ) }

  /// The variables of an `environ`-style list (`NAME=value` strings up to a null pointer): an
  /// entry without `=` is skipped, invalid UTF-8 is repaired as `String(cString:)` repairs it.
  static func environment(entries environ: UnsafePointer<UnsafeMutablePointer<CChar>?>)
    -> [String: String]
  {
    var count = 0
    while environ[count] != nil { count += 1 }
    var result: [String: String] = Dictionary(minimumCapacity: count)
    for index in 0..<count {
      guard let pointer = environ[index] else { break }
      // the bytes up to the first '=' and after it, each repaired as `String(cString:)` would
      let entry = UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self)
      let length = strlen(pointer)
      guard let equals = memchr(entry, Int32(UInt8(ascii: "=")), length) else { continue }
      let nameLength = UnsafeRawPointer(equals) - UnsafeRawPointer(entry)
      let name = String(
        decoding: UnsafeBufferPointer(start: entry, count: nameLength), as: UTF8.self)
      if result[name] == nil {
        result[name] = String(
          decoding: UnsafeBufferPointer(
            start: entry + nameLength + 1, count: length - nameLength - 1),
          as: UTF8.self)
      }
    }
    return result
  }

  /// The wall clock (CLOCK_REALTIME): the only place Nudge reads it.
  public static func wallClock() -> Instant {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Instant(microseconds: now.tv_sec * 1_000_000 + now.tv_nsec / 1000)
  }

  /// Sleeps `seconds` of any length (`nanosleep` a day at a time, so a long snooze never traps
  /// as a `UInt32` of microseconds would after 71 minutes; at most a year; nothing for a
  /// negative or NaN length); returns early when a signal arrives (Ctrl-C), as before.
  public func sleep(seconds: Double) {
    guard seconds > 0, !seconds.isNaN else { return }
    var left = min(seconds, 86400 * 365)
    while left > 0 {
      let step = min(left, 86400)
      var request = timespec(
        tv_sec: Int(step), tv_nsec: Int((step - step.rounded(.down)) * 1_000_000_000))
      if nanosleep(&request, nil) != 0 { return }
      left -= step
    }
  }

  public var processID: Int32 { getpid() }

  public func exitImmediately(_ status: Int32) -> Never { _exit(status) }
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
