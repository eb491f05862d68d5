// The session bus reached through its Unix socket, without GLib: where it listens (from the
// environment, which is checked like any input), the EXTERNAL authentication, and calls sent
// together and their replies read back, every wait bounded by one deadline. A post nobody
// waits for (`--wait 0`) uses it; everything that waits for a click uses libnotify.

import Glibc
import NudgeCore

/// A connection to the session bus over its Unix socket: calls are queued, written together,
/// and their replies read back by serial before the deadline.
final class SessionBusSocket {
  /// Where a session bus listens that Nudge can reach without GLib.
  enum Endpoint: Equatable {
    /// A socket file (`unix:path=`).
    case path(String)
    /// A name in the abstract namespace (`unix:abstract=`).
    case abstract(String)
  }

  /// Why the bus could not be used.
  enum Failure: Error, Equatable {
    /// No connection: the socket's address and the system's reason.
    case unreachable(String)
    /// The bus refused the authentication (its answer).
    case refused(String)
    /// The deadline passed with calls unanswered.
    case timedOut
    /// The bus closed the connection or sent what is not a message.
    case broken(String)

    var message: String {
      switch self {
      case .unreachable(let m): "cannot connect to the session bus (\(m))"
      case .refused(let m): "the session bus refused the connection (\(m))"
      case .timedOut: "the notification server did not answer within 3 seconds"
      case .broken(let m): "the session bus connection failed (\(m))"
      }
    }
  }

