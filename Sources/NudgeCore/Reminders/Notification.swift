/// A desktop notification to post: what it says and which buttons it has.
public struct DesktopNotification: Equatable, Sendable {
  /// A button: its action id and the label a person sees.
  public struct Action: Equatable, Sendable {
    public var id: String
    public var label: String

    public init(_ id: String, _ label: String) {
      self.id = id
      self.label = label
    }
  }

  public var title: String
  public var body: String
  public var actions: [Action]
  /// The icon name in the icon theme (`nudge`, installed to hicolor by `nudge install`).
  public var icon: String
  /// The `category` hint, which rules in dunst, mako and swaync can match.
  public var category: String

  /// A link to end the body with: clickable where the server makes links in a body clickable
  /// (`body-hyperlinks`), opening the flow through the `nudge://` handler; elsewhere the
  /// command that opens it.
  public var link: Reminder.Offer?

  /// The body as the server shows it: with `link` as a hyperlink or as the command to run.
  public func body(hyperlinks: Bool) -> String {
    guard let link else { return body }
    let url = link.deepLink.url
    return body
      + (hyperlinks
        ? " Open it: <a href=\"\(url)\">\(url)</a>"
        : " Run: nudge " + VisibleText.escapedForMarkup(link.command))
  }

  /// The category of every reminder (and of the notices that stand in for one).
  public static let reminderCategory = "x-nudge.reminder"
  /// The category of a celebration.
  public static let celebrationCategory = "x-nudge.celebration"

  public init(
    title: String, body: String, actions: [Action], icon: String = "nudge",
    category: String = DesktopNotification.reminderCategory
  ) {
    self.title = title
    self.body = body
    self.actions = actions
    self.icon = icon
    self.category = category
  }

  /// The reminder for a slot, offering `flow` (the slot's own by default; the evening's
  /// check-in once the prep is done), with the streak in its body (DESIGN §4). Open is the
  /// `default` action only (a click on the body; servers that draw it as a button draw it once).
  /// `hour`: the local hour it is posted at (the morning's words fit the morning: a demo in
  /// the afternoon says another).
  /// `pending`: the flows other plans give this slot that are not done today; the reminder
  /// names them too ("Also: Your sleep challenge is ready — nudge sleep"), and says one in
  /// its own words when it is what is offered.
  /// `readiness`: the morning's first line of `nudge health brief`, when last night is known
  /// (shown escaped: a source's name is outside text).
  public static func reminder(
    _ slot: ReminderSource, streak: Int, snoozeSeconds: Int = 900, offering: Reminder.Offer? = nil,
    pending: [FlowDefinition] = [], slotTitle: String? = nil, hour: Int? = nil,
    readiness: String? = nil
  ) -> DesktopNotification {
    let offered = offering ?? slot.firstOffer
    if case .habit(let habit) = offered {
      return Self.habitReminder(habit, snoozeSeconds: snoozeSeconds)
    }
    var actions = [Action(Reminder.Action.open.rawValue, "Open")]
    if offered == .flow(.prep) {
      actions.append(Action(Reminder.Action.done.rawValue, "All prepped"))
    }
    actions.append(
      Action(
        Reminder.Action.snooze.rawValue, "Snooze \(DurationText.spoken(seconds: snoozeSeconds))"))
    let streakLine =
      streak > 0 ? "\n🔥 \(streak)-day streak — keep it going." : "\nStart a streak today."
    var (title, body) =
      offered == .flow(.checkin) && slot == .evening
      ? ("Check in on today", "Prep's done. Did the swap work? One minute, then rest.")
      : (slot.title, slot.body(hour: hour))
    // a plan file's words are shown escaped (a plan's own slot: its title leads)
    if case .flow(let offeredFlow) = offered, let word = offeredFlow.definedWord,
      let flow = pending.first(where: { $0.word == word })
    {
      title = slotTitle ?? VisibleText.escaped(flow.reminder ?? flow.title)
      // (the body is markup to many servers: a plan's words never make a link or an image)
      let line =
        slotTitle == nil ? nil : flow.reminder.map { VisibleText.escapedForMarkup($0) + "\n" }
      body =
        (line ?? "") + VisibleText.escapedForMarkup(flow.title) + ": one minute, then it counts."
    }
    let also = pending.filter { offered != .flow(.defined($0.word)) }.map {
      "\nAlso: \(VisibleText.escapedForMarkup($0.reminder ?? $0.title)) — nudge \($0.word)"
    }
    let health = readiness.map { "\n" + VisibleText.escapedForMarkup($0) } ?? ""
    return DesktopNotification(
      title: title, body: body + health + also.joined() + streakLine, actions: actions)
  }

