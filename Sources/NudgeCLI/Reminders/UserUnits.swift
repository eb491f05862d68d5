import FoundationEssentials
import NudgeCore
import NudgeLinux
import NudgeStore
import NudgeUseCases

/// The user's systemd unit directory and the systemctl calls that manage Nudge's timers.
struct UserUnits {
  let ctx: Context
  let dryRun: Bool

  var directory: String {
    let env = ctx.environment
    let config =
      env["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
      ?? HomeDirectory.path(environment: env) + "/.config"
    return config + "/systemd/user"
  }

  var isInstalled: Bool {
    ctx.platform.files.exists(directory + "/" + UnitFiles.serviceName)
      || isPackaged
        && ctx.platform.files.exists(directory + "/" + UnitFiles.windowDropInPath(.morning))
  }

  /// Where the Debian package puts the units (the system's user-unit directory).
  static let packagedUnitDirectory = "/usr/lib/systemd/user"
  /// The packaged binary.
  static let packagedBinary = "/usr/bin/nudge"

  /// This is the packaged Nudge and its units are installed: `nudge install` then only enables
  /// them, with the person's changes as drop-ins in their own unit directory.
  var isPackaged: Bool {
    Self.binaryPath == Self.packagedBinary
      && ctx.platform.files.exists(Self.packagedUnitDirectory + "/" + UnitFiles.serviceName)
  }

  /// Which binary the timers run and where their units are, for `doctor`.
  var unitsDescription: String {
    isPackaged
      ? "packaged in \(Self.packagedUnitDirectory), running \(Self.packagedBinary); changes in \(directory)"
      : "installed in \(directory), running \(Self.binaryPath)"
  }

  /// The database the installed timers work on: they run with no `NUDGE_DB`, in the user
  /// manager's environment, so the default one there (`$XDG_DATA_HOME/nudge/nudge.sqlite3`,
  /// with the manager's `XDG_DATA_HOME` and `HOME`; this shell's when no manager runs).
  var timersDatabase: String {
    var env = ctx.environment
    env["NUDGE_DB"] = nil
    // the timers run with the user manager's environment, not this shell's
    let manager = ctx.platform.userManagerEnvironment(environment: ctx.environment)
    if !manager.isEmpty {
      env["HOME"] = manager["HOME"] ?? env["HOME"]
      env["XDG_DATA_HOME"] = manager["XDG_DATA_HOME"]
    }
    return DatabaseLocation.path(environment: env)
  }

  /// Whether this run's database is the one the installed timers work on; a second one (a
  /// test, a demo, `NUDGE_DB` elsewhere) never rewrites the person's reminders.
  func drivesTimers(_ db: AppDatabase) -> Bool {
    DatabaseLocation.isSameFile(db.path, timersDatabase)
  }

  /// Said once when a change to a second database leaves the installed timers as they are.
  func keptTimersNote() {
    ctx.output.writeError(
      "nudge: the installed reminders keep their times: they run for \(VisibleText.escaped(timersDatabase)), not this database (\(VisibleText.escaped(DatabaseLocation.path(environment: ctx.environment)))).\n"
    )
  }

  /// A systemd user manager runs for this session (the platform's `hasUserManager`).
  var hasUserManager: Bool { ctx.platform.hasUserManager(environment: ctx.environment) }

  static var binaryPath: String {
    LocalFileSystem().linkTarget("/proc/self/exe") ?? CommandLine.arguments[0]
  }

  func write(_ relative: String, _ text: String) throws {
    try writeFile(directory + "/" + relative, text)
  }

  /// Writes a file atomically, creating its directory; prints it instead on a dry run.
  func writeFile(_ path: String, _ text: String) throws {
    if dryRun {
      ctx.line("# file \(path)")
      ctx.output.write(text)
      ctx.line()
      return
    }
    let directory = parentDirectory(of: path)
    do {
      try ctx.platform.files.createDirectory(directory)
    } catch {
      throw CLIError("Cannot write \(path): cannot create \(directory).", code: .cannotCreate)
    }
    do {
      try ctx.platform.files.writeAtomically(Array(text.utf8), to: path, mode: 0o644)
    } catch {
      throw CLIError("Cannot write \(path): \(error.reason).", code: .cannotCreate)
    }
  }

  func remove(_ relative: String) {
    let path = directory + "/" + relative
    if dryRun {
      if ctx.platform.files.exists(path) { ctx.line("# remove \(path)") }
      return
    }
    ctx.platform.files.remove(path)
  }

  /// Runs `systemctl --user ARGS` (no shell); prints it instead on a dry run.
  func systemctl(_ args: [String]) throws {
    let line = (["systemctl", "--user"] + args).joined(separator: " ")
    if dryRun {
      ctx.line("# run \(line)")
      return
    }
    if !hasUserManager { return }
    let status = try ctx.platform.systemctl(args, environment: ctx.environment)
    guard status == 0 else {
      throw CLIError("'\(line)' failed (exit \(status)).", code: .unavailable)
    }
  }

  var applicationsDirectory: String {
    let env = ctx.environment
    let data =
      env["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
      ?? HomeDirectory.path(environment: env) + "/.local/share"
    return data + "/applications"
  }

  var mimeappsPath: String {
    URL(fileURLWithPath: directory).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("mimeapps.list").path
  }

  /// Writes the nudge:// handler and makes it the default for `x-scheme-handler/nudge`.
  func installLinkHandler() throws {
    let desktop = applicationsDirectory + "/" + LinkHandlerFile.name
    let current = ctx.platform.files.text(mimeappsPath) ?? ""
    try writeFile(desktop, LinkHandlerFile.render(binary: Self.binaryPath))
    try writeFile(mimeappsPath, LinkHandlerFile.registering(in: current))
  }

  func removeLinkHandler() {
    let desktop = applicationsDirectory + "/" + LinkHandlerFile.name
    if dryRun {
      ctx.line("# remove \(desktop)")
      return
    }
    ctx.platform.files.remove(desktop)
    if let current = ctx.platform.files.text(mimeappsPath) {
      let kept = current.split(separator: "\n", omittingEmptySubsequences: false)
        .filter { !$0.hasPrefix("x-scheme-handler/nudge=") }.joined(separator: "\n")
      try? ctx.platform.files.writeAtomically(Array(kept.utf8), to: mimeappsPath, mode: 0o644)
    }
  }

  var iconPath: String {
    URL(fileURLWithPath: applicationsDirectory).deletingLastPathComponent()
      .appendingPathComponent(AppIcon.relativePath).path
  }

  /// Where the tray's state icon `name` goes, beside Nudge's icon.
  func stateIconPath(_ name: String) -> String {
    URL(fileURLWithPath: applicationsDirectory).deletingLastPathComponent()
      .appendingPathComponent(StateIcons.relativePath(name)).path
  }

  /// Writes every unit and drop-in, reloads systemd and enables the timers of enabled slots.
  /// The packaged Nudge writes only the drop-ins (changed times, each slot's window) and the
  /// person's `mimeapps.list` line: its units, handler and icon come with the package.
  func install(_ schedules: [SlotSchedule], settings: Settings) throws {
    let packaged = isPackaged
    if packaged {
      // copies from an earlier user install would win over the packaged units and handler
      remove(UnitFiles.serviceName)
      for slot in ReminderSource.allCases { remove(UnitFiles.timerName(slot)) }
      if dryRun {
        ctx.line("# remove \(applicationsDirectory)/\(LinkHandlerFile.name)")
      } else {
        ctx.platform.files.remove(applicationsDirectory + "/" + LinkHandlerFile.name)
      }
      let current = ctx.platform.files.text(mimeappsPath) ?? ""
      try writeFile(mimeappsPath, LinkHandlerFile.registering(in: current))
    } else {
      try installLinkHandler()
      try writeFile(iconPath, AppIcon.svg)
      for (name, svg) in StateIcons.all { try writeFile(stateIconPath(name), svg) }
    }
    // (a plan's own slot's timer is the person's, packaged or not: the package ships the four)
    let ownTimers = Set(schedules.filter(\.slot.hasOwnTimer).map { UnitFiles.timerName($0.slot) })
    for (path, text) in UnitFiles.render(
      binary: Self.binaryPath, schedules: schedules, settings: settings)
    where !packaged || path.contains(".d/") || ownTimers.contains(path) {
      try write(path, text)
    }
    for schedule in schedules where UnitFiles.dropIn(schedule) == nil {
      remove(UnitFiles.dropInPath(schedule.slot))
    }
    try removeGoneTimers(schedules)
    try activate(schedules)
  }

  /// Stops and removes the timers of plan slots and habits no longer there (a plan file
  /// removed, a habit removed, archived or without a time now).
  func removeGoneTimers(_ schedules: [SlotSchedule]) throws {
    let gone = planTimers().filter { slot in !schedules.contains { $0.slot == slot } }
    guard !gone.isEmpty else { return }
    try systemctl(["disable", "--now"] + gone.map(UnitFiles.timerName))
    for slot in gone {
      remove(UnitFiles.timerName(slot))
      remove(UnitFiles.windowDropInPath(slot))
      remove(UnitFiles.windowDropInPath(slot).replacing("/window.conf", with: ""))
    }
  }

  /// The plans' own slots whose timer is in the unit directory.
  func planTimers() -> [ReminderSource] {
    (ctx.platform.files.names(in: directory, limit: 10_000) ?? [])
      .filter { $0.hasPrefix("nudge-") && $0.hasSuffix(".timer") }
      .compactMap { ReminderSource(rawValue: String($0.dropFirst(6).dropLast(6))) }.filter(
        \.hasOwnTimer)
  }

  /// The unit file is in the person's unit directory or the package's.
  func unitExists(_ name: String) -> Bool {
    [directory, Self.packagedUnitDirectory].contains {
      ctx.platform.files.exists($0 + "/" + name)
    }
  }

  func activate(_ schedules: [SlotSchedule]) throws {
    try systemctl(["daemon-reload"])
    let on = schedules.filter(\.enabled).map { UnitFiles.timerName($0.slot) }
    // (systemctl refuses to disable a unit that has no file)
    let off = schedules.filter { !$0.enabled }.map { UnitFiles.timerName($0.slot) }
      .filter { dryRun || unitExists($0) }
    if !on.isEmpty { try systemctl(["enable", "--now"] + on) }
    if !off.isEmpty { try systemctl(["disable", "--now"] + off) }
  }

  /// After `schedule set/on/off` or an import: rewrite the slot's drop-in and reload, when
  /// installed; without a user manager that is said once, not after every change (`doctor`
  /// says it every time).
  func update(_ schedules: [SlotSchedule], db: AppDatabase) throws {
    guard isInstalled else { return }
    guard drivesTimers(db) else { return keptTimersNote() }
    if !isPackaged {
      // an install from before a slot existed (the weekly one) lacks its timer: add it
      for (path, text) in UnitFiles.render(
        binary: Self.binaryPath, schedules: schedules, settings: try db.settings())
      where !path.hasSuffix("/schedule.conf")
        && !ctx.platform.files.exists(directory + "/" + path)
      {
        try write(path, text)
      }
    }
    for schedule in schedules {
      if schedule.slot.hasOwnTimer {
        // a plan's own slot: its timer holds its time (written afresh: the plan may have changed)
        try write(UnitFiles.timerName(schedule.slot), UnitFiles.timer(schedule))
        try write(
          UnitFiles.windowDropInPath(schedule.slot),
          UnitFiles.windowDropIn(
            schedule.slot,
            windowSeconds: try db.settings().stalenessSeconds(for: schedule.slot)))
      } else if let dropIn = UnitFiles.dropIn(schedule) {
        try write(UnitFiles.dropInPath(schedule.slot), dropIn)
      } else {
        remove(UnitFiles.dropInPath(schedule.slot))
      }
    }
    try removeGoneTimers(schedules)
    try activate(schedules)
    if !hasUserManager, try SaidOnce(db: db).isNew("no-user-manager") { noUserManagerNote() }
  }

  /// After a staleness setting changed: rewrite each slot's service bound, when installed.
  func updateWindows(_ settings: Settings, db: AppDatabase) throws {
    guard isInstalled else { return }
    guard drivesTimers(db) else { return keptTimersNote() }
    for slot in ReminderSource.allCases {
      try write(
        UnitFiles.windowDropInPath(slot),
        UnitFiles.windowDropIn(slot, windowSeconds: settings.stalenessSeconds(for: slot)))
    }
    try systemctl(["daemon-reload"])
  }

  func noUserManagerNote() {
    ctx.output.writeError(
      "nudge: no systemd user instance is running here, so the timers were not started; run 'nudge daemon' to get reminders.\n"
    )
  }
}

/// The systemd user manager's environment (`systemctl --user show-environment`), what the
/// reminders its timers start will see.
func userManagerEnvironment(_ ctx: Context) -> [String: String] {
  ctx.platform.userManagerEnvironment(environment: ctx.environment)
}
