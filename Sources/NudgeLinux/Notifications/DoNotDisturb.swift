// Do Not Disturb as each notification server tells it: the `inhibitions` capability and its
// `Inhibited` property (KDE Plasma, the Desktop Notifications 1.3 draft), dunst's `paused`
// property, GNOME's `show-banners` key; what the answers mean is `DoNotDisturbAnswers`'s. Asked
// with a post (`DoNotDisturbAsk`), or on its own while a held reminder waits. Each D-Bus call is
// bounded like every other.

internal import CDesktop
import Glibc
import NudgeCore

/// Do Not Disturb asked with a post: the questions go out on the shared session bus connection
/// (libnotify's too) before the Notify call, and a server answers one connection's calls in the
/// order they came, so their answers are in when Notify returns, and none waits for the server
/// to draw the notification (dunst answers a call that came after Notify only once it has drawn
/// it). They tell the state the Notify call found.
final class DoNotDisturbAsk {
  private var answers = DoNotDisturbAnswers()
  private var pending = 0
  private let bus: OpaquePointer

  private init(bus: OpaquePointer) { self.bus = bus }
  deinit { nd_g_object_unref(UnsafeMutableRawPointer(bus)) }

  /// Sends the questions: `Inhibited` (not to a server known to lack `inhibitions`), dunst's
  /// `paused` and the server's name; nil without a session bus.
  static func send(_ server: LibnotifyNotifier.ServerInfo?) -> DoNotDisturbAsk? {
    var error: UnsafeMutablePointer<GError>? = nil
    guard let bus = nd_g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
      nd_g_clear_error(&error)
      return nil
    }
    let ask = DoNotDisturbAsk(bus: bus)
    if server?.capabilities.contains("inhibitions") ?? true {
      ask.call(
        "org.freedesktop.DBus.Properties", "Get",
        DoNotDisturb.propertyName("org.freedesktop.Notifications", "Inhibited"), replying: "(v)"
      ) { $0.inhibited = DoNotDisturb.boolean(ofProperty: $1) }
    }
    ask.call(
      "org.freedesktop.DBus.Properties", "Get",
      DoNotDisturb.propertyName("org.dunstproject.cmd0", "paused"), replying: "(v)"
    ) { $0.paused = DoNotDisturb.boolean(ofProperty: $1) }
    ask.call("org.freedesktop.Notifications", "GetServerInformation", nil, replying: "(ssss)") {
      $0.serverName = DoNotDisturb.name(ofServerInformation: $1)
    }
    return ask
  }

  /// Held or shown, once every answer is in (they came before Notify's; a call that gets none
  /// fails after 1.2 s).
  func visibility() -> Visibility {
    while pending > 0 { _ = nd_g_main_context_iteration(nil, 1) }
    return answers.visibility(gnomeShowsBanners: DoNotDisturb.gnomeShowsBanners)
  }

  /// One question and what its reply (nil: an error) records.
  private final class Question {
    let ask: DoNotDisturbAsk
    let record: (inout DoNotDisturbAnswers, OpaquePointer) -> Void
    init(
      _ ask: DoNotDisturbAsk, _ record: @escaping (inout DoNotDisturbAnswers, OpaquePointer) -> Void
    ) {
      self.ask = ask
      self.record = record
    }
  }

  private func call(
    _ interface: String, _ method: String, _ parameters: OpaquePointer?, replying type: String,
    record: @escaping (inout DoNotDisturbAnswers, OpaquePointer) -> Void
  ) {
    let replyType = nd_g_variant_type_new(type)
    defer { nd_g_variant_type_free(replyType) }
    pending += 1
    let question = Unmanaged.passRetained(Question(self, record)).toOpaque()
    nd_g_dbus_connection_call(
      bus, "org.freedesktop.Notifications", "/org/freedesktop/Notifications", interface, method,
      parameters, replyType, G_DBUS_CALL_FLAGS_NONE, 1200, nil,
      { source, result, data in
        guard let data else { return }
        let question = Unmanaged<Question>.fromOpaque(data).takeRetainedValue()
        var error: UnsafeMutablePointer<GError>? = nil
        let reply = nd_g_dbus_connection_call_finish(OpaquePointer(source), result, &error)
        nd_g_clear_error(&error)
        if let reply {
          question.record(&question.ask.answers, reply)
          nd_g_variant_unref(reply)
        }
        question.ask.pending -= 1
      }, question)
  }
}

