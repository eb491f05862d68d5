// The tray icon over the session bus, without GLib: a StatusNotifierItem (KDE's protocol, which
// Plasma, XFCE, LXQt, waybar and GNOME's AppIndicator extension host) at /StatusNotifierItem,
// its menu over com.canonical.dbusmenu at /MenuBar, registered with the panel's
// org.kde.StatusNotifierWatcher, and registered again whenever a watcher appears (the panel
// restarted). Every call a peer makes is answered, a wrong one with an error; a choice in the
// menu is handed to the caller as a `TrayService.Choice`.

import Glibc
import NudgeCore

/// Nudge's icon on the panel: what it shows (`Look`), its menu, and what the person chose.
public final class TrayService {
  /// What the icon shows: its state (the icon and the status), and its tooltip.
  public struct Look: Equatable, Sendable {
    public var state: PanelStatus.State
    public var title: String
    /// The tooltip's text, a line each (the day's list).
    public var lines: [String]

    public init(state: PanelStatus.State, title: String, lines: [String]) {
      self.state = state
      self.title = title
      self.lines = lines
    }
  }

  /// A choice made in the menu: the item, as the menu had it when it was chosen, and the
  /// activation token the panel sent with it, if any.
  public struct Choice: Equatable, Sendable {
    public var item: TrayMenu.Item
    /// The focus token for the window the choice opens: the xdg-activation token the panel
    /// provided just before (`ProvideXdgActivationToken`, Wayland), else on X11 a startup id
    /// stamped with the click's X server time (the window manager lets the new window take
    /// the focus a click that late may give).
    public var token: String? = nil
  }

  /// Why the tray cannot run: no session bus, or the bus refused what it needs.
  public struct Failure: Error, Equatable, Sendable {
    public let message: String
  }

  static let itemPath = "/StatusNotifierItem"
  static let menuPath = "/MenuBar"
  static let itemInterface = "org.kde.StatusNotifierItem"
  static let menuInterface = "com.canonical.dbusmenu"
  static let watcherName = "org.kde.StatusNotifierWatcher"
  static let properties = "org.freedesktop.DBus.Properties"
  static let busName = "org.freedesktop.DBus"

  private let bus: SessionBusSocket
  /// The well-known name the item is registered under (`org.kde.StatusNotifierItem-PID-1`).
  public let name: String
  private(set) public var look: Look
  private(set) public var menu: TrayMenu
  /// dbusmenu's layout revision: moves on whenever the menu changes.
  private var revision: UInt32 = 1
  /// The xdg-activation token a panel provided for the next activation (used once).
  private var providedToken: String? = nil
  /// The session is Wayland's: a click's X server time makes no token there.
  private let isWayland: Bool
  /// Whether a panel's watcher was on the bus when last looked (the item is registered with
  /// it, or its answer is on the way).
  private(set) public var registered = false
  /// The serial of the registration whose answer is awaited (a watcher may call the item
  /// before it answers, as GNOME's AppIndicator extension does: nothing waits for it).
  private var registration: UInt32? = nil

  /// Whether calls are waiting here already, read while a message was written: the socket's
  /// poll no longer shows them, so the caller answers them before it waits.
  public var holdsCalls: Bool { bus.holdsMessages }

  /// The socket to wait on: readable when a peer calls or the bus signals.
  public var descriptor: Int32 { bus.fd }

