import ArgumentParser
import NudgeCore
import NudgeLinux
import NudgeStore
import NudgeUseCases

/// `nudge tray`: Nudge's icon on the panel (a StatusNotifierItem with its menu), kept right by
/// watching the files, until stopped.
struct TrayCommand: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "tray",
    abstract:
      "Nudge's icon on the panel: today's state, and a menu to open a flow or tick a habit.",
    discussion: """
      Serves a StatusNotifierItem (the tray of KDE Plasma, XFCE, LXQt, waybar, and GNOME \
      with its AppIndicator extension) and its menu: today's flows (each opens in a \
      terminal, as a notification's click does), today's habits (a yes/no one is ticked, a \
      measurable one asks its amount in a terminal), Pause today or Resume, and Open today. \
      The icon and its tooltip follow the day: it watches the database and the sync folder \
      (no polling), and registers again when the panel restarts. Without a tray it says so \
      once and waits for one. It runs until stopped (SIGTERM or Ctrl-C); nudge doctor says whether \
      a tray is there. 'nudge tray on' has the systemd user manager start it with every \
      graphical session (nudge-tray.service, wanted by graphical-session.target), now too; \
      'nudge tray off' takes that back.
      """)

  /// Whether the user manager starts the tray with the graphical session.
  enum StartWithSession: String, CaseIterable, ExpressibleByArgument {
    case on, off
  }

  @Argument(
    help: ArgumentHelp(
      "on: start the tray with every graphical session (a systemd user unit), now too; off: no longer.",
      valueName: "on|off"))
  var startWithSession: StartWithSession?

  @Flag(help: "With on or off: print every file and command instead of writing or running them.")
  var dryRun = false

  func validate() throws {
    if dryRun && startWithSession == nil { throw ValidationError("--dry-run goes with on or off") }
  }

  func run(_ ctx: Context) throws {
    if let startWithSession {
      let units = UserUnits(ctx: ctx, dryRun: dryRun)
      let said = try startWithSession == .on ? units.enableTray() : units.disableTray()
      if !dryRun { ctx.line(said) }
      return
    }
    let db = try ctx.openDatabase()
    var panel = PanelWatch(ctx, db)
    var ids = TrayMenu.IDs()
    let day = try panel.read()
    let service: TrayService
    do throws(TrayService.Failure) {
      service = try TrayService(
        environment: ctx.environment, look: Self.look(day.status), menu: day.menu(ids: &ids))
    } catch {
      throw CLIError(
        "cannot show the tray icon: \(error.message); run it in your desktop session (nudge doctor checks it)",
        code: .unavailable)
    }
    if !service.registered {
      ctx.output.writeError(
        "nudge: no tray on this panel yet (no StatusNotifierWatcher); the icon appears when one starts\n"
      )
    }
    var lastOpened: Instant? = nil
    while true {
      // calls read while a message was written wait in the connection, not on the socket
      switch service.holdsCalls ? .peerCalled : panel.next(peer: service.descriptor) {
      case .stopped: return
      case .peerCalled:
        let choices: [TrayService.Choice]
        do throws(TrayService.Failure) { choices = try service.answer() } catch {
          throw CLIError("the tray lost the session bus: \(error.message)", code: .unavailable)
        }
        for choice in choices {
          do { try perform(choice, panel.ctx, db, lastOpened: &lastOpened) } catch {
            ctx.output.writeError("nudge: tray: \(CLIError.from(error)?.message ?? "\(error)")\n")
          }
        }
        // a peer's calls alone change nothing shown
        if choices.isEmpty { continue }
      case .changed: break
      }
      // a day that cannot be read now stays as shown; the next change tries again
      guard let day = try? panel.read() else { continue }
      do throws(TrayService.Failure) {
        try service.show(Self.look(day.status), menu: day.menu(ids: &ids))
      } catch {
        throw CLIError("the tray lost the session bus: \(error.message)", code: .unavailable)
      }
    }
  }

  /// The icon's look for a status: its state, "Nudge · 🔥 5 · Prep", the day's list.
  static func look(_ status: PanelStatus) -> TrayService.Look {
    TrayService.Look(state: status.state, title: "Nudge · " + status.text, lines: status.tooltip)
  }

  /// Does what a menu item says: opens a link in a terminal with the click's focus token (at
  /// most one a second: a flood of clicks is one), ticks a yes/no habit as a notification's Done does, pauses or resumes
  /// today.
  func perform(
    _ choice: TrayService.Choice, _ ctx: Context, _ db: AppDatabase, lastOpened: inout Instant?
  ) throws {
    guard let action = choice.item.action else { return }
    let now = ctx.clock.now()
    let settings = try db.settings()
    let (today, savedAt) = ctx.today(settings, at: now)
    switch action {
    case .open(let link):
      if let last = lastOpened, now.seconds(since: last) < 1 { return }
      lastOpened = now
      do { try ctx.launcher.open(link.url, in: ctx, activationToken: choice.token) } catch {
        ctx.output.writeError(
          "nudge: tray: \(CLIError.from(error)?.message ?? "\(error)")\n")
      }
    case .tick(let name):
      guard let habit = try db.habits().first(where: { $0.name == name }), !habit.isMeasurable
      else { return }
      try HabitTick(ctx: ctx, db: db)(
        Reminder.HabitOffer(habit, streak: 0), as: .done, settings: settings)
    case .pauseToday:
      _ = try PauseDays(db: db)(Pause(firstDay: today, lastDay: today), today: today, at: savedAt)
    case .resume:
      _ = try PauseDays(db: db).resume(today: today, at: savedAt)
    }
  }
}