  /// A habit's reminder: its name, its question and its streak; Done (which records it, or
  /// for a measurable habit opens the terminal to ask the amount), Snooze, Skip and No (the
  /// day not done: a miss, and no more reminders that day) — no Open:
  /// a click on its body records nothing. Its words are the person's: shown escaped.
  public static func habitReminder(_ habit: Reminder.HabitOffer, snoozeSeconds: Int)
    -> DesktopNotification
  {
    let unit = habit.streak == 1 ? String(habit.streakUnit.dropLast()) : habit.streakUnit
    let streakLine =
      habit.streak > 0
      ? "\n🔥 \(habit.streak)-\(unit.hasSuffix("s") ? String(unit.dropLast()) : unit) streak — keep it going."
      : ""
    return DesktopNotification(
      title: VisibleText.escaped(habit.name),
      body: VisibleText.escapedForMarkup(habit.question) + streakLine,
      actions: [
        Action(Reminder.Action.done.rawValue, "Done"),
        Action(
          Reminder.Action.snooze.rawValue,
          "Snooze \(DurationText.spoken(seconds: snoozeSeconds))"),
        Action(Reminder.Action.skip.rawValue, "Skip"),
        Action(Reminder.Action.no.rawValue, "No"),
      ])
  }

  /// Says a habit was recorded from its reminder: no buttons, and the server takes it away
  /// after its usual time.
  /// `earned`: an achievement the done earned, said in its body.
  public static func habitRecorded(
    _ habit: Reminder.HabitOffer, as mark: HabitCheck.Mark, streak: Int,
    earned: Achievement? = nil
  ) -> DesktopNotification {
    let unit = streak == 1 ? String(habit.streakUnit.dropLast()) : habit.streakUnit
    let name = VisibleText.escaped(habit.name)
    return switch mark {
    case .skipped:
      DesktopNotification(
        title: "Skipped: " + name, body: "Skipped today; your streak waits.", actions: [])
    case .failed:
      DesktopNotification(
        title: "Not today: " + name,
        body: "Marked no for today; no more reminders for it today. Tomorrow starts fresh.",
        actions: [])
    case .done:
      DesktopNotification(
        title: "✓ Done: " + name,
        body: "Streak: \(streak) \(unit). Well done."
          + (earned.map { "\n🏆 New achievement: \($0.title)" } ?? ""),
        actions: [])
    }
  }

  /// The same reminder for nobody waiting (`--wait 0`): no buttons, which would have no one to
  /// answer them, and the command that opens the flow in the body instead.
  public func withoutButtons(command: String) -> DesktopNotification {
    DesktopNotification(
      title: title, body: body + "\nRun: " + VisibleText.escapedForMarkup(command), actions: [],
      icon: icon, category: category)
  }

  /// What stands in for a reminder whose window ended while Do Not Disturb held it back: no
  /// buttons (nobody is left to answer them), left in the server's history, its body ending
  /// with the link that opens the flow.
  public static func missed(_ slot: ReminderSource, offering offer: Reminder.Offer)
    -> DesktopNotification
  {
    var note = DesktopNotification(
      title: "Missed: \(slot.title)", body: slot.heldBackSentence, actions: [])
    note.link = offer
    return note
  }

  /// Says where a click's flow could not be opened, and what to do instead: no buttons.
  public static func openFailed(_ reason: String, offering offer: Reminder.Offer)
    -> DesktopNotification
  {
    DesktopNotification(
      title: "Could not open a terminal",
      body:
        "Could not open a terminal (\(VisibleText.escapedForMarkup(reason))). Run: nudge \(VisibleText.escapedForMarkup(offer.command)) — or set one: nudge config set terminal …",
      actions: [])
  }

  /// The celebration posted after `done` from a notification: one Replay (its `default`).
  public static func celebration(_ c: Celebration) -> DesktopNotification {
    let title = c.achievements.isEmpty ? c.message : "🏆 \(c.achievements[0].title)"
    let body = c.achievements.isEmpty ? "Prep saved. See you in the morning." : c.message
    return DesktopNotification(
      title: title, body: body, actions: [Action(Reminder.Action.open.rawValue, "Replay")],
      category: celebrationCategory)
  }
}

extension Reminder {
  /// The buttons of a reminder, by the action id the server sends back.
  public enum Action: String, Sendable {
    /// The body click (and, on servers that draw it, the Open or Replay button).
    case open = "default"
    /// "All prepped" on the evening reminder; Done on a habit's.
    case done
    case snooze
    /// Skip on a habit's reminder.
    case skip
    /// No on a habit's reminder: the day not done.
    case no
  }
}

/// Why a reminder was taken off the screen without a click.
public enum Withdrawal: Equatable, Sendable {
  /// Its wait (the slot's staleness window) ended.
  case expired
  /// Its flow was finished elsewhere (typed in a terminal).
  case doneElsewhere
  /// Its process was asked to stop (SIGTERM from systemd, SIGINT, SIGHUP).
  case stopped
}

/// Why the server closed a notification (Desktop Notifications' `NotificationClosed` reason).
public enum CloseReason: Equatable, Sendable {
  /// Its time on the screen ran out, by the server's rules (reason 1): not a person's choice.
  case expired
  /// The person dismissed it (reason 2), or the server gave no reason it knows (3, 4).
  case dismissed