extension LibnotifyNotifier {
  /// True when the server holds notifications back now (Do Not Disturb); false when it shows
  /// them, or says nothing of it. With the server's capabilities known, one without
  /// `inhibitions` is not asked for `Inhibited`; unknown (`nil`), it is asked directly, which
  /// spares a capabilities call. One call after another, each only when the last said nothing.
  func isHeldByDoNotDisturb(_ server: ServerInfo?) -> Bool {
    var error: UnsafeMutablePointer<GError>? = nil
    guard let bus = nd_g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
      nd_g_clear_error(&error)
      return false
    }
    defer { nd_g_object_unref(UnsafeMutableRawPointer(bus)) }
    var answers = DoNotDisturbAnswers()
    if server?.capabilities.contains("inhibitions") ?? true {
      answers.inhibited = bounded {
        DoNotDisturb.call(
          bus, "org.freedesktop.DBus.Properties", "Get",
          DoNotDisturb.propertyName("org.freedesktop.Notifications", "Inhibited"),
          replying: "(v)", DoNotDisturb.boolean(ofProperty:))
      }
    }
    if answers.inhibited == nil {
      // dunst answers for its own interface on the same object; any other server refuses at once
      answers.paused = bounded {
        DoNotDisturb.call(
          bus, "org.freedesktop.DBus.Properties", "Get",
          DoNotDisturb.propertyName("org.dunstproject.cmd0", "paused"), replying: "(v)",
          DoNotDisturb.boolean(ofProperty:))
      }
    }
    if answers.inhibited == nil && answers.paused == nil {
      answers.serverName = bounded {
        DoNotDisturb.call(
          bus, "org.freedesktop.Notifications", "GetServerInformation", nil, replying: "(ssss)",
          DoNotDisturb.name(ofServerInformation:))
      }
    }
    return answers.visibility(gnomeShowsBanners: DoNotDisturb.gnomeShowsBanners) == .held
  }
}

/// The calls and replies both ways of asking share.
enum DoNotDisturb {
  /// Calls `method` of `interface` on the server's object (1.2 s at most) and reads the reply;
  /// nil when the call failed or the reply says nothing.
  static func call<T>(
    _ bus: OpaquePointer, _ interface: String, _ method: String, _ parameters: OpaquePointer?,
    replying type: String, _ read: (OpaquePointer) -> T?
  ) -> T? {
    var error: UnsafeMutablePointer<GError>? = nil
    let replyType = nd_g_variant_type_new(type)
    defer { nd_g_variant_type_free(replyType) }
    let reply = nd_g_dbus_connection_call_sync(
      bus, "org.freedesktop.Notifications", "/org/freedesktop/Notifications", interface, method,
      parameters, replyType, G_DBUS_CALL_FLAGS_NONE, 1200, nil, &error)
    nd_g_clear_error(&error)
    guard let reply else { return nil }
    defer { nd_g_variant_unref(reply) }
    return read(reply)
  }

  /// The parameters of `org.freedesktop.DBus.Properties.Get` for a property (a floating
  /// reference, which the call takes).
  static func propertyName(_ interface: String, _ name: String) -> OpaquePointer? {
    var arguments = [nd_g_variant_new_string(interface), nd_g_variant_new_string(name)]
    return arguments.withUnsafeMutableBufferPointer { nd_g_variant_new_tuple($0.baseAddress, 2) }
  }

  /// A `Get` reply's boolean, nil when the property is not a boolean.
  static func boolean(ofProperty reply: OpaquePointer) -> Bool? {
    let boxed = nd_g_variant_get_child_value(reply, 0)
    defer { nd_g_variant_unref(boxed) }
    let value = nd_g_variant_get_variant(boxed)
    defer { nd_g_variant_unref(value) }
    guard String(cString: nd_g_variant_get_type_string(value)) == "b" else { return nil }
    return nd_g_variant_get_boolean(value) != 0
  }

  /// The server's name from a `GetServerInformation` reply.
  static func name(ofServerInformation reply: OpaquePointer) -> String? {
    let first = nd_g_variant_get_child_value(reply, 0)
    defer { nd_g_variant_unref(first) }
    return String(cString: nd_g_variant_get_string(first, nil))
  }

  /// GNOME's "Notification banners" switch (`org.gnome.desktop.notifications show-banners`);
  /// true where the schema is not installed.
  static func gnomeShowsBanners() -> Bool {
    let schemaID = "org.gnome.desktop.notifications"
    guard let source = nd_g_settings_schema_source_get_default(),
      let schema = nd_g_settings_schema_source_lookup(source, schemaID, 1)
    else { return true }
    defer { nd_g_settings_schema_unref(schema) }
    guard nd_g_settings_schema_has_key(schema, "show-banners") != 0,
      let settings = nd_g_settings_new(schemaID)
    else { return true }
    defer { nd_g_object_unref(UnsafeMutableRawPointer(settings)) }
    return nd_g_settings_get_boolean(settings, "show-banners") != 0
  }
}
