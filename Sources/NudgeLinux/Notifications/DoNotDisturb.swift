// Do Not Disturb as each notification server tells it: the `inhibitions` capability and its
// `Inhibited` property (KDE Plasma, the Desktop Notifications 1.3 draft), dunst's `paused`
// property, GNOME's `show-banners` key. Each D-Bus call is bounded like every other.

internal import CDesktop
import Glibc

extension LibnotifyNotifier {
  /// True when the server holds notifications back now (Do Not Disturb); false when it shows
  /// them, or says nothing of it. With the server's capabilities known, one without
  /// `inhibitions` is not asked for `Inhibited`; unknown (`nil`), it is asked directly, which
  /// spares a capabilities call.
  func isHeldByDoNotDisturb(_ server: ServerInfo?) -> Bool {
    guard let bus = sessionBus() else { return false }
    defer { nd_g_object_unref(UnsafeMutableRawPointer(bus)) }
    if server?.capabilities.contains("inhibitions") ?? true,
      let inhibited = bounded({
        booleanProperty(bus, "org.freedesktop.Notifications", "Inhibited")
      })
    {
      return inhibited
    }
    // dunst answers for its own interface on the same object; any other server refuses at once
    if let paused = bounded({ booleanProperty(bus, "org.dunstproject.cmd0", "paused") }) {
      return paused
    }
    if bounded({ serverName(bus) }) == "gnome-shell" {
      return !gnomeShowsBanners()
    }
    return false
  }

  /// The session bus (a new reference), nil when there is none.
  private func sessionBus() -> OpaquePointer? {
    var error: UnsafeMutablePointer<GError>? = nil
    let bus = nd_g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error)
    nd_g_clear_error(&error)
    return bus
  }

  /// Calls `method` of `interface` on the server's object (1.2 s at most); the reply, or nil
  /// when the call failed.
  private func callServer(
    _ bus: OpaquePointer, _ interface: String, _ method: String, _ parameters: OpaquePointer?,
    replying type: String
  ) -> OpaquePointer? {
    var error: UnsafeMutablePointer<GError>? = nil
    let replyType = nd_g_variant_type_new(type)
    defer { nd_g_variant_type_free(replyType) }
    let reply = nd_g_dbus_connection_call_sync(
      bus, "org.freedesktop.Notifications", "/org/freedesktop/Notifications", interface, method,
      parameters, replyType, G_DBUS_CALL_FLAGS_NONE, 1200, nil, &error)
    nd_g_clear_error(&error)
    return reply
  }

  /// A boolean property of the server's object, nil when it has no such property.
  private func booleanProperty(_ bus: OpaquePointer, _ interface: String, _ name: String)
    -> Bool?
  {
    var arguments = [nd_g_variant_new_string(interface), nd_g_variant_new_string(name)]
    let parameters = arguments.withUnsafeMutableBufferPointer {
      nd_g_variant_new_tuple($0.baseAddress, 2)
    }
    guard
      let reply = callServer(
        bus, "org.freedesktop.DBus.Properties", "Get", parameters, replying: "(v)")
    else { return nil }
    defer { nd_g_variant_unref(reply) }
    let boxed = nd_g_variant_get_child_value(reply, 0)
    defer { nd_g_variant_unref(boxed) }
    let value = nd_g_variant_get_variant(boxed)
    defer { nd_g_variant_unref(value) }
    guard String(cString: nd_g_variant_get_type_string(value)) == "b" else { return nil }
    return nd_g_variant_get_boolean(value) != 0
  }

  /// The server's name (GetServerInformation), nil when it does not answer.
  private func serverName(_ bus: OpaquePointer) -> String? {
    guard
      let reply = callServer(
        bus, "org.freedesktop.Notifications", "GetServerInformation", nil, replying: "(ssss)")
    else { return nil }
    defer { nd_g_variant_unref(reply) }
    let first = nd_g_variant_get_child_value(reply, 0)
    defer { nd_g_variant_unref(first) }
    return String(cString: nd_g_variant_get_string(first, nil))
  }

  /// GNOME's "Notification banners" switch (`org.gnome.desktop.notifications show-banners`);
  /// true where the schema is not installed.
  private func gnomeShowsBanners() -> Bool {
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
