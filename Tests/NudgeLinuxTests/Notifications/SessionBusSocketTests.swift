import Foundation
import Glibc
import Testing

@testable import NudgeLinux

/// The socket client against a real dbus-daemon (the system's, with Debian's session
/// configuration, listening where each test says), and against a socket nobody answers on.
@Suite(.serialized) struct SessionBusSocketTests {
  /// A dbus-daemon of its own, listening at `listen`, with `auth` its only mechanism; it forks
  /// into the background once it listens and is stopped (SIGTERM) when the value goes.
  final class Daemon {
    let folder: String
    private var pid: pid_t = 0

    init(listen: (String) -> String, auth: String = "EXTERNAL") throws {
      var template = Array("/tmp/nudge-bus-XXXXXX".utf8CString)
      folder = String(cString: mkdtemp(&template))
      let config = try String(contentsOfFile: "/usr/share/dbus-1/session.conf", encoding: .utf8)
        .replacingOccurrences(
          of: #"<listen>[^<]*</listen>"#, with: "<listen>\(listen(folder))</listen>",
          options: .regularExpression
        )
        .replacingOccurrences(of: "<auth>EXTERNAL</auth>", with: "<auth>\(auth)</auth>")
      try config.write(toFile: folder + "/bus.conf", atomically: true, encoding: .utf8)
      pid = try Spawn.start(
        ["/usr/bin/dbus-daemon", "--config-file=\(folder)/bus.conf", "--nofork"],
        environment: ["PATH": "/usr/bin:/bin"], .detached)
      // listening once a connection is taken (2 s at most)
      let endpoint = Self.endpoint(listen(folder))
      let started = ContinuousClock.now
      while (try? SessionBusSocket(connectingTo: endpoint, deadline: .now)) == nil
        && ContinuousClock.now - started < .seconds(2)
      {
        usleep(5000)
      }
    }

    static func endpoint(_ listen: String) -> SessionBusSocket.Endpoint {
      SessionBusSocket.endpoint(environment: ["DBUS_SESSION_BUS_ADDRESS": listen])!
    }

    deinit {
      kill(pid, SIGTERM)
      var status: Int32 = 0
      waitpid(pid, &status, 0)
      try? FileManager.default.removeItem(atPath: folder)
    }
  }

  func soon(_ seconds: Double = 2) -> ContinuousClock.Instant {
    .now + .milliseconds(Int(seconds * 1000))
  }

  /// A real round trip: the bus answers a call after the pipelined authentication and Hello.
  func expectAnswers(_ endpoint: SessionBusSocket.Endpoint) throws {
    let bus = try SessionBusSocket(connectingTo: endpoint, deadline: soon())
    let owner = bus.queue {
      .call(
        serial: $0, destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
        interface: "org.freedesktop.DBus", member: "GetNameOwner",
        [.string("org.freedesktop.DBus")])
    }
    let nobody = bus.queue {
      .call(
        serial: $0, destination: "org.nudge.Nobody", path: "/", interface: "org.nudge.Nobody",
        member: "Ping")
    }
    let replies = try bus.replies(to: [owner, nobody])
    #expect(replies[owner]?.kind == .methodReturn)
    #expect(replies[owner]?.body == [.string("org.freedesktop.DBus")])
    #expect(replies[nobody]?.kind == .error)
    #expect(replies[nobody]?.errorName == "org.freedesktop.DBus.Error.ServiceUnknown")
  }

  @Test func aBusOnASocketFileAnswers() throws {
    let daemon = try Daemon(listen: { "unix:path=\($0)/bus" })
    try expectAnswers(.path(daemon.folder + "/bus"))
  }

  @Test func aBusInTheAbstractNamespaceAnswers() throws {
    let name = "/tmp/nudge-test-\(getpid())-abstract"
    let daemon = try Daemon(listen: { _ in "unix:abstract=\(name)" })
    try expectAnswers(.abstract(name))
    _ = daemon
  }

  @Test func aBusThatRefusesTheAuthenticationSaysSo() throws {
    let daemon = try Daemon(listen: { "unix:path=\($0)/bus" }, auth: "ANONYMOUS")
    let bus = try SessionBusSocket(connectingTo: .path(daemon.folder + "/bus"), deadline: soon())
    let serial = bus.queue {
      .call(serial: $0, destination: "a.b", path: "/", interface: "a.b", member: "C")
    }
    #expect {
      _ = try bus.replies(to: [serial])
    } throws: { error in
      guard case SessionBusSocket.Failure.refused(let answer) = error else { return false }
      return answer.hasPrefix("REJECTED")
    }
  }

  @Test func noBusThereIsUnreachableNamingTheSocket() {
    #expect(
      throws: SessionBusSocket.Failure.unreachable("/nonexistent/bus: No such file or directory")
    ) {
      _ = try SessionBusSocket(connectingTo: .path("/nonexistent/bus"), deadline: soon())
    }
  }

  /// A socket at `path` that takes connections (up to `backlog` waiting) and never answers:
  /// a frozen bus. Closed when `body` returns.
  func silentBus<T>(backlog: Int32, _ body: (String) throws -> T) throws -> T {
    var template = Array("/tmp/nudge-silent-XXXXXX".utf8CString)
    let folder = String(cString: mkdtemp(&template))
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(listener) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let path = folder + "/bus"
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path.utf8) }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    #expect(bound == 0)
    #expect(listen(listener, backlog) == 0)
    return try body(path)
  }

  /// A frozen bus whose queue of connections is full: the connection is refused at once, not
  /// waited for.
  @Test func aFrozenBusWithAFullQueueIsUnreachableAtOnce() throws {
    try silentBus(backlog: 0) { path in
      let started = ContinuousClock.now
      var held: [SessionBusSocket] = []
      var refusal: SessionBusSocket.Failure? = nil
      while refusal == nil && held.count < 16 {
        do {
          held.append(try SessionBusSocket(connectingTo: .path(path), deadline: soon()))
        } catch {
          refusal = error as? SessionBusSocket.Failure ?? .broken("\(error)")
        }
      }
      guard case .unreachable(let reason)? = refusal else {
        Issue.record("\(held.count) connections taken, none refused")
        return
      }
      #expect(reason.hasPrefix(path + ": "), "\(reason)")
      #expect(ContinuousClock.now - started < .seconds(1))
    }
  }

  /// A socket that takes the connection and never answers (a frozen bus): the wait ends at the
  /// deadline, not later.
  @Test func aBusThatNeverAnswersEndsAtTheDeadline() throws {
    try silentBus(backlog: 4) { path in try endsAtTheDeadline(path) }
  }

  func endsAtTheDeadline(_ path: String) throws {
    let started = ContinuousClock.now
    let bus = try SessionBusSocket(connectingTo: .path(path), deadline: soon(0.3))
    let serial = bus.queue {
      .call(serial: $0, destination: "a.b", path: "/", interface: "a.b", member: "C")
    }
    #expect(throws: SessionBusSocket.Failure.timedOut) { _ = try bus.replies(to: [serial]) }
    let waited = ContinuousClock.now - started
    #expect(waited >= .milliseconds(300) && waited < .seconds(2), "\(waited)")
  }
}
