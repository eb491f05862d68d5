import FoundationEssentials

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
    # The reminder stays clickable until its staleness window ends (default 4h), then takes
    # itself off the screen and exits 0; SIGTERM (a stop) withdraws it too. This limit is only a
    # backstop beyond the window and the 2-minute wait for a notification server; each slot's
    # drop-in (window.conf) sets it from its own window.
    RuntimeMaxSec=4h3min
    TimeoutStopSec=10s
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

  /// `units/nudge-tray.service`, with `@NUDGE@` for the binary: the tray icon, started with
  /// the graphical session (`nudge tray on` enables it) and stopped with it.
  public static let trayServiceTemplate = """
    [Unit]
    Description=Nudge on the panel (a tray icon with today's state)
    Documentation=man:nudge(1)
    PartOf=graphical-session.target
    After=graphical-session.target

    [Service]
    Type=exec
    ExecStart=@NUDGE@ tray
    # a panel's bus gone (the session ending) ends it with 69: the session's next start brings it
    Restart=on-failure
    RestartSec=5s

    [Install]
    WantedBy=graphical-session.target

    """

  public static let trayServiceName = "nudge-tray.service"

  /// The tray's unit for the binary at `binary`.
  public static func trayService(binary: String) -> String {
    trayServiceTemplate.replacing(
      "@NUDGE@", with: binary.contains(" ") ? "\"\(binary)\"" : binary)
  }

  /// Seconds a reminder may wait beyond its window: for a notification server, plus a margin.
  public static let waitMargin = 180

  /// The longest a reminder process may run (the widest staleness window plus the margin).
  public static let maxWait = 86400 + waitMargin

  /// The drop-in that bounds a slot's reminder service by the slot's staleness window.
  public static func windowDropInPath(_ slot: ReminderSource) -> String {
    "nudge-notify@\(slot.rawValue).service.d/window.conf"
  }

  public static func windowDropIn(_ slot: ReminderSource, windowSeconds: Int) -> String {
    """
    # written by 'nudge install'\(slot.hasOwnTimer ? "" : " and 'nudge config set staleness.\(slot.rawValue)'"): the reminder
    # waits for a click until its staleness window ends; this is the backstop beyond it
    [Service]
    RuntimeMaxSec=\(windowSeconds + waitMargin)s

    """
  }

  public static func timerName(_ slot: ReminderSource) -> String { "nudge-\(slot.rawValue).timer" }

  /// The drop-in that changes a timer's time.
  public static func dropInPath(_ slot: ReminderSource) -> String {
    "\(timerName(slot)).d/schedule.conf"
  }

  /// Every file to write, relative to the user unit directory, for the binary at `binary`.
  public static func render(binary: String, schedules: [SlotSchedule], settings: Settings)
    -> [(path: String, text: String)]
  {
    let quoted = binary.contains(" ") ? "\"\(binary)\"" : binary
    var files = [(serviceName, serviceTemplate.replacing("@NUDGE@", with: quoted))]
    for schedule in schedules {
      let slot = schedule.slot
      files.append(
        (
          windowDropInPath(slot),
          windowDropIn(slot, windowSeconds: settings.stalenessSeconds(for: slot))
        ))
      files.append((timerName(slot), timer(schedule)))
      if let dropIn = dropIn(schedule) { files.append((dropInPath(slot), dropIn)) }
    }
    return files
  }

  /// A slot's timer: a built-in slot's at its default time (a drop-in changes it), a plan's at
  /// its plan's time.
  public static func timer(_ schedule: SlotSchedule) -> String {
    let calendar: String
    if schedule.slot.hasOwnTimer {
      calendar = schedule.expression
    } else {
      calendar = schedule.slot.defaultExpression
    }
    return timerTemplate.replacing("@SLOT@", with: schedule.slot.rawValue)
      .replacing("@CALENDAR@", with: calendar)
  }

  /// The drop-in text for a non-default time, or nil at the default (and for a plan's slot,
  /// whose timer holds its time).
  public static func dropIn(_ schedule: SlotSchedule) -> String? {
    if schedule.slot.hasOwnTimer { return nil }
    guard schedule.expression != schedule.slot.defaultExpression else { return nil }
    return
      "# written by 'nudge schedule set \(schedule.slot.rawValue)'\n[Timer]\nOnCalendar=\nOnCalendar=\(schedule.expression)\n"
  }
}