  /// The reason the server sent.
  public init(code: Int) { self = code == 1 ? .expired : .dismissed }
}

/// Whether a notification the server has is on the screen, or held back by Do Not Disturb.
public enum Visibility: Equatable, Sendable {
  case shown
  /// Do Not Disturb is on: the server keeps it without showing it.
  case held
}

extension DesktopNotification {
  /// How a posted notification ended.
  public enum Ending: Equatable, Sendable {
    /// A button or the body was clicked; with the server's activation token when it sent one
    /// (Desktop Notifications 1.2 `ActivationToken`), which lets the window the click opens take
    /// the focus.
    case action(Reminder.Action, activationToken: String? = nil)
    /// Closed without a click, and why.
    case closed(CloseReason)
    /// Taken off the screen by Nudge (so no button is ever left without a listener).
    case withdrawn(Withdrawal)
    /// It could not be shown: no session bus, no server, or no `actions` capability.
    case undelivered(String)
    /// Shown without buttons and left on the screen for the server to expire: nobody waits.
    case left
  }
}

extension DesktopNotification {
  /// How long a posted notification is waited for, and what ends the wait early.
  public struct Wait: Sendable {
    /// Seconds to wait for a click before withdrawing the notification; 0 leaves a notification
    /// without buttons on the screen and returns once the server has it.
    public var seconds: Double
    /// Seconds to wait for a notification server that is not (or no longer) on the bus.
    public var serverSeconds: Double
    /// Directories whose changes may mean the flow was done elsewhere (the database's, the
    /// sync folder).
    public var watchDirectories: [String]
    /// True when the reminder is no longer needed (its flow is done); asked after changes.
    public var isDoneElsewhere: @Sendable () -> Bool
    /// Runs once the server has the notification, with whether it is on the screen or held back
    /// by Do Not Disturb, and again each time that changes while it waits.
    public var onVisibility: @Sendable (Visibility) -> Void

    public init(
      seconds: Double, serverSeconds: Double = 0, watchDirectories: [String] = [],
      isDoneElsewhere: @escaping @Sendable () -> Bool = { false },
      onVisibility: @escaping @Sendable (Visibility) -> Void = { _ in }
    ) {
      self.seconds = seconds
      self.serverSeconds = serverSeconds
      self.watchDirectories = watchDirectories
      self.isDoneElsewhere = isDoneElsewhere
      self.onVisibility = onVisibility
    }
  }
}

/// The desktop's notification server as Nudge uses it — the one notifier protocol: libnotify
/// in a live run, a refusing or recording double in tests.
public protocol Notifier: AnyObject, Sendable {
  /// Shows `notification` and waits as `wait` says for a click, a close or a withdrawal.
  func post(_ notification: DesktopNotification, wait: DesktopNotification.Wait)
    -> DesktopNotification.Ending
  /// Why nothing can be shown (no bus, no server, no buttons) after waiting up to `seconds`
  /// for a server to appear; nil when one with buttons is there.
  func unavailableReason(waitingForServer seconds: Double) -> String?
  /// The session as `doctor` reports it: the bus, and the server's name and capabilities.
  func inspect() -> DesktopNotification.ServerStatus
  /// Runs when the server stops answering in the middle of a call; it must end the process
  /// (a blocked D-Bus call cannot be abandoned).
  func whenServerHangs(_ handler: @escaping @Sendable () -> Void)
}

extension DesktopNotification {
  /// What `doctor` finds of the desktop's notifications.
  public enum ServerStatus: Equatable, Sendable {
    /// No D-Bus session bus to find a server on.
    case noSessionBus
    /// A bus, but no server answered (the reason).
    case noServer(String)
    /// A server, its name and its capabilities ("actions", "body"…).
    case server(name: String, capabilities: [String])
  }
}

/// What a notification server answered about Do Not Disturb; nil where it gave no answer (a
/// server without that property refuses the question).
public struct DoNotDisturbAnswers: Equatable, Sendable {
  /// The `Inhibited` property (KDE Plasma; the Desktop Notifications 1.3 draft).
  public var inhibited: Bool?
  /// dunst's `paused` property (`org.dunstproject.cmd0`).
  public var paused: Bool?
  /// The server's name (`GetServerInformation`).
  public var serverName: String?

  public init(inhibited: Bool? = nil, paused: Bool? = nil, serverName: String? = nil) {
    self.inhibited = inhibited
    self.paused = paused
    self.serverName = serverName
  }

  /// Held or shown: `Inhibited` when the server has it, else dunst's `paused`; GNOME Shell
  /// says it by its "Notification banners" switch (read only for it); any other server shows.
  public func visibility(gnomeShowsBanners: () -> Bool) -> Visibility {
    if let inhibited { return inhibited ? .held : .shown }
    if let paused { return paused ? .held : .shown }
    if serverName == "gnome-shell" { return gnomeShowsBanners() ? .shown : .held }
    return .shown
  }
}