  /// Connects to the session bus of `environment`, takes the item's name, asks to hear when a
  /// watcher comes or goes, and registers with the watcher if one is there.
  public init(environment: [String: String], look: Look, menu: TrayMenu) throws(Failure) {
    guard let endpoint = SessionBusSocket.endpoint(environment: environment) else {
      throw Failure(message: "no session bus: DBUS_SESSION_BUS_ADDRESS names none Nudge reaches")
    }
    self.look = look
    self.menu = menu
    isWayland = environment["WAYLAND_DISPLAY"]?.isEmpty == false
    name = "org.kde.StatusNotifierItem-\(getpid())-1"
    do throws(SessionBusSocket.Failure) {
      bus = try SessionBusSocket(
        connectingTo: endpoint, deadline: ContinuousClock.now.advanced(by: .seconds(5)))
      let watcherThere = bus.queue {
        .call(
          serial: $0, destination: Self.busName, path: "/org/freedesktop/DBus",
          interface: Self.busName, member: "NameHasOwner", [.string(Self.watcherName)])
      }
      let requested = bus.queue {
        .call(
          serial: $0, destination: Self.busName, path: "/org/freedesktop/DBus",
          interface: Self.busName, member: "RequestName", [.string(name), .uint32(4)])
      }
      let matched = bus.queue {
        .call(
          serial: $0, destination: Self.busName, path: "/org/freedesktop/DBus",
          interface: Self.busName, member: "AddMatch",
          [
            .string(
              "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(Self.watcherName)'"
            )
          ])
      }
      let replies = try bus.replies(to: [watcherThere, requested, matched])
      // 1: the primary owner (another owner's name would not be this process's)
      guard replies[requested]?.kind == .methodReturn,
        replies[requested]?.body.first == .uint32(1)
      else {
        throw SessionBusSocket.Failure.refused("the name \(name)")
      }
      if replies[watcherThere]?.body.first == .boolean(true) { try register() }
    } catch {
      throw Failure(message: error.message)
    }
  }

  /// Whether a panel with a tray is on the session bus of `environment` (the watcher has an
  /// owner); nil when there is no bus to ask.
  public static func trayPresent(environment: [String: String]) -> Bool? {
    guard let endpoint = SessionBusSocket.endpoint(environment: environment),
      let bus = try? SessionBusSocket(
        connectingTo: endpoint, deadline: ContinuousClock.now.advanced(by: .seconds(2)))
    else { return nil }
    let asked = bus.queue {
      .call(
        serial: $0, destination: busName, path: "/org/freedesktop/DBus", interface: busName,
        member: "NameHasOwner", [.string(watcherName)])
    }
    guard case .boolean(let owned)? = (try? bus.replies(to: [asked]))?[asked]?.body.first
    else { return nil }
    return owned
  }

  /// Asks the panel's watcher to take the item, without waiting for its answer (`answer`
  /// reads it).
  private func register() throws(SessionBusSocket.Failure) {
    bus.deadline = ContinuousClock.now.advanced(by: .seconds(5))
    registered = true
    registration = try bus.send {
      .call(
        serial: $0, destination: Self.watcherName, path: "/StatusNotifierWatcher",
        interface: Self.watcherName, member: "RegisterStatusNotifierItem", [.string(name)])
    }
  }

  /// Shows `look` and `menu`, telling the panel what changed.
  public func show(_ look: Look, menu: TrayMenu) throws(Failure) {
    var signals: [(String, String, [BusValue])] = []
    if look.state != self.look.state {
      signals.append((Self.itemPath, "NewIcon", []))
      signals.append((Self.itemPath, "NewStatus", [.string(Self.status(look.state))]))
    }
    if look != self.look { signals.append((Self.itemPath, "NewToolTip", [])) }
    if menu != self.menu {
      revision &+= 1
      signals.append((Self.menuPath, "LayoutUpdated", [.uint32(revision), .int32(0)]))
    }
    self.look = look
    self.menu = menu
    do throws(SessionBusSocket.Failure) {
      bus.deadline = ContinuousClock.now.advanced(by: .seconds(5))
      for (path, member, body) in signals {
        try bus.send {
          BusMessage(
            kind: .signal, serial: $0, path: path,
            interface: path == Self.itemPath ? Self.itemInterface : Self.menuInterface,
            member: member, body: body)
        }
      }
    } catch {
      throw Failure(message: error.message)
    }
  }

