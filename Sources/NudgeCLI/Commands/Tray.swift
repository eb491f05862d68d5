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
      (no polling), and registers again when the panel restarts. Without a tray it waits \
      quietly for one. It runs until stopped (SIGTERM or Ctrl-C); nudge doctor says whether \
      a tray is there.
      """)

  func run(_ ctx: Context) throws {
    let db = try ctx.openDatabase()
    var day = try PanelDay.read(ctx, db, at: ctx.clock.now())
    let service: TrayService
    do throws(TrayService.Failure) {
      service = try TrayService(
        environment: ctx.environment, look: Self.look(day.status), menu: day.menu)
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
    let syncFolder = [(try? db.syncDevice())??.folder].compactMap { $0 }
    let watch = WakeWatch(
      zonePaths: ReminderScheduler.zoneFiles(tz: ctx.environment["TZ"]),
      directories: [parentDirectory(of: db.path)] + syncFolder)
    watch.stopOnTermination()
    var lastOpened: Instant? = nil
    while true {
      var reread = false
      // calls read while a message was written wait in the connection, not on the socket
      let reason =
        service.holdsCalls
        ? .readable
        : watch.wait(seconds: Self.secondsToNextChange(ctx, db), readable: service.descriptor)
      switch reason {
      case .stopped: return
      case .readable:
        let choices: [TrayService.Choice]
        do throws(TrayService.Failure) { choices = try service.answer() } catch {
          throw CLIError("the tray lost the session bus: \(error.message)", code: .unavailable)
        }
        for choice in choices {
          do { try perform(choice.item, ctx, db, lastOpened: &lastOpened) } catch {
            ctx.output.writeError("nudge: tray: \(Self.said(error))\n")
          }
        }
        // a peer's calls alone change nothing shown
        reread = !choices.isEmpty
      case .changed:
        // a write is several events: let it finish; what another computer wrote comes in
        _ = watch.wait(seconds: 0.05)
        if !syncFolder.isEmpty { _ = SyncRunner.takeIn(ctx, db) }
        reread = true
      case .deadline, .clockSet, .zoneChanged: reread = true
      }
      guard reread else { continue }
      // forgotten before the read: a write landing during it wakes the next wait
      watch.forgetChanges()
      if let read = try? PanelDay.read(ctx, db, at: ctx.clock.now()) {
        day = read
        do throws(TrayService.Failure) {
          try service.show(Self.look(day.status), menu: day.menu)
        } catch {
          throw CLIError("the tray lost the session bus: \(error.message)", code: .unavailable)
        }
      }
    }
  }

  /// Seconds until the status can change with nothing written (a day's part or the day
  /// turning); a database that cannot be read now: a minute.
  static func secondsToNextChange(_ ctx: Context, _ db: AppDatabase) -> Double {
    let now = ctx.clock.now()
    guard let rollover = try? db.settings().rolloverHour else { return 60 }
    return max(
      0.001,
      PanelStatus.nextChange(after: now, in: ctx.timeZone, rolloverHour: rollover).seconds(
        since: now))
  }

  /// An error as one line.
  static func said(_ error: any Error) -> String {
    (error as? CLIError)?.message ?? (error as? StoreError).map { CLIError($0).message }
      ?? "\(error)"
  }

  /// The icon's look for a status: its state, "Nudge · 🔥 5 · Prep", the day's list.
  static func look(_ status: PanelStatus) -> TrayService.Look {
    TrayService.Look(state: status.state, title: "Nudge · " + status.text, lines: status.tooltip)
  }

  /// Does what a menu item says: opens a link in a terminal (at most one a second: a flood of
  /// clicks is one), ticks a yes/no habit as a notification's Done does, pauses or resumes
  /// today.
  func perform(
    _ item: TrayMenu.Item, _ ctx: Context, _ db: AppDatabase, lastOpened: inout Instant?
  ) throws {
    guard let action = item.action else { return }
    let now = ctx.clock.now()
    let settings = try db.settings()
    let (today, savedAt) = ctx.today(settings, at: now)
    switch action {
    case .open(let link):
      if let last = lastOpened, now.seconds(since: last) < 1 { return }
      lastOpened = now
      do { try ctx.launcher.open(link.url, in: ctx, activationToken: nil) } catch {
        ctx.output.writeError("nudge: tray: \(error)\n")
      }
    case .tick(let name):
      guard let habit = try db.habits().first(where: { $0.name == name }), !habit.isMeasurable
      else { return }
      let note = try db.habitChecks(habit.id, from: today).first { $0.day == today }?.note
      let (_, settled) = try HabitChanges(db: db).record(
        HabitCheck(day: today, .done, note: note, savedAt: savedAt), habit: habit.id,
        madeOn: today, at: savedAt)
      let streak = try HabitReport.of(
        habit, db, today: today, scoring: false, weekStart: ctx.weekStart(settings)
      ).streak
      _ = ctx.notifier.post(
        .habitRecorded(
          Reminder.HabitOffer(habit, streak: streak), as: .done, streak: streak,
          earned: settled.newAchievements.first),
        wait: DesktopNotification.Wait(seconds: 0))
    case .pauseToday:
      _ = try PauseDays(db: db)(Pause(firstDay: today, lastDay: today), today: today, at: savedAt)
    case .resume:
      _ = try PauseDays(db: db).resume(today: today, at: savedAt)
    }
  }
}