  /// The session bus's endpoint: the first `unix:path=` or `unix:abstract=` address of
  /// `DBUS_SESSION_BUS_ADDRESS`, or `$XDG_RUNTIME_DIR/bus` when the variable is unset or
  /// empty (as GLib and sd-bus look); nil when the variable names only other transports (tcp,
  /// launchd, autolaunch), which are left to GLib, or a value no socket address can hold.
  static func endpoint(environment: [String: String]) -> Endpoint? {
    guard let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty else {
      guard let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") else {
        return nil
      }
      return fits(.path(runtime + "/bus"))
    }
    for entry in address.split(separator: ";") {
      guard entry.hasPrefix("unix:") else { continue }
      for pair in entry.dropFirst(5).split(separator: ",") {
        let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        // a value's %XX escapes undone (nil for a broken one), as a link's are
        guard parts.count == 2, let value = DeepLink.percentDecoded(String(parts[1])),
          !value.isEmpty
        else { continue }
        switch parts[0] {
        case "path": return fits(.path(value))
        case "abstract": return fits(.abstract(value))
        default: continue
        }
      }
    }
    return nil
  }

  /// The endpoint when its name fits a socket address (108 bytes with the NUL or the leading
  /// zero byte) and holds no NUL.
  private static func fits(_ endpoint: Endpoint) -> Endpoint? {
    let name =
      switch endpoint {
      case .path(let p): p
      case .abstract(let a): a
      }
    return name.utf8.count < 108 && !name.utf8.contains(0) ? endpoint : nil
  }

  /// The socket, for a caller that waits on it with others (the tray's loop).
  let fd: Int32
  /// When a wait for replies gives up; a long-lived service moves it on for each exchange.
  var deadline: ContinuousClock.Instant
  private var outgoing: [UInt8]
  private var received: [UInt8] = []
  /// Messages read while waiting for replies that were not those replies (a peer's calls to a
  /// long-lived service), handed out first by `receivedMessages` (at most `maxKept`).
  private var kept: [BusMessage] = []
  static let maxKept = 1000
  /// Bytes of a message too large to read still to pass over as they arrive.
  private var skipping = 0
  /// True once the bus's `OK` line has been read: what follows it is messages.
  private var authenticated = false
  private var lastSerial: UInt32 = 0

  /// Connects and queues the authentication (EXTERNAL, as this process's user), `BEGIN` and
  /// `Hello`, sent with the first calls without waiting for the bus's answer to each (as
  /// sd-bus does); every later wait ends at `deadline`.
  init(connectingTo endpoint: Endpoint, deadline: ContinuousClock.Instant) throws(Failure) {
    // non-blocking from the start: a Unix socket's connect then never waits (a frozen bus
    // whose queue of connections is full refuses at once, EAGAIN)
    fd = socket(
      AF_UNIX,
      Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
    guard fd >= 0 else { throw .unreachable("socket: " + String(cString: strerror(errno))) }
    self.deadline = deadline
    let uid = String(getuid())
    outgoing = Array("\0AUTH EXTERNAL ".utf8)
    for byte in uid.utf8 { outgoing += Array(String(byte, radix: 16).utf8) }
    outgoing += Array("\r\nBEGIN\r\n".utf8)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let (name, abstract, shown) =
      switch endpoint {
      case .path(let p): (Array(p.utf8), false, p)
      case .abstract(let a): (Array(a.utf8), true, "@" + a)
      }
    let length = withUnsafeMutableBytes(of: &address.sun_path) { path in
      let start = abstract ? 1 : 0  // the abstract namespace: a leading zero byte
      path.baseAddress!.advanced(by: start).copyMemory(from: name, byteCount: name.count)
      return MemoryLayout<sa_family_t>.size + start + name.count + (abstract ? 0 : 1)
    }
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(fd, $0, socklen_t(length))
      }
    }
    guard connected == 0 else {
      let reason = String(cString: strerror(errno))
      // no close here: every property is set, so deinit runs (and closes it once)
      throw .unreachable("\(shown): \(reason)")
    }
    _ = queue {
      .call(
        serial: $0, destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
        interface: "org.freedesktop.DBus", member: "Hello")
    }
  }

  deinit { close(fd) }

  /// Queues a message (made with its serial), to be written with the next wait for replies;
  /// returns its serial.
  func queue(_ message: (UInt32) -> BusMessage) -> UInt32 {
    lastSerial += 1
    outgoing += message(lastSerial).encoded()
    return lastSerial
  }

  /// Writes what is queued and reads until every one of `serials` has its reply (a method
  /// return or an error); other messages (the bus's signals) are passed over.
  func replies(to serials: [UInt32]) throws(Failure) -> [UInt32: BusMessage] {
    var answers: [UInt32: BusMessage] = [:]
    while true {
      while let message = try nextMessage() {
        if let serial = message.replySerial, serials.contains(serial),
          message.kind == .methodReturn || message.kind == .error
        {
          answers[serial] = message
        } else if kept.count < Self.maxKept {
          kept.append(message)
        }
      }
      if answers.count == serials.count && outgoing.isEmpty { return answers }
      try waitAndTransfer()
    }
  }

  /// Sends `message` (made with its serial) as soon as the socket takes it, waiting for that
  /// at most until the deadline; returns its serial. Messages that arrive meanwhile are kept.
  @discardableResult
  func send(_ message: (UInt32) -> BusMessage) throws(Failure) -> UInt32 {
    let serial = queue(message)
    while !outgoing.isEmpty { try waitAndTransfer() }
    return serial
  }

  /// Every whole message the socket holds now, reading what is there without waiting; the
  /// bus closing the connection or sending what is not a message throws.
  func receivedMessages() throws(Failure) -> [BusMessage] {
    try transferNow()
    var messages = kept
    kept = []
    while let message = try nextMessage() { messages.append(message) }
    return messages
  }

  /// Whether messages are waiting here already (read while a reply was awaited or a message
  /// written), which a poll of the socket no longer shows.
  var holdsMessages: Bool { !kept.isEmpty || !received.isEmpty }

  /// The next whole message already received, nil if there is none yet; the bus's
  /// authentication line first.
  private func nextMessage() throws(Failure) -> BusMessage? {
    if !authenticated {
      guard
        let end = received.indices.dropLast().first(where: {
          received[$0] == 13 && received[$0 + 1] == 10
        })
      else {
        guard received.count < 512 else { throw .broken("an authentication line without its end") }
        return nil
      }
      let line = String(decoding: received[..<end], as: UTF8.self)
      guard line.hasPrefix("OK ") else {
        throw .refused(String(line.prefix(200)))
      }
      received.removeFirst(end + 2)
      authenticated = true
    }
    do {
      guard let length = try BusMessage.length(ofMessageAt: received[...]),
        received.count >= length
      else { return nil }
      let message = try BusMessage.decode(received[..<length])
      received.removeFirst(length)
      return message
    } catch let error as BusWireError where error.tooLarge != nil {
      // a peer's message larger than any Nudge reads: passed over, the connection kept
      skipping = error.tooLarge!
      let dropped = min(skipping, received.count)
      received.removeFirst(dropped)
      skipping -= dropped
      return try nextMessage()
    } catch let error as BusWireError {
      throw .broken(error.description)
    } catch {
      throw .broken("\(error)")
    }
  }

  /// Waits (until the deadline) for the socket to take what is queued or to have something
  /// to read, and moves what it can both ways.
  private func waitAndTransfer() throws(Failure) {
    let left = deadline - ContinuousClock.now
    guard left > .zero else { throw .timedOut }
    let milliseconds =
      left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1
    var watched = pollfd(
      fd: fd, events: Int16(POLLIN) | (outgoing.isEmpty ? 0 : Int16(POLLOUT)), revents: 0)
    let ready = poll(&watched, 1, Int32(min(milliseconds, 10_000)))
    if ready < 0 {
      guard errno == EINTR else { throw .broken("poll: " + String(cString: strerror(errno))) }
      return
    }
    try transfer(watched.revents)
  }

  /// Moves what the socket takes and holds now, without waiting.
  private func transferNow() throws(Failure) {
    var watched = pollfd(
      fd: fd, events: Int16(POLLIN) | (outgoing.isEmpty ? 0 : Int16(POLLOUT)), revents: 0)
    guard poll(&watched, 1, 0) > 0 else { return }
    try transfer(watched.revents)
  }

  private func transfer(_ revents: Int16) throws(Failure) {
    let watched = pollfd(fd: fd, events: 0, revents: revents)
    if watched.revents & Int16(POLLOUT) != 0 && !outgoing.isEmpty {
      let written = outgoing.withUnsafeBytes {
        Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      if written > 0 {
        outgoing.removeFirst(written)
      } else if written < 0 && errno != EAGAIN && errno != EINTR {
        throw .broken("write: " + String(cString: strerror(errno)))
      }
    }
    if watched.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
      var chunk = [UInt8](repeating: 0, count: 16384)
      let read = chunk.withUnsafeMutableBytes {
        recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT))
      }
      if read > 0 {
        let passed = min(skipping, read)
        skipping -= passed
        guard received.count + read - passed <= BusMessage.largest + 512 else {
          throw .broken("more unread data than any reply holds")
        }
        received += chunk[passed..<read]
      } else if read == 0 {
        throw .broken(
          authenticated
            ? "the bus closed the connection"
            : "the bus closed the connection before authenticating")
      } else if errno != EAGAIN && errno != EINTR {
        throw .broken("read: " + String(cString: strerror(errno)))
      }
    }
  }
}
