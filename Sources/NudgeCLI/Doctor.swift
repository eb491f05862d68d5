import ArgumentParser
import Foundation
import NudgeCore
import NudgeDesktop

/// `nudge doctor`: checks everything a reminder needs and says how to fix what fails.
struct DoctorCommand: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "doctor",
    abstract: "Check the notification server, timers, link handler, terminal and database.")

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
    let notifier = LibnotifyNotifier(environment: ctx.environment)
    out.append(
      Check(
        name: "session bus", ok: notifier.hasSessionBus,
        detail: notifier.hasSessionBus ? "D-Bus session bus found" : "no D-Bus session bus",
        fix:
          "log in to a desktop session (or run under dbus-run-session); reminders are printed until then"
      ))
    switch notifier.probe() {
    case .success(let info):
      let actions = info.capabilities.contains("actions")
      out.append(
        Check(
          name: "notification server", ok: actions,
          detail: "\(info.name): \(info.capabilities.joined(separator: ", "))",
          fix: actions
            ? nil : "use a notification server with buttons (dunst, GNOME Shell, KDE Plasma, mako)")
      )
    case .failure(let error):
      out.append(
        Check(
          name: "notification server", ok: false, detail: error.message,
          fix: "start a notification daemon such as dunst (apt-get install dunst)"))
    }
    let units = UserUnits(ctx: ctx, dryRun: true)
    out.append(
      Check(
        name: "systemd user instance", ok: units.hasUserManager,
        detail: units.hasUserManager ? "running" : "not running",
        fix: "run 'nudge daemon' to get reminders without it"))
    out.append(
      Check(
        name: "timers", ok: units.isInstalled,
        detail: units.isInstalled ? "installed in \(units.directory)" : "not installed",
        fix: "run 'nudge install'"))
    let desktop = units.applicationsDirectory + "/" + LinkHandlerFile.name
    let mime = (try? String(contentsOfFile: units.mimeappsPath, encoding: .utf8)) ?? ""
    let handler =
      FileManager.default.fileExists(atPath: desktop)
      && mime.contains("x-scheme-handler/nudge=\(LinkHandlerFile.name)")
    out.append(
      Check(
        name: "nudge:// handler", ok: handler,
        detail: handler ? "registered (\(desktop))" : "not registered",
        fix: "run 'nudge install'"))
    let terminal = (try? TerminalLauncher(ctx: ctx).command(running: ["nudge"])) ?? nil
    out.append(
      Check(
        name: "terminal", ok: terminal != nil,
        detail: terminal.map { "clicks open: \($0.dropLast().joined(separator: " "))" }
          ?? "none found",
        fix: "install a terminal emulator or 'nudge config set terminal \"xterm -e\"'"))
    do {
      let db = try ctx.openDatabase()
      let result = (try? db.integrityCheck()) ?? "could not run integrity_check"
      out.append(
        Check(
          name: "database", ok: result == "ok", detail: "\(db.path): integrity_check \(result)",
          fix:
            "restore from 'nudge export' into a fresh database (set NUDGE_DB to a new file, then 'nudge import')"
        ))
    } catch {
      out.append(Check(name: "database", ok: false, detail: error.message, fix: nil))
    }
    return out
  }

  func run(_ ctx: Context) throws(CLIError) {
    let results = checks(ctx)
    if json {
      ctx.line(jsonText(results))
    } else {
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
