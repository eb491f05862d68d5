import FoundationEssentials
import Glibc

/// Starts programs with `posix_spawn`: an argv, never a shell, stdin from /dev/null, an empty
/// signal mask and default signal dispositions (whatever the calling thread blocks or ignores).
/// Foundation's `Process` opens loopback UDP sockets for its run loop; Nudge opens no IP socket.
public enum Spawn {
  /// glibc's POSIX_SPAWN_SETSID (2.26+), hidden from Swift behind _GNU_SOURCE.
  static let setsid: Int32 = 0x80

  /// How a started program relates to Nudge.
  public enum Detachment: Sendable {
    /// A helper Nudge waits for (systemctl): it shares Nudge's session and output.
    case attached
    /// A program that outlives Nudge (a terminal, a firing): its own session, its output to
    /// /dev/null, so it is neither mixed into Nudge's nor killed with Nudge's process group.
    case detached
  }

  /// Starts `argv[0]` (a path) with `argv` and `environment`; returns its pid.
  public static func start(
    _ argv: [String], environment: [String: String], _ detachment: Detachment = .attached
  ) throws -> pid_t {
    let status: Int32
    let pid: pid_t
    (status, pid) = spawn(argv, environment, newSession: detachment == .detached) { actions in
      if detachment == .detached {
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO)
      }
    }
    guard status == 0 else {
      throw SpawnError(message: "cannot start \(argv[0]): \(String(cString: strerror(status))).")
    }
    return pid
  }

  /// `posix_spawn` with stdin from /dev/null, an empty signal mask, default dispositions, and
  /// the file actions `redirect` adds; returns posix_spawn's status and the pid.
  private static func spawn(
    _ argv: [String], _ environment: [String: String], newSession: Bool,
    redirect: (inout posix_spawn_file_actions_t) -> Void
  ) -> (Int32, pid_t) {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
    redirect(&actions)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var empty = sigset_t()
    sigemptyset(&empty)
    posix_spawnattr_setsigmask(&attributes, &empty)
    var all = sigset_t()
    sigfillset(&all)
    posix_spawnattr_setsigdefault(&attributes, &all)
    var flags = Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
    if newSession { flags |= setsid }
    posix_spawnattr_setflags(&attributes, Int16(flags))
    let args = argv.map { strdup($0) } + [nil]
    let env = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for p in args { free(p) }
      for p in env { free(p) }
    }
    var pid: pid_t = 0
    let status = posix_spawn(&pid, argv[0], &actions, &attributes, args, env)
    return (status, pid)
  }

  /// Starts a program and waits for it; returns its exit status (128+N for signal N).
  public static func run(
    _ argv: [String], environment: [String: String], _ detachment: Detachment = .attached
  ) throws -> Int32 {
    let pid = try start(argv, environment: environment, detachment)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return exitStatus(status)
  }

  /// The exit status of the child `pid` (started here) once it has ended (128+N for signal N),
  /// nil while it runs; it is then collected.
  public static func exitStatusIfFinished(_ pid: pid_t) -> Int32? {
    var status: Int32 = 0
    guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
    return exitStatus(status)
  }

  /// A wait status as a shell reports it: the exit code, or 128+N for signal N.
  private static func exitStatus(_ status: Int32) -> Int32 {
    let signal = status & 0x7f
    return signal == 0 ? (status >> 8) & 0xff : 128 + signal
  }

  /// Runs a program and returns what it printed on stdout (stderr discarded); nil on failure.
  public static func capture(_ argv: [String], environment: [String: String]) -> String? {
    var pipeEnds: [Int32] = [0, 0]
    guard pipe(&pipeEnds) == 0 else { return nil }
    let (status, pid) = spawn(argv, environment, newSession: false) { actions in
      posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], STDOUT_FILENO)
      posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)
      posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
    }
    close(pipeEnds[1])
    defer { close(pipeEnds[0]) }
    guard status == 0 else { return nil }
    var data = [UInt8]()
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let n = read(pipeEnds[0], &buffer, buffer.count)
      if n > 0 { data += buffer[0..<n] } else if n < 0 && errno == EINTR { continue } else { break }
    }
    var exitStatus: Int32 = 0
    while waitpid(pid, &exitStatus, 0) < 0 && errno == EINTR {}
    return exitStatus == 0 ? String(decoding: data, as: UTF8.self) : nil
  }

  /// Collects the exit status of every finished child, so none lingers as a zombie.
  public static func reapFinished() {
    var status: Int32 = 0
    while waitpid(-1, &status, WNOHANG) > 0 {}
  }

  /// The full path of `name` on `path` (a name with a slash is taken as a path), if executable.
  public static func which(_ name: String, path: String?) -> String? {
    if name.contains("/") { return access(name, X_OK) == 0 ? name : nil }
    for dir in (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") {
      let candidate = "\(dir)/\(name)"
      if access(candidate, X_OK) == 0 { return candidate }
    }
    return nil
  }
}

/// A program that could not be started, with a sentence that says which and why.
public struct SpawnError: Error, Equatable, Sendable {
  public let message: String

  public init(message: String) { self.message = message }
}

/// Starts other programs and waits for them: the context's way to every child process, so a
/// test context can refuse (or record) what a command would start.
public protocol ProcessSpawner: Sendable {
  /// Starts `argv[0]` (a path) with `argv` and `environment`; returns its pid.
  func start(_ argv: [String], environment: [String: String], _ detachment: Spawn.Detachment)
    throws -> pid_t
  /// Starts a program and waits for it; returns its exit status (128+N for signal N).
  func run(_ argv: [String], environment: [String: String], _ detachment: Spawn.Detachment)
    throws -> Int32
  /// Runs a program and returns what it printed on stdout; nil on failure.
  func capture(_ argv: [String], environment: [String: String]) -> String?
  /// Collects every finished child.
  func reapFinished()
}

extension ProcessSpawner {
  public func start(_ argv: [String], environment: [String: String]) throws -> pid_t {
    try start(argv, environment: environment, .attached)
  }

  public func run(_ argv: [String], environment: [String: String]) throws -> Int32 {
    try run(argv, environment: environment, .attached)
  }
}
