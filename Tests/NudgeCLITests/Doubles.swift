import Foundation
import NudgeCore
import NudgeLinux
import Synchronization
import Testing

@testable import NudgeCLI

/// A notification server that answers each post as its script says, in order, and records what
/// it was shown: the double for the layers above the notifier (the real server is the e2e
/// suites' job). A post it shows calls `onVisibility`, as libnotify does once the server has it.
final class ScriptedNotifier: Notifier {
  /// One answer to a post.
  enum Step: Sendable {
    /// Shown, then ends this way (`.undelivered`: the server went away while it was up).
    case answer(DesktopNotification.Ending)
    /// Held back by Do Not Disturb, then (if `released`) let through, then ends this way.
    case heldBack(DesktopNotification.Ending, released: Bool = false)
    /// Never shown: the server refused it.
    case refuse(String)
    /// Runs `before` (another process finishing the flow, say), then withdraws the notification
    /// if the wait's `isDoneElsewhere` says so, else lets it expire.
    case checkDoneElsewhere(before: @Sendable () -> Void)
    /// The server stops answering in the middle of the call: the hang handler runs on a thread
    /// of its own, as the watchdog's; once that thread has ended (`hangEnded` signalled by the
    /// platform's exit), the post returns as if stopped: the real process would be gone.
    case hang
  }

  /// A notification as posted, with the wait it was given.
  struct Post: Sendable {
    var notification: DesktopNotification
    var seconds: Double
  }

  private let script: Mutex<[Step]>
  private let posted = Mutex<[Post]>([])
  private let hangHandler = Mutex<(@Sendable () -> Void)?>(nil)
  /// What `unavailableReason` answers: nil, a server with buttons is there.
  let unavailable: String?
  /// Signalled when a hang handler's thread has ended the "process".
  let hangEnded = DispatchSemaphore(value: 0)

  init(_ script: [Step], unavailable: String? = nil) {
    self.script = Mutex(script)
    self.unavailable = unavailable
  }

  convenience init(_ outcomes: DesktopNotification.Ending...) {
    self.init(outcomes.map { .answer($0) })
  }

  var posts: [Post] { posted.withLock { $0 } }
  var titles: [String] { posts.map(\.notification.title) }

  func post(_ notification: DesktopNotification, wait: DesktopNotification.Wait)
    -> DesktopNotification.Ending
  {
    posted.withLock { $0.append(Post(notification: notification, seconds: wait.seconds)) }
    let step = script.withLock { $0.isEmpty ? nil : $0.removeFirst() }
    guard let step else {
      Issue.record("a post the script has no answer for: \(notification.title)")
      return .undelivered("no answer scripted")
    }
    switch step {
    case .answer(let outcome):
      wait.onVisibility(.shown)
      return outcome
    case .heldBack(let outcome, let released):
      wait.onVisibility(.held)
      if released { wait.onVisibility(.shown) }
      return outcome
    case .refuse(let reason):
      return .undelivered(reason)
    case .checkDoneElsewhere(let before):
      wait.onVisibility(.shown)
      before()
      return wait.isDoneElsewhere() ? .withdrawn(.doneElsewhere) : .withdrawn(.expired)
    case .hang:
      let handler = hangHandler.withLock { $0 }
      guard let handler else {
        Issue.record("the server hung and nobody had said what to do")
        return .undelivered("hung")
      }
      wait.onVisibility(.shown)
      Thread.detachNewThread(handler)
      hangEnded.wait()
      return .withdrawn(.stopped)
    }
  }

  func unavailableReason(waitingForServer seconds: Double) -> String? { unavailable }

  func inspect() -> DesktopNotification.ServerStatus {
    .server(name: "scripted", capabilities: ["actions"])
  }

  func whenServerHangs(_ handler: @escaping @Sendable () -> Void) {
    hangHandler.withLock { $0 = handler }
  }
}

/// A terminal launcher that records the links it was asked to open, with the focus token each
/// came with; with `failure`, no terminal starts.
final class RecordingLauncher: LinkLauncher {
  private let opened = Mutex<[(url: String, token: String?)]>([])
  let failure: TerminalOpenFailure?

  init(failure: TerminalOpenFailure? = nil) { self.failure = failure }

  var links: [String] { opened.withLock { $0.map(\.url) } }
  var tokens: [String?] { opened.withLock { $0.map(\.token) } }

  func open(_ url: String, in ctx: Context, activationToken: String?) throws {
    opened.withLock { $0.append((url, activationToken)) }
    if let failure { throw failure }
  }
}

/// A clock that stands still until `pause` moves it: a snooze's wait takes no time.
final class TestClock: Sendable {
  private let now: Mutex<Instant>

  init(_ start: Instant) { now = Mutex(start) }

  var current: Instant { now.withLock { $0 } }

  func advance(_ seconds: Double) { now.withLock { $0 = $0.adding(seconds: seconds) } }
}

