import ArgumentParser
import Foundation
import NudgeCore
import NudgeLinux
import NudgeStore
import Synchronization
import Testing

@testable import NudgeCLI

/// Runs commands in this process against a test `Context`: a real SQLite file in a private
/// home, a fixed clock and zone, typed input from a string, output captured — and every other
/// effect (notifications, programs, terminals, the service manager) refused and recorded as a
/// test failure, since a command test that reaches one has left what it claims to test.
/// Same calls as `Nudge` (the binary runner), which stays for the smoke and data-safety suites.
struct InProcess {
  let home: String
  var environment: [String: String]
  /// The notification server a reminder test scripts (refusing otherwise).
  var notifier: (any Notifier)? = nil
  /// The terminal launcher a reminder test records (refusing otherwise).
  var launcher: (any LinkLauncher)? = nil
  /// The machine a reminder test records (refusing otherwise).
  var platform: (any Platform)? = nil
  /// A clock that `pause` advances (a fixed clock and no pauses otherwise).
  var clock: TestClock? = nil
  /// The plans that ship, as a release that changed plans/ would have them.
  var builtInPlans: [(name: String, text: String)] = BuiltInPlans.texts

  init() {
    self.init(home: NSTemporaryDirectory() + "nudge-inproc-\(UUID().uuidString)")
  }

  /// Runs in `home` (another runner's, say: the golden corpus mixes the binary and this).
  init(home: String) {
    self.home = home
    try? FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    environment = [
      "HOME": home, "XDG_DATA_HOME": home + "/data", "XDG_CONFIG_HOME": home + "/config",
      "TZ": "Europe/Berlin", "PATH": "/usr/bin:/bin", "NUDGE_NOW": "2026-11-20T08:00:00+01:00",
    ]
  }

  var databasePath: String { home + "/data/nudge/nudge.sqlite3" }

  @discardableResult
  func callAsFunction(
    _ arguments: String..., now: String? = nil, stdin: String? = nil, env: [String: String] = [:]
  ) throws -> Nudge.Result {
    try run(arguments, now: now, stdin: stdin, env: env)
  }

  /// Runs a command with `typed` as the answers a person types at its prompts, one a line
  /// ("^C" for Ctrl-C; the end of the text is Ctrl-D).
  @discardableResult
  func typing(_ typed: String, _ arguments: String..., now: String? = nil) throws -> Nudge.Result {
    try run(arguments, now: now, stdin: typed, terminal: true)
  }

  /// Runs a command with `--json` and decodes what it printed.
  func json(_ arguments: String..., now: String? = nil) throws -> Any {
    let result = try run(arguments + ["--json"], now: now)
    try #require(result.status == 0, "\(result.stderr)")
    return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
  }

  /// The context a run gets: what `Context.live()` reads from the process, taken from here.
  func context(
    now: String?, stdin: String?, env: [String: String], output: CapturedOutput,
    terminal: Bool = false
  ) throws -> Context {
    var environment = self.environment
    if let now { environment["NUDGE_NOW"] = now }
    environment.merge(env) { $1 }
    let instant = try Context.fixedNow(environment) ?? Context.systemClock()
    let path = DatabaseLocation.path(environment: environment)
    let explicit = environment["NUDGE_DB"] != nil
    var ctx = Context(
      now: instant, timeZone: ZoneDirectory().local(tz: environment["TZ"]),
      environment: environment, input: ScriptedInput(stdin, terminal: terminal), output: output,
      openDatabase: { () throws(StoreError) -> AppDatabase in
        try AppDatabase.open(path: path, creatingFolders: !explicit)
      },
      makeID: { UUID().uuidString.lowercased() },
      rewardSeed: try Context.fixedSeed(environment) ?? 0)
    ctx.columns = environment["COLUMNS"].flatMap { Int($0) } ?? 80
    ctx.notifier = notifier ?? RefusingNotifier()
    ctx.platform = platform ?? TestPlatform(refusesPrograms: true)
    ctx.launcher = launcher ?? RefusingLauncher()
    ctx.builtInPlans = builtInPlans
    if let clock {
      ctx.clock = RunClock(started: ctx.clock.started) { clock.current }
      ctx.pause = { clock.advance($0) }
    }
    return ctx
  }