  /// Answers every call that has arrived and returns the choices made in the menu. A watcher
  /// that appears gets the item registered again.
  public func answer() throws(Failure) -> [Choice] {
    var choices: [Choice] = []
    do throws(SessionBusSocket.Failure) {
      bus.deadline = ContinuousClock.now.advanced(by: .seconds(5))
      // until none is left: sending a reply reads what came meanwhile into the buffer, where
      // the socket's poll no longer sees it (a menu's AboutToShow, then its GetLayout)
      var answered = 0
      var registeredAgain = false
      while answered < 1000 {
        let messages = try bus.receivedMessages()
        if messages.isEmpty { break }
        answered += messages.count
        for message in messages {
          switch message.kind {
          case .methodReturn, .error:
            if let serial = registration, message.replySerial == serial {
              registration = nil
              registered = message.kind == .methodReturn
            }
          case .signal:
            // the bus's own signal only (a peer may send a signal of that name to the item),
            // and one registration a batch
            if message.sender == Self.busName, message.path == "/org/freedesktop/DBus",
              message.member == "NameOwnerChanged",
              case .string(let owned)? = message.body.first, owned == Self.watcherName,
              message.body.count == 3, case .string(let owner) = message.body[2]
            {
              if owner.isEmpty {
                registered = false
              } else if !registeredAgain {
                // a panel started again: it knows nothing of the item until told
                registeredAgain = true
                try register()
              }
            }
          case .methodCall:
            let (reply, choice) = respond(to: message)
            if let choice { choices.append(choice) }
            // a call that asked for no reply (flag 0x1) is answered anyway: harmless
            if let reply { try bus.send { reply($0) } }
          default: break
          }
        }
      }
    } catch {
      throw Failure(message: error.message)
    }
    return choices
  }