/// The machine as a command test sees it: no terminal, no journal, a user manager when asked
/// for; the programs, transient timers and exits asked of it are recorded, none started. With
/// `refusesPrograms` a program started is a test failure (a command test that starts one has
/// left what it claims to test).
final class TestPlatform: HeadlessPlatform {
  let refusesPrograms: Bool
  let userManager: Bool
  private let recorded = Mutex((started: [[String]](), timers: [TransientTimer]()))
  /// Runs on the thread that asked to end the process, before that thread ends.
  private let exitHandler: (@Sendable (Int32) -> Void)?

  /// What the journal tells of the computer's nights (`sleepEvents`).
  let nights = Mutex<[(at: Int, event: LastNight.Event)]>([])

  func sleepEvents(since: Int, until: Int) -> [(at: Int, event: LastNight.Event)] {
    nights.withLock { $0.filter { $0.at >= since && $0.at <= until } }
  }

  /// Another process runs `nudge daemon`.
  let daemon: Bool
  /// Units `systemctl --user is-active` finds not active.
  let inactiveUnits: Set<String>

  init(
    refusesPrograms: Bool = false, userManager: Bool = false, daemon: Bool = false,
    inactiveUnits: Set<String> = [], terminals: [[String]] = [],
    terminalStarts: [TerminalStart] = [],
    onExit: (@Sendable (Int32) -> Void)? = nil
  ) {
    self.refusesPrograms = refusesPrograms
    self.userManager = userManager
    self.daemon = daemon
    self.inactiveUnits = inactiveUnits
    self.terminals = terminals
    self.terminalStarts = terminalStarts
    self.exitHandler = onExit
  }

  var started: [[String]] { recorded.withLock { $0.started } }
  /// Yields once for each program started or run, as it is recorded: a test waits on it.
  let startEvents = AsyncStream<Void>.makeStream()
  var timers: [TransientTimer] { recorded.withLock { $0.timers } }
  private let environments = Mutex([[String: String]]())
  /// The environment each program was started with (`start`), in order.
  var startedEnvironments: [[String: String]] { environments.withLock { $0 } }

  private func record(_ argv: [String]) throws {
    if refusesPrograms {
      Issue.record("a command test started \(argv)")
      throw SpawnError(message: "no programs in a command test")
    }
    recorded.withLock { $0.started.append(argv) }
    startEvents.continuation.yield()
  }

  func start(_ argv: [String], environment: [String: String], _ detachment: Spawn.Detachment)
    throws -> Int32
  {
    try record(argv)
    environments.withLock { $0.append(environment) }
    return 1
  }

  func run(_ argv: [String], environment: [String: String], _ detachment: Spawn.Detachment)
    throws -> Int32
  {
    try record(argv)
    return 0
  }

  func capture(_ argv: [String], environment: [String: String]) -> String? {
    try? record(argv)
    return nil
  }

  func reapFinished() {}
  func hasUserManager(environment: [String: String]) -> Bool { userManager }
  func daemonRuns(databasePath: String) -> Bool { daemon }
  func holdDaemonLock(databasePath: String) -> Bool { true }

  func systemctl(_ arguments: [String], environment: [String: String]) throws -> Int32 {
    try record(["systemctl", "--user"] + arguments)
    // systemctl's answer for a unit that is not active: 3
    return arguments.first == "is-active" && arguments.contains(where: inactiveUnits.contains)
      ? 3 : 0
  }

  func userManagerEnvironment(environment: [String: String]) -> [String: String] { [:] }

  func startTransientTimer(_ timer: TransientTimer, environment: [String: String]) -> Bool {
    guard userManager else { return false }
    recorded.withLock { $0.timers.append(timer) }
    return true
  }

  func startInScope(_ scope: TransientScope, environment: [String: String]) -> Bool {
    (try? record(scope.argv)) != nil
  }

  /// The terminals on its "PATH", in the order a click tries them.
  let terminals: [[String]]
  /// How each terminal started, in order (started, once this runs out).
  let terminalStarts: [TerminalStart]
  private let launched = Mutex((count: 0, environments: [[String: String]](), unset: [String]()))
  /// The environment each terminal was started with.
  var terminalEnvironments: [[String: String]] { launched.withLock { $0.environments } }
  /// The variables the command removed from its own environment.
  var unsetVariables: [String] { launched.withLock { $0.unset } }

  func terminalCommands(running program: [String], environment: [String: String]) -> [[String]] {
    terminals.map { $0 + program }
  }

  func which(_ name: String, path: String?) -> String? {
    terminals.contains { $0.first == name } ? "/usr/bin/" + name : nil
  }

  func launchTerminal(_ terminal: [String], environment: [String: String]) -> TerminalStart {
    if (try? record(terminal)) == nil { return .failed("no programs in a command test") }
    let index = launched.withLock {
      $0.environments.append(environment)
      $0.count += 1
      return $0.count - 1
    }
    return index < terminalStarts.count ? terminalStarts[index] : .started
  }

  func unsetEnvironment(_ names: [String]) { launched.withLock { $0.unset += names } }

  /// Ends only the calling thread (the watchdog's, in a hang), after `onExit` saw the status.
  func exitImmediately(_ status: Int32) -> Never {
    if let exitHandler { exitHandler(status) } else { Issue.record("a test exited \(status)") }
    pthread_exit(nil)
  }
}
