import NudgeCore

/// What the item and its menu say of themselves: their properties, their items', their
/// status, and the interfaces a host that introspects reads.
extension TrayService {
  /// An item's dbusmenu properties; nil for an id the menu does not have.
  func itemProperties(_ id: Int32) -> BusValue? {
    if id == 0 { return .stringVariants([("children-display", .string("submenu"))]) }
    guard let item = menu.item(id) else { return nil }
    if item.isSeparator { return .stringVariants([("type", .string("separator"))]) }
    return .stringVariants([
      ("label", .string(item.label)), ("enabled", .boolean(item.enabled)),
      ("visible", .boolean(true)),
    ])
  }

  /// A property of the item or of its menu.
  func property(_ path: String, _ name: String) -> BusValue? {
    if path == Self.menuPath {
      switch name {
      case "Version": return .uint32(3)
      case "TextDirection": return .string("ltr")
      case "Status": return .string("normal")
      case "IconThemePath": return .strings([])
      default: return nil
      }
    }
    switch name {
    case "Category": return .string("ApplicationStatus")
    case "Id": return .string("nudge")
    case "Title": return .string("Nudge")
    case "Status": return .string(Self.status(look.state))
    case "WindowId": return .int32(0)
    case "IconName": return .string(TrayIcon.name(look.state))
    // what a host shows while the status is NeedsAttention (an overdue flow): the due icon
    case "AttentionIconName": return .string(TrayIcon.name(look.state))
    case "IconPixmap": return TrayIcon.pixmaps(look.state)
    case "IconThemePath": return .string("")
    // not only a menu: a left click (Activate) does the first thing left to do, a right click
    // shows the menu (waybar opens the menu on a left click too when this is true)
    case "ItemIsMenu": return .boolean(false)
    case "Menu": return .objectPath(Self.menuPath)
    case "ToolTip":
      return .structure([
        .string(TrayIcon.name(look.state)), TrayIcon.pixmaps(look.state),
        .string(Self.tooltipText(look.title)),
        .string(look.lines.map(Self.tooltipText).joined(separator: "\n")),
      ])
    default: return nil
    }
  }

  /// A tooltip's line as every host reads it the same: Plasma takes the text as rich text when
  /// it looks like it, waybar as Pango markup (which knows no `<br/>` and refuses the whole
  /// tooltip over one stray `&`), so lines are plain lines, and the three characters markup
  /// gives meaning to are shown as look-alikes (＆ ‹ ›) that neither reads as markup.
  static func tooltipText(_ text: String) -> String {
    VisibleText.escaped(text).replacing("&", with: "＆").replacing("<", with: "‹")
      .replacing(">", with: "›")
  }

  /// The item's status: a flow its reminder asked for asks for attention; every other state
  /// stays on the panel (a Passive item is hidden: waybar drops it, Plasma moves it out of
  /// sight, and a done or paused day is worth a glance and a click to open today).
  static func status(_ state: PanelStatus.State) -> String {
    switch state {
    case .overdue: "NeedsAttention"
    case .due, .done, .paused: "Active"
    }
  }

  /// The interfaces an object has, for a host that introspects before it calls.
  static func introspection(_ path: String) -> String {
    let item = """
      <interface name="org.kde.StatusNotifierItem">
      <property name="Category" type="s" access="read"/><property name="Id" type="s" access="read"/>
      <property name="Title" type="s" access="read"/><property name="Status" type="s" access="read"/>
      <property name="WindowId" type="i" access="read"/><property name="IconName" type="s" access="read"/>
      <property name="AttentionIconName" type="s" access="read"/>
      <property name="IconPixmap" type="a(iiay)" access="read"/>
      <property name="ToolTip" type="(sa(iiay)ss)" access="read"/>
      <property name="ItemIsMenu" type="b" access="read"/><property name="Menu" type="o" access="read"/>
      <property name="IconThemePath" type="s" access="read"/>
      <method name="ContextMenu"><arg type="i" direction="in"/><arg type="i" direction="in"/></method>
      <method name="ProvideXdgActivationToken"><arg type="s" direction="in"/></method>
      <method name="Activate"><arg type="i" direction="in"/><arg type="i" direction="in"/></method>
      <method name="SecondaryActivate"><arg type="i" direction="in"/><arg type="i" direction="in"/></method>
      <method name="Scroll"><arg type="i" direction="in"/><arg type="s" direction="in"/></method>
      <signal name="NewIcon"/><signal name="NewToolTip"/><signal name="NewStatus"><arg type="s"/></signal>
      </interface>
      """
    let menu = """
      <interface name="com.canonical.dbusmenu">
      <property name="Version" type="u" access="read"/><property name="TextDirection" type="s" access="read"/>
      <property name="Status" type="s" access="read"/><property name="IconThemePath" type="as" access="read"/>
      <method name="GetLayout"><arg type="i" direction="in"/><arg type="i" direction="in"/><arg type="as" direction="in"/><arg type="u" direction="out"/><arg type="(ia{sv}av)" direction="out"/></method>
      <method name="GetGroupProperties"><arg type="ai" direction="in"/><arg type="as" direction="in"/><arg type="a(ia{sv})" direction="out"/></method>
      <method name="GetProperty"><arg type="i" direction="in"/><arg type="s" direction="in"/><arg type="v" direction="out"/></method>
      <method name="Event"><arg type="i" direction="in"/><arg type="s" direction="in"/><arg type="v" direction="in"/><arg type="u" direction="in"/></method>
      <method name="EventGroup"><arg type="a(isvu)" direction="in"/><arg type="ai" direction="out"/></method>
      <method name="AboutToShow"><arg type="i" direction="in"/><arg type="b" direction="out"/></method>
      <method name="AboutToShowGroup"><arg type="ai" direction="in"/><arg type="ai" direction="out"/><arg type="ai" direction="out"/></method>
      <signal name="LayoutUpdated"><arg type="u"/><arg type="i"/></signal>
      <signal name="ItemsPropertiesUpdated"><arg type="a(ia{sv})"/><arg type="a(ias)"/></signal>
      </interface>
      """
    let own = path == itemPath ? item : path == menuPath ? menu : ""
    let children =
      path == "/" ? "<node name=\"StatusNotifierItem\"/><node name=\"MenuBar\"/>" : ""
    return
      "<!DOCTYPE node PUBLIC \"-//freedesktop//DTD D-BUS Object Introspection 1.0//EN\" \"http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd\">\n<node>"
      + own + children + "</node>"
  }
}
