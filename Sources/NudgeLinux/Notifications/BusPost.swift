// A notification nobody waits for (`--wait 0`), posted straight over the session bus's socket:
// no GLib, libnotify or GIO to load, and every call sent in one write with the connection's
// set-up. It sends what libnotify sends for the same notification (the Notify call's
// arguments and hints, libnotify's `sender-pid` too), and asks Do Not Disturb the same way, in
// the same order: the questions before Notify, so their answers are in when it returns.

import Glibc
import NudgeCore

/// Posts a notification without buttons over a `SessionBusSocket` and reads whether Do Not
/// Disturb holds it.
struct BusPost {
  let endpoint: SessionBusSocket.Endpoint
  let deadline: ContinuousClock.Instant

  static let name = "org.freedesktop.Notifications"
  static let path = "/org/freedesktop/Notifications"

  /// Shows `notification` (its buttons left off) and returns whether it is on the screen or
  /// held back, or why it could not be shown. `server`: what a probe found, if one did (a
  /// server known to lack `inhibitions` is not asked for `Inhibited`, and a body link needs
  /// `body-hyperlinks` to be clickable: asked first when not known).
  func leave(
    _ notification: DesktopNotification, server: LibnotifyNotifier.ServerInfo?,
    gnomeShowsBanners: () -> Bool
  ) -> Result<Visibility, Failure> {
    do throws(SessionBusSocket.Failure) {
      let bus = try SessionBusSocket(connectingTo: endpoint, deadline: deadline)
      var capabilities = server?.capabilities
      if notification.link != nil && capabilities == nil {
        let asked = bus.queue { call($0, Self.name, "GetCapabilities") }
        let reply = try bus.replies(to: [asked])[asked]
        if case .array(_, let items)? = reply?.body.first, reply?.kind == .methodReturn {
          capabilities = items.compactMap { if case .string(let s) = $0 { s } else { nil } }
        }
      }
      let hyperlinks = capabilities?.contains("body-hyperlinks") ?? false
      let properties = "org.freedesktop.DBus.Properties"
      let inhibited =
        capabilities?.contains("inhibitions") ?? true
        ? bus.queue { call($0, properties, "Get", [.string(Self.name), .string("Inhibited")]) }
        : nil
      let paused = bus.queue {
        call($0, properties, "Get", [.string("org.dunstproject.cmd0"), .string("paused")])
      }
      let information = bus.queue { call($0, Self.name, "GetServerInformation") }
      let posted = bus.queue {
        call($0, Self.name, "Notify", Self.arguments(of: notification, hyperlinks: hyperlinks))
      }
      let replies = try bus.replies(to: [inhibited, paused, information, posted].compactMap { $0 })
      guard let answer = replies[posted], answer.kind == .methodReturn else {
        return .failure(
          Failure("the notification server refused it: " + Self.errorText(replies[posted])))
      }
      var answers = DoNotDisturbAnswers()
      answers.inhibited = inhibited.flatMap { Self.boolean(replies[$0]) }
      answers.paused = Self.boolean(replies[paused])
      if case .string(let name)? = replies[information]?.body.first,
        replies[information]?.kind == .methodReturn
      {
        answers.serverName = name
      }
      return .success(answers.visibility(gnomeShowsBanners: gnomeShowsBanners))
    } catch {
      return .failure(Failure(error.message))
    }
  }

  /// Why the notification was not shown, in a sentence.
  struct Failure: Error, Equatable {
    let message: String
    init(_ message: String) { self.message = message }
  }

  private func call(
    _ serial: UInt32, _ interface: String, _ member: String, _ body: [BusValue] = []
  )
    -> BusMessage
  {
    .call(
      serial: serial, destination: Self.name, path: Self.path, interface: interface, member: member,
      body)
  }

  /// The Notify call's arguments, as libnotify sends them for a notification without buttons:
  /// app name, no replaced id, the icon, the escaped title and body, no actions, the hints and
  /// the server's own timeout.
  static func arguments(of notification: DesktopNotification, hyperlinks: Bool) -> [BusValue] {
    [
      .string("nudge"), .uint32(0), .string(notification.icon),
      .string(VisibleText.escaped(notification.title)),
      .string(VisibleText.escapedLines(notification.body(hyperlinks: hyperlinks))),
      .strings([]),
      .stringVariants([
        ("category", .string(notification.category)),
        ("desktop-entry", .string("nudge")),
        // never above normal, so Do Not Disturb holds a reminder back as it should
        ("urgency", .byte(1)),
        ("sender-pid", .int64(Int64(getpid()))),
      ]),
      .int32(-1),
    ]
  }

  /// A `Properties.Get` reply's boolean; nil for an error or another type.
  static func boolean(_ reply: BusMessage?) -> Bool? {
    guard let reply, reply.kind == .methodReturn,
      case .variant(.boolean(let value))? = reply.body.first
    else { return nil }
    return value
  }

  /// What an error reply says: its name and its message.
  static func errorText(_ reply: BusMessage?) -> String {
    guard let reply else { return "no answer" }
    guard case .string(let message)? = reply.body.first else {
      return reply.errorName ?? "an answer that is not Notify's"
    }
    return (reply.errorName.map { $0 + ": " } ?? "") + message
  }
}
