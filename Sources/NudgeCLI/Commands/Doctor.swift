import ArgumentParser
import FoundationEssentials
import NudgeCore
import NudgeLinux
import NudgeStore

/// `nudge doctor`: checks everything a reminder needs and says how to fix what fails.
struct DoctorCommand: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "doctor",
    abstract: "Check the notification server, timers, link handler, terminal and database.",
    discussion: "Exit status: 0 when every check passes, 1 when any needs attention.")

  @Flag(help: "Print the checks as JSON.")
  var json = false

  /// One line of the checklist.
  struct Check: Encodable {
    var name: String
    var ok: Bool
    var detail: String
    var fix: String?
  }

  func checks(_ ctx: Context) -> [Check] {
    var out: [Check] = []
    let session = ctx.notifier.inspect()
    let hasSessionBus = session != .noSessionBus
    let sessionFix =
      "log in to a desktop session (or run under dbus-run-session); reminders are printed until then"
    out.append(
      Check(
        name: "session bus", ok: hasSessionBus,
        detail: hasSessionBus ? "D-Bus session bus found" : "no D-Bus session bus",
        fix: sessionFix))
    switch session {
    case .noSessionBus:
      out.append(
        Check(
          name: "notification server", ok: false,
          detail: "not checked: no session bus to find one on", fix: sessionFix))
    case .server(let name, let capabilities):
      let actions = capabilities.contains("actions")
      let click =
        name == "dunst"
        ? " (dunst: a middle click opens a reminder; Debian's default left click only closes it)"
        : ""
      out.append(
        Check(
          name: "notification server", ok: actions,
          detail: "\(name): \(capabilities.joined(separator: ", "))\(click)",
          fix: actions
            ? nil
            : "use a notification server with buttons (dunst, GNOME Shell, KDE Plasma, mako, xfce4-notifyd)"
        ))
    case .noServer(let reason):
      out.append(
        Check(
          name: "notification server", ok: false, detail: reason,
          fix:
            "start your desktop's notification server (or install one, e.g. apt-get install dunst)"
        ))
    }
    let units = UserUnits(ctx: ctx, dryRun: true)
    let daemonFix = "run 'nudge daemon' (in your session's autostart) to get reminders without it"
    out.append(
      Check(
        name: "systemd user instance", ok: units.hasUserManager,
        detail: units.hasUserManager ? "running" : "not running", fix: daemonFix))
    if units.hasUserManager {
      out.append(
        Check(
          name: "timers", ok: units.isInstalled,
          detail: units.isInstalled ? units.unitsDescription : "not installed",
          fix: "run 'nudge install'"))
      let environment = userManagerEnvironment(ctx)
      let graphical = ["DISPLAY", "WAYLAND_DISPLAY"].filter { environment[$0]?.isEmpty == false }
      out.append(
        Check(
          name: "user manager's display", ok: !graphical.isEmpty,
          detail: graphical.isEmpty
            ? "the systemd user manager has no DISPLAY or WAYLAND_DISPLAY, so a click from a timer's reminder cannot open a terminal"
            : graphical.map { "\($0)=\(environment[$0]!)" }.joined(separator: ", "),
          fix:
            "systemctl --user import-environment DISPLAY WAYLAND_DISPLAY (desktops do this at login)"
        ))
    } else {
      out.append(
        Check(
          name: "timers", ok: false,
          detail: "nothing runs them: no systemd user instance here", fix: daemonFix))
    }
    let desktop =
      units.isPackaged
      ? "/usr/share/applications/" + LinkHandlerFile.name
      : units.applicationsDirectory + "/" + LinkHandlerFile.name
    let mime = ctx.platform.files.text(units.mimeappsPath) ?? ""
    let handler =
      ctx.platform.files.exists(desktop)
      && mime.contains("x-scheme-handler/nudge=\(LinkHandlerFile.name)")
    out.append(
      Check(
        name: "nudge:// handler", ok: handler,
        detail: handler ? "registered (\(desktop))" : "not registered",
        fix: "run 'nudge install'"))
    out.append(terminalCheck(ctx))
    // the tray is optional: said, never failed (a desktop without one has `nudge status`)
    let tray = TrayService.trayPresent(environment: ctx.environment)
    // enabled: the link `systemctl --user enable` made (read as a file: no systemctl call)
    let withSession = ctx.platform.files.exists(
      units.directory + "/graphical-session.target.wants/" + UnitFiles.trayServiceName)
    out.append(
      Check(
        name: "tray", ok: true,
        detail: (tray == true
          ? "a panel with a system tray is there (StatusNotifierWatcher): nudge tray shows its icon"
          : "no system tray on this session (no StatusNotifierWatcher): nudge tray's icon would not show; nudge status feeds a status bar")
          + (withSession
            ? "; the user manager starts it with your session (nudge tray on)"
            : "; 'nudge tray on' starts it with your session"),
        fix: nil))
    out.append(zoneCheck(ctx))
    if let plans = plansCheck(ctx) { out.append(plans) }
    do {
      let db = try ctx.openDatabase()
      let result = (try? db.integrityCheck()) ?? "could not run integrity_check"
      out.append(
        Check(
          name: "database", ok: result == "ok",
          detail: "\(VisibleText.escaped(db.path)): integrity_check \(VisibleText.escaped(result))",
          fix:
            "restore from 'nudge export' into a fresh database (set NUDGE_DB to a new file, then 'nudge import')"
        ))
      out.append(syncCheck(ctx, db))
    } catch {
      out.append(
        Check(name: "database", ok: false, detail: VisibleText.escaped(error.message), fix: nil))
    }
    return out
  }

  /// The plans folder and its files, held to the sync folder's rules (the person's alone to
  /// change): nil when there is no plans folder.
  func plansCheck(_ ctx: Context) -> Check? {
    guard let folder = ctx.planFolder, ctx.platform.files.exists(folder) else { return nil }
    let files = ctx.platform.files
    var problems: [String] = []
    if let problem = files.othersMayChange(folder) {
      problems.append("\(folder): \(problem)")
    }
    for name in files.names(in: folder, limit: 10_000) ?? [] where name.hasSuffix(".plan") {
      if let problem = files.othersMayChange(folder + "/" + name) {
        problems.append("\(name): \(problem)")
      }
    }
    guard let first = problems.first else {
      return Check(
        name: "plans", ok: true, detail: "\(VisibleText.escaped(folder)): yours alone", fix: nil)
    }
    return Check(
      name: "plans", ok: false,
      detail: VisibleText.escaped(first)
        + (problems.count > 1 ? " (and \(problems.count - 1) more)" : "")
        + "; such plans are not read",
      fix: "run chmod -R go-w \(ShellWord.quoted(folder)) (and chown what another user owns)")
  }

  /// Whether sync is on, when each other computer was last heard from, and a warning when
  /// the folder has not changed from the others for days while this computer wrote to it.
  func syncCheck(_ ctx: Context, _ db: AppDatabase) -> Check {
    guard let me = try? db.syncDevice() else {
      return Check(
        name: "sync", ok: true, detail: "off ('nudge sync init DIR' joins a shared folder)",
        fix: nil)
    }
    let folder = SyncFolder(path: me.folder)
    if let problem = folder.problem() {
      return Check(
        name: "sync", ok: false, detail: VisibleText.escaped(problem),
        fix: problem.contains("chmod")
          ? "run chmod go-w \(ShellWord.quoted(me.folder))"
          : "mount or create the folder, or 'nudge sync leave'")
    }
    // the files' times are the file system's: compared with the wall clock, never with a
    // fixed `NUDGE_NOW` (a demonstration's clock said real files were changed years ahead)
    let now = Context.systemClock().seconds
    let files = folder.deviceFiles()
    let names = Dictionary(
      ((try? db.syncPeers()) ?? []).map { ($0.device, $0.name) }, uniquingKeysWith: { a, _ in a })
    let others = Dictionary(grouping: files.filter { $0.device != me.device }, by: \.device)
      .mapValues { $0.map(\.modified).max() ?? 0 }
    func ago(_ seconds: Int) -> String {
      let days = max(0, now - seconds) / 86_400
      return days == 0 ? "today" : days == 1 ? "a day ago" : "\(days) days ago"
    }
    let heard = others.sorted { $0.value > $1.value }.map { device, modified in
      "\(VisibleText.escaped(names[device] ?? device)) last changed its files \(ago(modified))"
    }
    var detail =
      "on as '\(VisibleText.escaped(me.name))' through \(VisibleText.escaped(me.folder))"
      + (heard.isEmpty
        ? "; no other computer has written there yet" : "; " + heard.joined(separator: ", "))
    let mine = files.filter { $0.device == me.device }.map(\.modified).max() ?? 0
    let latestOther = others.values.max() ?? 0
    let quietDays = (now - latestOther) / 86_400
    if !others.isEmpty, now - mine < 3 * 86_400, quietDays >= 3, mine > latestOther {
      detail += "; nothing arrived from the others for \(quietDays) days while this computer wrote"
      return Check(
        name: "sync", ok: false, detail: detail,
        fix: "check that the file sync (Syncthing) runs on every computer and shares the folder")
    }
    let skipped = ((try? db.syncPeers()) ?? []).reduce(0) { $0 + $1.skipped }
    if skipped > 0 {
      detail += "; \(skipped) lines or files from the others skipped ('nudge sync status' says why)"
    }
    if let pending = try? db.syncPending(), pending > 0 {
      detail += "; \(pending) changes made here wait to be written to the folder"
      return Check(
        name: "sync", ok: false, detail: detail,
        fix: "run 'nudge sync': it says why the folder can't take them")
    }
    return Check(name: "sync", ok: true, detail: detail, fix: nil)
  }

  /// The terminal a click opens, started once with `true` where there is a display (as a
  /// click would start it), so one that cannot run on this session is found before a reminder.
  func terminalCheck(_ ctx: Context) -> Check {
    let launcher = TerminalLauncher(ctx: ctx)
    let configured = (try? ctx.openDatabase().settings().value(.terminal)) ?? ""
    if let missing = launcher.missingProgram(configured) {
      return Check(
        name: "terminal", ok: false,
        detail:
          "the terminal setting '\(configured)' names \(missing), which is not installed (not on PATH)",
        fix: launcher.foundSentence)
    }
    let program = [ctx.platform.which("true", path: ctx.environment["PATH"]) ?? "/bin/true"]
    guard let first = launcher.command(running: program) else {
      return Check(
        name: "terminal", ok: false, detail: "none found",
        fix: "install a terminal emulator or 'nudge config set terminal \"xterm -e\"'")
    }
    let shown = "clicks open: " + first.dropLast().joined(separator: " ")
    guard let environment = try? launcher.environment(activationToken: nil) else {
      return Check(
        name: "terminal", ok: true, detail: shown + " (not started: no graphical session here)",
        fix: nil)
    }
    let start =
      launcher.which(first[0]).map {
        ctx.platform.launchTerminal([$0] + first.dropFirst(), environment: environment)
      } ?? .failed("\(first[0]) was not found")
    switch start {
    case .started:
      return Check(
        name: "terminal", ok: true, detail: shown + " (started it once: it runs here)", fix: nil)
    case .failed(let reason):
      return Check(
        name: "terminal", ok: false, detail: shown + ", but it did not start: \(reason)",
        fix: "set one that runs in this session: nudge config set terminal \"xterm -e\"")
    }
  }

  /// The zone reminders and days are counted in: `TZ` naming no zone means UTC, silently
  /// for systemd and the C library, so it is said here.
  func zoneCheck(_ ctx: Context) -> Check {
    let tz = ctx.environment["TZ"]
    if let problem = ctx.zones.problem(tz: tz) {
      let parts = problem.split(separator: "; ", maxSplits: 1).map(String.init)
      return Check(
        name: "time zone", ok: false, detail: parts[0],
        fix: parts.last.map { $0.hasSuffix(".") ? String($0.dropLast()) : $0 })
    }
    let detail =
      switch tz {
      case nil: "the system's (/etc/localtime)"
      case ""?: "UTC (TZ is empty)"
      case let tz?: "\(VisibleText.escaped(tz)) (TZ)"
      }
    return Check(name: "time zone", ok: true, detail: detail, fix: nil)
  }

  func run(_ ctx: Context) throws {
    let results = checks(ctx)
    try ctx.render(results, json: json) {
      for check in results {
        let mark = check.ok ? ctx.style.green("✓") : ctx.style.yellow("✗")
        ctx.line("\(mark) \(check.name): \(check.detail)")
        if !check.ok, let fix = check.fix { ctx.line("    fix: \(fix)") }
      }
    }
    if results.contains(where: { !$0.ok }) {
      throw CLIError("\(results.filter { !$0.ok }.count) check(s) need attention.", code: .failure)
    }
  }
}
