import Foundation
import NudgeCore
import NudgeDesktop
import Synchronization
import Testing

@testable import NudgeCLI

/// A notification server that answers each post as its script says, in order, and records what
/// it was shown: the double for the layers above the notifier (the real server is the e2e
/// suites' job). A post it shows calls `onShown`, as libnotify does once the server has it.
final class ScriptedNotifier: Notifier {
  /// One answer to a post.
  enum Step: Sendable {
    /// Shown, then ends this way (`.undelivered`: the server went away while it was up).
    case answer(NotificationOutcome)
    /// Never shown: the server refused it.
    case refuse(String)
    /// Runs `before` (another process finishing the flow, say), then withdraws the notification
    /// if the wait's `isDoneElsewhere` says so, else lets it expire.
    case checkDoneElsewhere(before: @Sendable () -> Void)
    /// The server stops answering in the middle of the call: the hang handler runs.
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

  init(_ script: [Step], unavailable: String? = nil) {
    self.script = Mutex(script)
    self.unavailable = unavailable
  }

  convenience init(_ outcomes: NotificationOutcome...) {
    self.init(outcomes.map { .answer($0) })
  }

  var posts: [Post] { posted.withLock { $0 } }
  var titles: [String] { posts.map(\.notification.title) }

  func post(_ notification: DesktopNotification, wait: NotificationWait) -> NotificationOutcome {
    posted.withLock { $0.append(Post(notification: notification, seconds: wait.seconds)) }
    let step = script.withLock { $0.isEmpty ? nil : $0.removeFirst() }
    guard let step else {
      Issue.record("a post the script has no answer for: \(notification.title)")
      return .undelivered("no answer scripted")
    }
    switch step {
    case .answer(let outcome):
      wait.onShown()
      return outcome
    case .refuse(let reason):
      return .undelivered(reason)
    case .checkDoneElsewhere(let before):
      wait.onShown()
      before()
      return wait.isDoneElsewhere() ? .withdrawn(.doneElsewhere) : .withdrawn(.expired)
    case .hang:
      let handler = hangHandler.withLock { $0 }
      guard let handler else {
        Issue.record("the server hung and nobody had said what to do")
        return .undelivered("hung")
      }
      handler()
      return .undelivered("the handler returned")
    }
  }

  func unavailableReason(waitingForServer seconds: Double) -> String? { unavailable }

  func inspect() -> NotificationSession { .server(name: "scripted", capabilities: ["actions"]) }

  func whenServerHangs(_ handler: @escaping @Sendable () -> Void) {
    hangHandler.withLock { $0 = handler }
  }
}

/// A terminal launcher that records the links it was asked to open.
final class RecordingLauncher: LinkLauncher {
  private let opened = Mutex<[String]>([])
  var links: [String] { opened.withLock { $0 } }

  func open(_ url: String, in ctx: Context) throws { opened.withLock { $0.append(url) } }
}

/// A clock that stands still until `pause` moves it: a snooze's wait takes no time.
final class TestClock: Sendable {
  private let now: Mutex<Instant>

  init(_ start: Instant) { now = Mutex(start) }

  var current: Instant { now.withLock { $0 } }

  func advance(_ seconds: Double) { now.withLock { $0 = $0.adding(seconds: seconds) } }
}
