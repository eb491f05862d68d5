import Foundation

/// The systemd user units Nudge installs, rendered from the templates in `units/`.
public enum UnitFiles {
  /// `units/nudge-notify@.service`, with `@NUDGE@` for the binary.
  public static let serviceTemplate = """
    [Unit]
    Description=Nudge reminder (%i)
    Documentation=man:systemd.timer(5)

    [Service]
    Type=exec
    ExecStart=@NUDGE@ notify %i --scheduled
    # the reminder waits in a GLib main loop for a click, bounded
    RuntimeMaxSec=15min
    # 69: no notification server; the reminder was printed to the journal and logged as undelivered
    SuccessExitStatus=69

    """

  /// `units/nudge-slot.timer`, with `@SLOT@` and `@CALENDAR@`.
  public static let timerTemplate = """
    [Unit]
    Description=Nudge @SLOT@ reminder

    [Timer]
    OnCalendar=@CALENDAR@
    Persistent=true
    AccuracySec=1s
    Unit=nudge-notify@@SLOT@.service

    [Install]
    WantedBy=timers.target

    """

  public static let serviceName = "nudge-notify@.service"

  public static func timerName(_ slot: Slot) -> String { "nudge-\(slot.rawValue).timer" }

  /// The drop-in that changes a timer's time.
  public static func dropInPath(_ slot: Slot) -> String { "\(timerName(slot)).d/schedule.conf" }

  /// Every file to write, relative to the user unit directory, for the binary at `binary`.
  public static func render(binary: String, schedules: [SlotSchedule]) -> [(
    path: String, text: String
  )] {
    let quoted = binary.contains(" ") ? "\"\(binary)\"" : binary
    var files = [(serviceName, serviceTemplate.replacingOccurrences(of: "@NUDGE@", with: quoted))]
    for schedule in schedules {
      let slot = schedule.slot
      files.append(
        (
          timerName(slot),
          timerTemplate.replacingOccurrences(of: "@SLOT@", with: slot.rawValue)
            .replacingOccurrences(of: "@CALENDAR@", with: slot.defaultExpression)
        ))
      if let dropIn = dropIn(schedule) { files.append((dropInPath(slot), dropIn)) }
    }
    return files
  }

  /// The drop-in text for a non-default time, or nil at the default.
  public static func dropIn(_ schedule: SlotSchedule) -> String? {
    guard schedule.expression != schedule.slot.defaultExpression else { return nil }
    return
      "# written by 'nudge schedule set \(schedule.slot.rawValue)'\n[Timer]\nOnCalendar=\nOnCalendar=\(schedule.expression)\n"
  }
}

/// The `x-scheme-handler/nudge` desktop entry (`deeplinks/nudge.desktop`).
public enum LinkHandlerFile {
  public static let name = "nudge.desktop"

  public static let template = """
    [Desktop Entry]
    Type=Application
    Name=Nudge
    Comment=Open the flow a Nudge reminder links to
    Exec=@NUDGE@ open %u
    Terminal=false
    NoDisplay=true
    MimeType=x-scheme-handler/nudge;
    Categories=Utility;

    """

  public static func render(binary: String) -> String {
    template.replacingOccurrences(
      of: "@NUDGE@", with: binary.contains(" ") ? "\"\(binary)\"" : binary)
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
    return lines.joined(separator: "\n").trimmingCharacters(in: .newlines) + "\n"
  }
}
