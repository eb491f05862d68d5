import FoundationEssentials

/// The `x-scheme-handler/nudge` desktop entry (`deeplinks/nudge.desktop`), also the entry the
/// notifications' `desktop-entry` hint names (GNOME Settings lists Nudge under Notifications by
/// `X-GNOME-UsesNotifications`, before its first reminder).
public enum LinkHandlerFile {
  public static let name = "nudge.desktop"

  public static let template = """
    [Desktop Entry]
    Type=Application
    Name=Nudge
    Comment=Open the flow a Nudge reminder links to
    Icon=nudge
    Exec=@NUDGE@ open %u
    Terminal=false
    NoDisplay=true
    MimeType=x-scheme-handler/nudge;
    Categories=Utility;
    X-GNOME-UsesNotifications=true

    """

  public static func render(binary: String) -> String {
    template.replacing("@NUDGE@", with: binary.contains(" ") ? "\"\(binary)\"" : binary)
  }

  /// `mimeapps.list` with Nudge as the default handler, other lines kept.
  public static func registering(in mimeapps: String) -> String {
    let entry = "x-scheme-handler/nudge=\(name)"
    var lines = mimeapps.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    lines.removeAll { $0.hasPrefix("x-scheme-handler/nudge=") }
    if let header = lines.firstIndex(of: "[Default Applications]") {
      lines.insert(entry, at: header + 1)
    } else {
      if let last = lines.last, last.isEmpty { lines.removeLast() }
      if !lines.isEmpty { lines.append("") }
      lines.append(contentsOf: ["[Default Applications]", entry])
    }
    return lines.joined(separator: "\n").trimming { $0.isNewline } + "\n"
  }
}

/// Nudge's icon (`deeplinks/nudge.svg`), installed into the hicolor theme as `nudge`: the
/// desktop entry's `Icon=` and every notification's `app_icon` name it.
public enum AppIcon {
  public static let relativePath = "icons/hicolor/scalable/apps/nudge.svg"

  public static let svg = """
    <svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">
      <rect x="2" y="2" width="60" height="60" rx="14" fill="#2f7d5b"/>
      <path d="M32 12c-8 0-13 6-13 14v9l-5 7h36l-5-7v-9c0-8-5-14-13-14z" fill="#fff7e0"/>
      <circle cx="32" cy="49" r="5" fill="#fff7e0"/>
      <path d="M24 27l6 6 11-12" fill="none" stroke="#2f7d5b" stroke-width="4.5" stroke-linecap="round" stroke-linejoin="round"/>
    </svg>

    """
}

/// The tray icon's three states (`nudge tray`), installed into the hicolor theme's status
/// icons beside Nudge's own: a disc while something is due, a ring with a tick when the day
/// is done, two bars while paused.
public enum StateIcons {
  /// Each icon's name (what the tray's `IconName` says) and its SVG.
  public static let all: [(name: String, svg: String)] = [
    ("nudge-due", icon(##"<circle cx="32" cy="32" r="24" fill="#e5c07b"/>"##)),
    (
      "nudge-done",
      icon(
        ##"<circle cx="32" cy="32" r="24" fill="none" stroke="#98c379" stroke-width="6"/>"##
          + ##"<path d="M21 33l8 8 15-17" fill="none" stroke="#98c379" stroke-width="6" stroke-linecap="round" stroke-linejoin="round"/>"##
      )
    ),
    (
      "nudge-paused",
      icon(
        ##"<circle cx="32" cy="32" r="24" fill="none" stroke="#61afef" stroke-width="6"/>"##
          + ##"<rect x="23" y="21" width="6" height="22" rx="2" fill="#61afef"/>"##
          + ##"<rect x="35" y="21" width="6" height="22" rx="2" fill="#61afef"/>"##)
    ),
  ]

  /// Where an icon goes under a data directory (`~/.local/share`, `/usr/share`).
  public static func relativePath(_ name: String) -> String {
    "icons/hicolor/scalable/status/\(name).svg"
  }

  static func icon(_ shapes: String) -> String {
    ##"<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">"##
      + shapes + "</svg>\n"
  }
}
