import ArgumentParser
import NudgeCore

/// `nudge install`: the systemd user units, the nudge:// handler and the icon.
struct InstallCommand: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "install", abstract: "Install the reminder timers as systemd user units.")

  @Flag(help: "Print every file and command instead of writing or running them.")
  var dryRun = false

  /// For `scripts/package`: the files the Debian package ships, under this root.
  @Option(help: .hidden)
  var packageRoot: String?

  /// The units (for /usr/bin/nudge, default times and windows), the nudge:// handler and the
  /// icon, where the package puts them under `root`.
  static func writePackageFiles(_ ctx: Context, root: String) throws {
    let units = UserUnits(ctx: ctx, dryRun: false)
    let defaults = ReminderSource.allCases.map(SlotSchedule.defaults)
    for (path, text) in UnitFiles.render(
      binary: UserUnits.packagedBinary, schedules: defaults, settings: Settings(stored: [:]))
    where !path.contains(".d/") {
      try units.writeFile(root + UserUnits.packagedUnitDirectory + "/" + path, text)
    }
    // the tray's unit ships disabled: `nudge tray on` (or systemctl --user enable) turns it on
    try units.writeFile(
      root + UserUnits.packagedUnitDirectory + "/" + UnitFiles.trayServiceName,
      UnitFiles.trayService(binary: UserUnits.packagedBinary))
    try units.writeFile(
      root + "/usr/share/applications/" + LinkHandlerFile.name,
      LinkHandlerFile.render(binary: UserUnits.packagedBinary))
    try units.writeFile(root + "/usr/share/" + AppIcon.relativePath, AppIcon.svg)
    for (name, svg) in StateIcons.all {
      try units.writeFile(root + "/usr/share/" + StateIcons.relativePath(name), svg)
    }
  }

  func run(_ ctx: Context) throws {
    if let packageRoot {
      try Self.writePackageFiles(ctx, root: packageRoot)
      return
    }
    let db = try ctx.openDatabase()
    let schedules = try ctx.allSchedules(db)
    let units = UserUnits(ctx: ctx, dryRun: dryRun)
    guard units.drivesTimers(db) else {
      throw CLIError(
        "the reminder timers always run for \(VisibleText.escaped(units.timersDatabase)), not \(VisibleText.escaped(db.path)); unset NUDGE_DB (and XDG_DATA_HOME, if the user manager has another) to install them for your own database.",
        code: .usage)
    }
    // a time an older Nudge took ('*:*:*') is never written as a timer
    for schedule in schedules {
      let spec = try? ctx.parseCalendar(schedule.expression, local: ctx.timeZone)
      if let problem = spec?.reminderProblem {
        throw CLIError(
          "the \(schedule.slot.rawValue) reminder's time '\(VisibleText.escaped(schedule.expression))' is no reminder time: \(problem); set another first: nudge schedule set \(schedule.slot.rawValue) 7:30. Nothing was installed.",
          code: .badData)
      }
    }
    try units.install(schedules, settings: try db.settings())
    if dryRun { return }
    // "enabled" only when systemctl enabled them: without a user manager nothing was
    if units.isPackaged && units.hasUserManager {
      ctx.line(
        "Enabled the packaged reminder timers (\(UserUnits.packagedUnitDirectory)); your times and windows are drop-ins in \(units.directory)."
      )
    } else if units.isPackaged {
      ctx.line(
        "Wrote your reminder times and windows as drop-ins in \(units.directory) for the packaged timers (\(UserUnits.packagedUnitDirectory))."
      )
    } else if units.hasUserManager {
      ctx.line("Installed and started the reminder timers (units in \(units.directory)).")
    } else {
      ctx.line("Wrote the reminder units in \(units.directory).")
    }
    if !units.hasUserManager {
      throw CLIError(
        "no systemd user instance is running here, so no timer was enabled or started; run 'nudge daemon' to get reminders, or 'nudge install' again in your desktop session.",
        code: .unavailable)
    }
  }
}