  func run(
    _ arguments: [String], now: String? = nil, stdin: String? = nil, env: [String: String] = [:],
    terminal: Bool = false
  ) throws -> Nudge.Result {
    let output = CapturedOutput()
    do {
      let ctx = try context(
        now: now, stdin: stdin, env: env, output: output, terminal: terminal)
      let command = try NudgeMain.parse(
        arguments, environment: ctx.environment, builtInPlans: builtInPlans)
      let routed = try #require(
        command as? any ContextCommand, "\(type(of: command)) does not run against a context")
      try routed.run(ctx)
      return Nudge.Result(status: 0, stdout: output.stdout, stderr: output.stderr)
    } catch {
      let failure = NudgeMain.report(error, arguments: arguments)
      return Nudge.Result(
        status: failure.status, stdout: output.stdout + failure.stdout,
        stderr: output.stderr + failure.stderr)
    }
  }
}

/// Typed answers, one line at a time; not a terminal. A line holding only "^C" is Ctrl-C.
final class ScriptedInput: LineInput {
  /// What has not been read yet.
  private let rest: Mutex<Substring>
  private let interrupted = Mutex(false)
  let isTerminal: Bool

  /// `terminal`: answers typed at prompts, as a person would (the flows ask their questions).
  init(_ text: String?, terminal: Bool = false) {
    rest = Mutex(Substring(text ?? ""))
    isTerminal = terminal
  }

  var wasInterrupted: Bool { interrupted.withLock { $0 } }

  func catchInterrupts() {}

  func readLine() -> String? {
    let line: String? = rest.withLock { rest in
      guard !rest.isEmpty else { return nil }
      let end = rest.firstIndex(of: "\n") ?? rest.endIndex
      defer { rest = end < rest.endIndex ? rest[rest.index(after: end)...] : "" }
      return String(rest[..<end])
    }
    if line == "^C" {
      interrupted.withLock { $0 = true }
      return nil
    }
    return line
  }

  func waitForLine(seconds: Double) -> Bool { rest.withLock { !$0.isEmpty } }

  func readAll(limit: Int) -> Data? {
    rest.withLock { rest in
      defer { rest = "" }
      return rest.utf8.count > limit ? nil : Data(rest.utf8)
    }
  }
}

/// What a command printed, stdout and stderr apart; not a terminal.
final class CapturedOutput: TextOutput {
  private let printed = Mutex((stdout: "", stderr: ""))
  let isTerminal = false

  var stdout: String { printed.withLock { $0.stdout } }
  var stderr: String { printed.withLock { $0.stderr } }
  func write(_ text: String) { printed.withLock { $0.stdout += text } }
  func writeError(_ text: String) { printed.withLock { $0.stderr += text } }
}

/// A notifier a command test must never reach.
final class RefusingNotifier: Notifier {
  func post(_ notification: DesktopNotification, wait: DesktopNotification.Wait)
    -> DesktopNotification.Ending
  {
    Issue.record("a command test posted a notification: \(notification.title)")
    return .undelivered("no notifier in a command test")
  }

  func unavailableReason(waitingForServer seconds: Double) -> String? {
    Issue.record("a command test asked for the notification server")
    return "no notifier in a command test"
  }

  func inspect() -> DesktopNotification.ServerStatus {
    Issue.record("a command test inspected the notification session")
    return .noSessionBus
  }

  func whenServerHangs(_ handler: @escaping @Sendable () -> Void) {}
}

/// Opening a terminal is not something a command test does.
struct RefusingLauncher: LinkLauncher {
  func open(_ url: String, in ctx: Context, activationToken: String?) throws {
    Issue.record("a command test opened a terminal for \(url)")
    throw CLIError("no terminal in a command test", code: .internal)
  }
}

/// `nudge history --json --days N` at `now`, as parsed JSON.
func history(_ nudge: InProcess, _ now: String, days: Int = 1) throws -> [[String: Any]] {
  let result = try nudge.run(["history", "--json", "--days", "\(days)"], now: now)
  try #require(result.status == 0, "\(result.stderr)")
  return try #require(
    try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
}
