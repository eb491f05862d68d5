import ArgumentParser
import NudgeCore

/// `nudge uninstall`: reverses `nudge install`.
struct UninstallCommand: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "uninstall", abstract: "Stop and remove the reminder timers. Your data stays.")

  @Flag(help: "Print every file and command instead of removing or running them.")
  var dryRun = false

  func run(_ ctx: Context) throws {
    let units = UserUnits(ctx: ctx, dryRun: dryRun)
    // the built-in slots, and every plan slot whose timer is in the unit directory
    let slots = ReminderSource.allCases + units.planTimers()
    let timers = slots.map(UnitFiles.timerName).filter { dryRun || units.unitExists($0) }
    if !timers.isEmpty { try units.systemctl(["disable", "--now"] + timers) }
    for slot in slots {
      units.remove(UnitFiles.dropInPath(slot))
      units.remove(UnitFiles.dropInPath(slot).replacing("/schedule.conf", with: ""))
      units.remove(UnitFiles.timerName(slot))
      units.remove(UnitFiles.windowDropInPath(slot))
      units.remove(
        UnitFiles.windowDropInPath(slot).replacing("/window.conf", with: ""))
    }
    units.remove(UnitFiles.serviceName)
    _ = try units.disableTray(reload: false)
    units.removeLinkHandler()
    for path in [units.iconPath] + StateIcons.all.map({ units.stateIconPath($0.name) }) {
      if dryRun {
        ctx.line("# remove \(path)")
      } else {
        ctx.platform.files.remove(path)
      }
    }
    try units.systemctl(["daemon-reload"])
    if !dryRun {
      ctx.line("Removed the reminder units from \(units.directory). Your data is untouched.")
    }
  }
}
