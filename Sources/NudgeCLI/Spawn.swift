import Foundation

/// Starts programs with `posix_spawn`: an argv, never a shell, stdin from /dev/null. (Foundation's
/// `Process` opens loopback UDP sockets for its run loop; Nudge opens no IP socket at all.)
enum Spawn {
  /// Starts `argv[0]` (a path) with `argv` and `environment`; returns its pid.
  static func start(_ argv: [String], environment: [String: String]) throws(CLIError) -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
    let args = argv.map { strdup($0) } + [nil]
    let env = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for p in args { free(p) }
      for p in env { free(p) }
    }
    var pid: pid_t = 0
    let status = posix_spawn(&pid, argv[0], &actions, nil, args, env)
    guard status == 0 else {
      throw CLIError(
        "cannot start \(argv[0]): \(String(cString: strerror(status))).", code: .unavailable)
    }
    return pid
  }

  /// Starts a program and waits for it; returns its exit status (128+N for signal N).
  static func run(_ argv: [String], environment: [String: String]) throws(CLIError) -> Int32 {
    let pid = try start(argv, environment: environment)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let signal = status & 0x7f
    return signal == 0 ? (status >> 8) & 0xff : 128 + signal
  }

  /// Collects the exit status of every finished child, so none lingers as a zombie.
  static func reapFinished() {
    var status: Int32 = 0
    while waitpid(-1, &status, WNOHANG) > 0 {}
  }
}