  /// The reply to a call (made with its serial), and the choice it made, if any.
  func respond(to call: BusMessage) -> (((UInt32) -> BusMessage)?, Choice?) {
    func reply(_ body: [BusValue]) -> (UInt32) -> BusMessage {
      { serial in
        BusMessage(
          kind: .methodReturn, serial: serial, replySerial: call.serial, destination: call.sender,
          body: body)
      }
    }
    func error(_ name: String, _ text: String) -> (UInt32) -> BusMessage {
      { serial in
        BusMessage(
          kind: .error, serial: serial, errorName: name, replySerial: call.serial,
          destination: call.sender, body: [.string(text)])
      }
    }
    let invalid = error("org.freedesktop.DBus.Error.InvalidArgs", "wrong arguments")
    let args = call.body
    switch (call.path, call.interface, call.member) {
    case (_, "org.freedesktop.DBus.Introspectable", "Introspect"):
      return (reply([.string(Self.introspection(call.path ?? "/"))]), nil)
    case (_, "org.freedesktop.DBus.Peer", "Ping"):
      return (reply([]), nil)
    case (Self.itemPath, Self.properties, "Get"), (Self.menuPath, Self.properties, "Get"):
      guard args.count == 2, case .string(let name) = args[1],
        let value = property(call.path!, name)
      else { return (error("org.freedesktop.DBus.Error.UnknownProperty", "no such property"), nil) }
      return (reply([.variant(value)]), nil)
    case (Self.itemPath, Self.properties, "GetAll"), (Self.menuPath, Self.properties, "GetAll"):
      let names =
        call.path == Self.itemPath
        ? [
          "Category", "Id", "Title", "Status", "WindowId", "IconName", "AttentionIconName",
          "IconPixmap",
          "ToolTip", "ItemIsMenu", "Menu", "IconThemePath",
        ] : ["Version", "TextDirection", "Status", "IconThemePath"]
      return (
        reply([
          .stringVariants(names.compactMap { n in property(call.path!, n).map { (n, $0) } })
        ]), nil
      )
    case (Self.itemPath, Self.itemInterface, "Activate"),
      (Self.itemPath, Self.itemInterface, "SecondaryActivate"):
      // a left click on an icon that is not only a menu: the next thing to do, else the
      // today view; never Pause or Resume (a casual click must not change the day)
      let first = menu.items.first { item in
        guard item.enabled, let action = item.action else { return false }
        return action != .pauseToday && action != .resume
      }
      let token = token(clickedAt: 0)  // (taken whatever is chosen: it is good once)
      return (reply([]), first.map { Choice(item: $0, token: token) })
    case (Self.itemPath, Self.itemInterface, "ProvideXdgActivationToken"):
      guard args.count == 1, case .string(let token) = args[0] else { return (invalid, nil) }
      // a peer's text, handed on in the environment: a token's characters (KWin's and
      // mutter's are letters, digits and these), a token's size
      let isToken =
        (1...512).contains(token.utf8.count)
        && token.utf8.allSatisfy { byte in
          (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || "._:-".utf8.contains(byte)
        }
      providedToken = isToken ? token : nil
      return (reply([]), nil)
    case (Self.itemPath, Self.itemInterface, "ContextMenu"),
      (Self.itemPath, Self.itemInterface, "Scroll"):
      return (reply([]), nil)
    case (Self.menuPath, Self.menuInterface, "GetLayout"):
      guard args.count == 3, case .int32(let parent) = args[0] else { return (invalid, nil) }
      guard parent == 0 || menu.item(parent) != nil else {
        return (error("org.freedesktop.DBus.Error.InvalidArgs", "no such item"), nil)
      }
      return (reply([.uint32(revision), layout(parent)]), nil)
    case (Self.menuPath, Self.menuInterface, "GetGroupProperties"):
      guard args.count == 2, case .array(_, let ids) = args[0] else { return (invalid, nil) }
      let wanted = ids.prefix(1000).compactMap { if case .int32(let id) = $0 { id } else { nil } }
      let found = (wanted.isEmpty ? [0] + menu.items.map(\.id) : wanted).compactMap { id in
        itemProperties(id).map { BusValue.structure([.int32(id), $0]) }
      }
      return (reply([.array(element: "(ia{sv})", found)]), nil)
    case (Self.menuPath, Self.menuInterface, "GetProperty"):
      guard args.count == 2, case .int32(let id) = args[0], case .string(let name) = args[1],
        case .array(_, let entries)? = itemProperties(id),
        let value = entries.first(where: {
          if case .dictEntry(.string(let key), _) = $0 { key == name } else { false }
        }), case .dictEntry(_, let inner) = value
      else { return (invalid, nil) }
      return (reply([inner]), nil)
    case (Self.menuPath, Self.menuInterface, "Event"):
      guard args.count == 4, case .int32(let id) = args[0], case .string(let event) = args[1],
        case .uint32(let time) = args[3]
      else { return (invalid, nil) }
      return (reply([]), chosen(id, event, at: time))
    case (Self.menuPath, Self.menuInterface, "EventGroup"):
      guard args.count == 1, case .array(_, let events) = args[0] else { return (invalid, nil) }
      // one choice a group at most: a flood of clicks is one click
      var choice: Choice? = nil
      var unknown: [BusValue] = []
      for case .structure(let event) in events.prefix(100) {
        guard event.count == 4, case .int32(let id) = event[0], case .string(let kind) = event[1],
          case .uint32(let time) = event[3]
        else { continue }
        if menu.item(id) == nil { unknown.append(.int32(id)) }
        choice = choice ?? chosen(id, kind, at: time)
      }
      return (reply([.array(element: "i", unknown)]), choice)
    case (Self.menuPath, Self.menuInterface, "AboutToShow"):
      return (reply([.boolean(false)]), nil)
    case (Self.menuPath, Self.menuInterface, "AboutToShowGroup"):
      return (reply([.array(element: "i", []), .array(element: "i", [])]), nil)
    default:
      return (
        error("org.freedesktop.DBus.Error.UnknownMethod", "Nudge's tray has no such method"), nil
      )
    }
  }

  /// A click on an item that does something, as the menu is now, at the X server time `time`.
  private func chosen(_ id: Int32, _ event: String, at time: UInt32) -> Choice? {
    guard event == "clicked", let item = menu.item(id), item.enabled, item.action != nil else {
      return nil
    }
    return Choice(item: item, token: token(clickedAt: time))
  }

  /// The focus token for a click at the X server time `time` (0: not known): the token a
  /// panel provided (taken: it is good once), else on X11 a startup id carrying the time.
  private func token(clickedAt time: UInt32) -> String? {
    defer { providedToken = nil }
    if let providedToken { return providedToken }
    return isWayland || time == 0 ? nil : "nudge-tray-\(getpid())_TIME\(time)"
  }

  /// The layout of `parent` (0: the root) and its children, as GetLayout returns it.
  private func layout(_ parent: Int32) -> BusValue {
    let children =
      parent == 0
      ? menu.items.map { item in
        BusValue.variant(
          .structure([.int32(item.id), itemProperties(item.id)!, .array(element: "v", [])]))
      } : []
    return .structure([.int32(parent), itemProperties(parent)!, .array(element: "v", children)])
  }
}
