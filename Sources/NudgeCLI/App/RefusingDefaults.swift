import Dispatch
import FoundationEssentials
import NudgeCore
import NudgeLinux
import NudgeStore
import Synchronization

/// Refuses: this context was given no notifier, so nothing can be shown.
final class NoNotifier: Notifier {
  func unavailableReason(waitingForServer seconds: Double) -> String? {
    "no notifier in this context"
  }

  func post(_ notification: DesktopNotification, wait: DesktopNotification.Wait)
    -> DesktopNotification.Ending
  {
    .undelivered("no notifier in this context")
  }

  func inspect() -> DesktopNotification.ServerStatus { .noSessionBus }

  func whenServerHangs(_ handler: @escaping @Sendable () -> Void) {}
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
  /// Files are real (a test's temporary folders), as its SQLite file is.
  var files: any FileSystem { LocalFileSystem() }
  func wakeWatch(zonePaths: [String]) -> WakeWatch { WakeWatch(zonePaths: zonePaths) }
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
  func sleepEvents(since: Int, until: Int) -> [(at: Int, event: LastNight.Event)] { [] }
  func daemonRuns(databasePath: String) -> Bool { false }
  func holdDaemonLock(databasePath: String) -> Bool { false }
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

/// No service manager: notifications go nowhere, no watchdog (a run outside systemd).
struct NoServiceManager: ServiceManager {
  func notify(_ state: String) -> Bool { false }
  var watchdogInterval: Duration? { nil }
}
