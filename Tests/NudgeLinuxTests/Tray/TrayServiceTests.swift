import Foundation
import Glibc
import NudgeCore
import Synchronization
import Testing

@testable import NudgeLinux

/// The tray's StatusNotifierItem and dbusmenu on a real dbus-daemon, called by busctl as a
/// panel would: the properties, the layout with its labels escaped, a click handed back as a
/// choice, a forged or disabled item refused, wrong arguments answered with an error, and a
/// flood of clicks taken as one.
@Suite(.serialized) struct TrayServiceTests {
  typealias Daemon = SessionBusSocketTests.Daemon

  static let hostile = "Run_fast <b>now</b>\u{202E}\n"

  func menu() -> TrayMenu {
    var ids = TrayMenu.IDs()
    return TrayMenu(
      flows: [PanelStatus.FlowItem(title: "Prep", link: .prep, done: false)],
      habits: [
        .init(id: 1, name: Self.hostile, state: .due, isMeasurable: false),
        .init(id: 2, name: "Read", state: .due, isMeasurable: true),
        .init(id: 3, name: "Floss", state: .done, isMeasurable: false),
      ], paused: false, ids: &ids)
  }

  /// busctl ARGS against the daemon, the service answering while it runs: (status, stdout,
  /// stderr, the choices made).
  func busctl(_ service: TrayService, _ address: String, _ args: [String]) throws -> (
    Int32, String, String, [TrayService.Choice]
  ) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/busctl")
    // options first, then "--": an argument such as -1 is a value, not an option
    process.arguments =
      ["--address=\(address)", "--timeout=5"] + args.filter { $0.hasPrefix("--json") } + ["--"]
      + args.filter { !$0.hasPrefix("--json") }
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    var choices: [TrayService.Choice] = []
    while process.isRunning {
      var watched = pollfd(fd: service.descriptor, events: Int16(POLLIN), revents: 0)
      if poll(&watched, 1, 20) > 0 { choices += try service.answer() }
    }
    choices += try service.answer()
    let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    return (process.terminationStatus, stdout, stderr, choices)
  }

  /// Every string in busctl's JSON output (`--json=short`), depth first.
  func strings(_ json: String) -> [String] {
    func walk(_ value: Any) -> [String] {
      if let text = value as? String { return [text] }
      if let list = value as? [Any] { return list.flatMap(walk) }
      if let object = value as? [String: Any] { return object.values.flatMap(walk) }
      return []
    }
    return (try? JSONSerialization.jsonObject(with: Data(json.utf8))).map(walk) ?? []
  }

  @Test func aPanelReadsTheItemAndItsMenuAndAClickIsAChoice() throws {
    let daemon = try Daemon(listen: { "unix:path=\($0)/bus" })
    let address = "unix:path=\(daemon.folder)/bus"
    let service = try TrayService(
      environment: ["DBUS_SESSION_BUS_ADDRESS": address],
      look: .init(state: .due, title: "Nudge · 🔥 5 · Prep", lines: ["<i>a</i>", "○ Prep"]),
      menu: menu())
    // no watcher on this bus: the item waits quietly
    #expect(!service.registered)
    let name = service.name
    let props = try busctl(
      service, address,
      [
        "get-property", name, "/StatusNotifierItem", "org.kde.StatusNotifierItem",
        "IconName", "Status", "ItemIsMenu", "Menu", "Id",
      ])
    #expect(props.0 == 0, "\(props.2)")
    #expect(
      props.1 == "s \"nudge-due\"\ns \"Active\"\nb false\no \"/MenuBar\"\ns \"nudge\"\n",
      "\(props.1)")
    let tip = try busctl(
      service, address,
      [
        "--json=short", "get-property", name, "/StatusNotifierItem",
        "org.kde.StatusNotifierItem", "ToolTip",
      ])
    // plain lines; markup's characters shown as look-alikes no host reads as markup
    #expect(strings(tip.1).contains("‹i›a‹/i›\n○ Prep"), "\(strings(tip.1))")
    let layout = try busctl(
      service, address,
      [
        "--json=short", "call", name, "/MenuBar", "com.canonical.dbusmenu",
        "GetLayout", "iias", "0", "-1", "0",
      ])
    #expect(layout.0 == 0, "\(layout.2)")
    let labels = strings(layout.1)
    // the hostile name: escaped, its underscore doubled, no raw bidi or line break
    #expect(labels.contains("○ Run__fast <b>now</b>\\u{202E}\\u{000A}"), "\(labels)")
    #expect(!layout.1.unicodeScalars.contains { $0.value == 0x202E })
    #expect(labels.contains("○ Read…") && labels.contains("✓ Floss"), "\(labels)")
    #expect(labels.contains("Pause today") && labels.contains("Open today"))
    // a click on the hostile habit: a tick, by its name as it is
    let tick = try #require(menu().items.first { $0.action == .tick(Self.hostile) })
    let clicked = try busctl(
      service, address,
      [
        "call", name, "/MenuBar", "com.canonical.dbusmenu", "Event", "isvu",
        "\(tick.id)", "clicked", "s", "", "0",
      ])
    #expect(clicked.0 == 0, "\(clicked.2)")
    #expect(clicked.3.map(\.item.action) == [.tick(Self.hostile)])
    // a done habit's item, an unknown id, a hover: nothing chosen
    let done = try #require(menu().items.first { $0.label.hasPrefix("✓ Floss") })
    for (id, event) in [("\(done.id)", "clicked"), ("4242", "clicked"), ("\(tick.id)", "hovered")] {
      let none = try busctl(
        service, address,
        [
          "call", name, "/MenuBar", "com.canonical.dbusmenu", "Event", "isvu",
          id, event, "s", "", "0",
        ])
      #expect(none.0 == 0 && none.3.isEmpty, "\(id) \(event): \(none)")
    }
    // wrong arguments: an error, and the service goes on
    let wrong = try busctl(
      service, address, ["call", name, "/MenuBar", "com.canonical.dbusmenu", "Event", "s", "x"])
    #expect(wrong.0 != 0 && wrong.2.contains("wrong arguments"), "\(wrong)")
    let unknown = try busctl(
      service, address, ["call", name, "/MenuBar", "com.canonical.dbusmenu", "Explode"])
    #expect(unknown.0 != 0, "\(unknown)")
    // a flood of clicks in one group: one choice
    let flood = try busctl(
      service, address,
      ["call", name, "/MenuBar", "com.canonical.dbusmenu", "EventGroup", "a(isvu)", "50"]
        + (0..<50).flatMap { _ in ["\(tick.id)", "clicked", "s", "", "0"] })
    #expect(flood.0 == 0, "\(flood.2)")
    #expect(flood.3.count == 1)
    // a left click on the icon: the first thing to do (the flow)
    let activated = try busctl(
      service, address,
      [
        "call", name, "/StatusNotifierItem", "org.kde.StatusNotifierItem",
        "Activate", "ii", "0", "0",
      ])
    #expect(activated.3.map(\.item.action) == [.open(.prep)])
    // a new look and menu: the signals go out and the properties follow
    var ids = TrayMenu.IDs()
    try service.show(
      .init(state: .done, title: "Nudge · all done", lines: []),
      menu: TrayMenu(flows: [], habits: [], paused: true, ids: &ids))
    let after = try busctl(
      service, address,
      [
        "get-property", name, "/StatusNotifierItem", "org.kde.StatusNotifierItem",
        "IconName", "Status",
      ])
    #expect(after.1 == "s \"nudge-done\"\ns \"Active\"\n", "\(after.1)")
    let resumed = strings(
      try busctl(
        service, address,
        [
          "--json=short", "call", name, "/MenuBar", "com.canonical.dbusmenu",
          "GetLayout", "iias", "0", "-1", "0",
        ]
      ).1)
    #expect(resumed.contains("Resume") && !resumed.contains("○ Prep"), "\(resumed)")
  }

  @Test func callsSentTogetherAreAllAnswered() throws {
    let daemon = try Daemon(listen: { "unix:path=\($0)/bus" })
    let address = "unix:path=\(daemon.folder)/bus"
    nonisolated(unsafe) let service = try TrayService(
      environment: ["DBUS_SESSION_BUS_ADDRESS": address],
      look: .init(state: .due, title: "Nudge", lines: []), menu: menu())
    let name = service.name
    // the tray answers on a thread of its own while the panel's calls come in one write
    let done = Atomic<Bool>(false)
    let answering = Thread {
      while !done.load(ordering: .relaxed) {
        var watched = pollfd(fd: service.descriptor, events: Int16(POLLIN), revents: 0)
        if poll(&watched, 1, 20) > 0 { _ = try? service.answer() }
      }
    }
    answering.start()
    defer { done.store(true, ordering: .relaxed) }
    let panel = try SessionBusSocket(
      connectingTo: Daemon.endpoint(address), deadline: .now + .seconds(5))
    let calls = (0..<20).map { i in
      panel.queue {
        .call(
          serial: $0, destination: name, path: "/MenuBar", interface: "com.canonical.dbusmenu",
          member: i % 2 == 0 ? "AboutToShow" : "GetLayout",
          i % 2 == 0 ? [.int32(0)] : [.int32(0), .int32(-1), .strings([])])
      }
    }
    let replies = try panel.replies(to: calls)
    #expect(replies.count == 20)
    #expect(replies.values.allSatisfy { $0.kind == .methodReturn })
  }

  /// Runs `service`'s answering on a thread of its own until the value goes.
  final class Answering {
    final class Stop: Sendable { let asked = Atomic<Bool>(false) }
    let stop = Stop()
    init(_ service: TrayService) {
      nonisolated(unsafe) let service = service
      let stop = self.stop
      Thread {
        while !stop.asked.load(ordering: .relaxed) {
          var watched = pollfd(fd: service.descriptor, events: Int16(POLLIN), revents: 0)
          if service.holdsCalls || poll(&watched, 1, 20) > 0 { _ = try? service.answer() }
        }
      }.start()
    }
    deinit { stop.asked.store(true, ordering: .relaxed) }
  }

  @Test func aWatcherThatCallsTheItemBeforeItAnswersIsServed() throws {
    let daemon = try Daemon(listen: { "unix:path=\($0)/bus" })
    let address = "unix:path=\(daemon.folder)/bus"
    // a watcher as GNOME's AppIndicator extension is: it reads the item, then answers
    let watcher = try SessionBusSocket(
      connectingTo: Daemon.endpoint(address), deadline: .now + .seconds(5))
    let named = watcher.queue {
      .call(
        serial: $0, destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
        interface: "org.freedesktop.DBus", member: "RequestName",
        [.string("org.kde.StatusNotifierWatcher"), .uint32(4)])
    }
    _ = try watcher.replies(to: [named])
    // the tray starts; its registration is not waited for
    let service = try TrayService(
      environment: ["DBUS_SESSION_BUS_ADDRESS": address],
      look: .init(state: .due, title: "Nudge", lines: []), menu: menu())
    #expect(service.registered)
    let answering = Answering(service)
    var register: BusMessage? = nil
    let started = ContinuousClock.now
    while register == nil && ContinuousClock.now - started < .seconds(5) {
      register = try watcher.receivedMessages().first { $0.member == "RegisterStatusNotifierItem" }
      usleep(10_000)
    }
    let call = try #require(register)
    #expect(call.body == [.string(service.name)])
    let asked = watcher.queue {
      .call(
        serial: $0, destination: service.name, path: "/StatusNotifierItem",
        interface: "org.freedesktop.DBus.Properties", member: "Get",
        [.string("org.kde.StatusNotifierItem"), .string("IconName")])
    }
    let icon = try watcher.replies(to: [asked])[asked]
    #expect(icon?.body == [.variant(.string("nudge-due"))])
    try watcher.send {
      BusMessage(
        kind: .methodReturn, serial: $0, replySerial: call.serial, destination: call.sender)
    }
    withExtendedLifetime(answering) {}
  }

  @Test func anOversizedMessageAndAForgedSignalLeaveTheTrayServing() throws {
    let daemon = try Daemon(listen: { "unix:path=\($0)/bus" })
    let address = "unix:path=\(daemon.folder)/bus"
    let service = try TrayService(
      environment: ["DBUS_SESSION_BUS_ADDRESS": address],
      look: .init(state: .due, title: "Nudge", lines: []), menu: menu())
    #expect(!service.registered)
    let answering = Answering(service)
    let peer = try SessionBusSocket(
      connectingTo: Daemon.endpoint(address), deadline: .now + .seconds(10))
    // a call of 3 MiB (more than Nudge reads), a forged NameOwnerChanged, then a plain call
    try peer.send {
      .call(
        serial: $0, destination: service.name, path: "/MenuBar",
        interface: "com.canonical.dbusmenu", member: "AboutToShow",
        [.string(String(repeating: "x", count: 3 << 20))])
    }
    try peer.send {
      BusMessage(
        kind: .signal, serial: $0, path: "/org/freedesktop/DBus",
        interface: "org.freedesktop.DBus", member: "NameOwnerChanged",
        destination: service.name,
        body: [.string("org.kde.StatusNotifierWatcher"), .string(""), .string(":1.999")])
    }
    let asked = peer.queue {
      .call(
        serial: $0, destination: service.name, path: "/MenuBar",
        interface: "com.canonical.dbusmenu", member: "AboutToShow", [.int32(0)])
    }
    let reply = try peer.replies(to: [asked])[asked]
    #expect(reply?.kind == .methodReturn && reply?.body == [.boolean(false)])
    // the forged signal registered nothing
    #expect(!service.registered)
    withExtendedLifetime(answering) {}
  }

  @Test func aLongMenuIsBounded() {
    var ids = TrayMenu.IDs()
    let menu = TrayMenu(
      flows: [],
      habits: (1...500).map {
        .init(id: $0, name: "habit \($0)", state: .due, isMeasurable: false)
      },
      paused: false, ids: &ids)
    let ticks = menu.items.filter { item in
      guard case .tick = item.action else { return false }
      return true
    }
    #expect(ticks.count == 20)
    #expect(menu.items.contains { $0.label == "and 480 more" && !$0.enabled })
    #expect(menu.items.count == 20 + 1 + 1 + 2)
  }

  /// The window a choice opens gets the focus a click gives: the xdg-activation token a panel
  /// provided just before (Plasma on Wayland calls ProvideXdgActivationToken, then Activate),
  /// used once; on X11 a startup id stamped with the click's X server time. A token that is
  /// not one (a line break, too long) is not handed on.
  @Test func aChoiceCarriesTheFocusTokenOfItsClick() throws {
    let daemon = try Daemon(listen: { "unix:path=\($0)/bus" })
    let address = "unix:path=\(daemon.folder)/bus"
    let service = try TrayService(
      environment: ["DBUS_SESSION_BUS_ADDRESS": address],
      look: .init(state: .due, title: "Nudge", lines: []), menu: menu())
    let name = service.name
    func activate(token: String?) throws -> [TrayService.Choice] {
      if let token {
        let provided = try busctl(
          service, address,
          [
            "call", name, "/StatusNotifierItem", "org.kde.StatusNotifierItem",
            "ProvideXdgActivationToken", "s", token,
          ])
        #expect(provided.0 == 0, "\(provided.2)")
      }
      return try busctl(
        service, address,
        [
          "call", name, "/StatusNotifierItem", "org.kde.StatusNotifierItem", "Activate", "ii",
          "0", "0",
        ]
      ).3
    }
    #expect(try activate(token: "kwin-4242-token").map(\.token) == ["kwin-4242-token"])
    // used once: the next activation has none (no X server time either)
    #expect(try activate(token: nil).map(\.token) == [nil])
    #expect(try activate(token: "bad\ntoken").map(\.token) == [nil])
    #expect(try activate(token: String(repeating: "x", count: 600)).map(\.token) == [nil])
    // a menu click on X11: its X server time in a startup id
    let prep = try #require(menu().items.first { $0.action == .open(.prep) })
    let clicked = try busctl(
      service, address,
      [
        "call", name, "/MenuBar", "com.canonical.dbusmenu", "Event", "isvu", "\(prep.id)",
        "clicked", "s", "", "98765",
      ])
    #expect(clicked.3.map(\.token) == ["nudge-tray-\(getpid())_TIME98765"])
    // nothing left to do, or a day off: a left click opens today, never Pause today or Resume
    var ids = TrayMenu.IDs()
    for paused in [false, true] {
      try service.show(
        .init(state: paused ? .paused : .done, title: "Nudge", lines: []),
        menu: TrayMenu(
          flows: [PanelStatus.FlowItem(title: "Prep", link: .prep, done: true)],
          habits: [.init(id: 1, name: "Floss", state: .done, isMeasurable: false)],
          paused: paused, ids: &ids))
      #expect(try activate(token: nil).map(\.item.action) == [.open(.today)], "paused: \(paused)")
    }
  }

  /// A panel may send a click on the menu it drew before a change: an item keeps its id for
  /// what it stands for, and an id is never given to another, so the click acts on its own
  /// item or on nothing.
  @Test func anItemKeepsItsIdWhateverMovesAroundIt() {
    var ids = TrayMenu.IDs()
    let morning = TrayMenu(
      flows: [PanelStatus.FlowItem(title: "Morning Review", link: .review, done: false)],
      habits: [.init(id: 7, name: "Stretch", state: .due, isMeasurable: false)],
      paused: false, ids: &ids)
    let evening = TrayMenu(
      flows: [
        PanelStatus.FlowItem(title: "Prep Tonight", link: .prep, done: false),
        PanelStatus.FlowItem(title: "Check-in", link: .checkin, done: false),
      ],
      habits: [
        .init(id: 9, name: "Floss", state: .due, isMeasurable: false),
        .init(id: 7, name: "Stretch more", state: .due, isMeasurable: false),
      ],
      paused: false, ids: &ids)
    let review = try? #require(morning.items.first { $0.action == .open(.review) })
    let stretch = try? #require(morning.items.first { $0.action == .tick("Stretch") })
    // the morning's review is not in the evening's menu: its id finds nothing there
    #expect(review.map { evening.item($0.id) } == .some(nil))
    // the habit, renamed and moved down, keeps its id
    #expect(stretch.flatMap { evening.item($0.id) }?.action == .tick("Stretch more"))
    // no id of the evening's flows or new habit is one the morning gave out
    let given = Set(morning.items.map(\.id))
    #expect(
      evening.items.filter { [.open(.prep), .open(.checkin), .tick("Floss")].contains($0.action) }
        .allSatisfy { !given.contains($0.id) })
  }

  @Test func theIconsPixelsAreARingOrADisc() {
    let due = TrayIcon.pixels(.due, size: 22)
    let done = TrayIcon.pixels(.done, size: 22)
    #expect(due.count == 22 * 22 * 4 && done.count == due.count)
    // the centre: filled while something is to do, clear when done
    let centre = (11 * 22 + 11) * 4
    #expect(due[centre] == 0xFF && done[centre] == 0)
    #expect(Array(due[centre..<centre + 4]) == [0xFF, 0xE5, 0xC0, 0x7B])
    // the corner is clear in both
    #expect(due[0] == 0 && done[0] == 0)
  }
}
