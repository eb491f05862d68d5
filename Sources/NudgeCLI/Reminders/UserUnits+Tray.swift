import NudgeCore

/// The tray's user unit (`nudge tray on|off`): `nudge-tray.service`, wanted by the graphical
/// session, so the user manager starts the tray with the desktop and stops it with it.
extension UserUnits {
  /// The package ships the tray's unit and this is the packaged Nudge: only enable it.
  var isPackagedTray: Bool {
    Self.binaryPath == Self.packagedBinary
      && ctx.platform.files.exists(Self.packagedUnitDirectory + "/" + UnitFiles.trayServiceName)
  }

  /// Writes the unit (unless packaged), enables it, and starts it when the graphical session
  /// is up now; returns what happened, as a sentence.
  func enableTray() throws -> String {
    guard hasUserManager || dryRun else {
      throw CLIError(
        "no systemd user manager runs here, so nothing would start the tray with your session; start 'nudge tray' from your desktop's autostart instead (see the README, On the panel).",
        code: .unavailable)
    }
    if !isPackagedTray {
      try write(UnitFiles.trayServiceName, UnitFiles.trayService(binary: Self.binaryPath))
    }
    try systemctl(["daemon-reload"])
    try systemctl(["enable", UnitFiles.trayServiceName])
    if dryRun {
      ctx.line(
        "# run systemctl --user restart \(UnitFiles.trayServiceName) (when graphical-session.target is active)"
      )
      return ""
    }
    let sessionUp =
      !dryRun
      && (try? ctx.platform.systemctl(
        ["is-active", "--quiet", "graphical-session.target"], environment: ctx.environment)) == 0
    if sessionUp {
      try systemctl(["restart", UnitFiles.trayServiceName])
      return "The tray starts with your graphical session, and runs now (nudge-tray.service)."
    }
    return
      "The tray starts with your graphical session (nudge-tray.service); none is up now for the user manager (graphical-session.target), so run 'nudge tray' for this one."
  }

  /// Stops and disables the unit, and removes the person's copy of it; `reload`: tells the
  /// user manager (`uninstall` does once for all it removes).
  func disableTray(reload: Bool = true) throws -> String {
    if dryRun || (hasUserManager && unitExists(UnitFiles.trayServiceName)) {
      try systemctl(["disable", "--now", UnitFiles.trayServiceName])
    }
    remove(UnitFiles.trayServiceName)
    if reload { try systemctl(["daemon-reload"]) }
    return "The tray no longer starts with your session (nudge-tray.service is off)."
  }
}
