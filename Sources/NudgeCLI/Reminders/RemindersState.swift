import NudgeCore
import NudgeStore

/// Whether anything will fire the reminders the schedule shows, said plainly where the times
/// are shown (`schedule`, the today view): a schedule alone reminds nobody.
enum RemindersState: Equatable {
  /// The timers are installed and a systemd user instance runs them, or `nudge daemon` runs.
  case running
  /// No timer is installed and no daemon runs.
  case notInstalled
  /// The units are written, but no systemd user instance runs here and no daemon either.
  case noManager
  /// Installed under a running user manager, but these enabled slots' timers are not active.
  case stopped([ReminderSource])

  /// What is true now. `checkTimers`: ask the user manager whether each enabled slot's timer is
  /// active (one `systemctl` call; `schedule` asks, the today view trusts the install).
  static func current(_ ctx: Context, _ schedules: [SlotSchedule], checkTimers: Bool)
    -> RemindersState
  {
    let units = UserUnits(ctx: ctx, dryRun: true)
    let manager = units.hasUserManager
    if units.isInstalled && manager {
      guard checkTimers else { return .running }
      let enabled = schedules.filter(\.enabled).map(\.slot)
      func active(_ slots: [ReminderSource]) -> Bool {
        let status = try? ctx.platform.systemctl(
          ["is-active", "--quiet"] + slots.map(UnitFiles.timerName), environment: ctx.environment)
        return status == 0
      }
      // one call when all are active (the usual case); each slot asked only when one is not
      guard !enabled.isEmpty, !active(enabled) else { return .running }
      let inactive = enabled.filter { !active([$0]) }
      return inactive.isEmpty ? .running : .stopped(inactive)
    }
    if ctx.platform.daemonRuns(databasePath: DatabaseLocation.path(environment: ctx.environment)) {
      return .running
    }
    return units.isInstalled ? .noManager : .notInstalled
  }

  /// One plain sentence with the command that fixes it; nil when the reminders will fire.
  var sentence: String? {
    switch self {
    case .running: nil
    case .notInstalled: "Reminders are not installed: nudge install"
    case .noManager:
      "Reminders will not fire here (no systemd user instance): run nudge daemon"
    case .stopped(let slots):
      "Reminders are not running (\(slots.map(\.rawValue).joined(separator: ", ")) timer off): nudge install"
    }
  }
}

extension AppDatabase {
  /// The pause that holds today's reminders, if any.
  func pause(covering day: Day) throws -> Pause? {
    try pauses().first { $0.contains(day) }
  }
}
