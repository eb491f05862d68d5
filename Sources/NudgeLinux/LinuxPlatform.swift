import FoundationEssentials
import Glibc
import NudgeCore

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
