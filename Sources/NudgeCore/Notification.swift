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

  public init(title: String, body: String, actions: [Action]) {
    self.title = title
    self.body = body
    self.actions = actions
  }

  /// The reminder for a slot, with the streak in its body (DESIGN §4).
  public static func reminder(_ slot: Slot, streak: Int) -> DesktopNotification {
    var actions = [Action("default", "Open"), Action("open", "Open")]
    if slot == .evening { actions.append(Action("done", "All prepped")) }
    actions.append(Action("snooze", "Snooze 15 min"))
    let streakLine =
      streak > 0 ? "\n🔥 \(streak)-day streak — keep it going." : "\nStart a streak today."
    return DesktopNotification(title: slot.title, body: slot.body + streakLine, actions: actions)
  }

  /// The celebration posted after `done` from a notification.
  public static func celebration(_ c: Celebration) -> DesktopNotification {
    let title = c.achievements.isEmpty ? c.message : "🏆 \(c.achievements[0].title)"
    let body = c.achievements.isEmpty ? "Prep saved. See you in the morning." : c.message
    return DesktopNotification(
      title: title, body: body,
      actions: [Action("default", "Celebrate"), Action("celebrate", "Celebrate")])
  }
}

/// How a posted notification ended.
public enum NotificationOutcome: Equatable, Sendable {
  /// A button was clicked (`default`, `open`, `done`, `snooze`, `celebrate`).
  case action(String)
  /// Closed without a click (dismissed, or closed by the server).
  case closed
  /// Nobody answered within the wait bound; the notification stays on screen.
  case timedOut
  /// It could not be shown: no session bus, no server, or no `actions` capability.
  case undelivered(String)
}

/// Posts desktop notifications; the live one is libnotify, tests use a recorder.
public protocol Notifier {
  /// Shows `notification` and waits (at most `seconds`) for a click or a close.
  func post(_ notification: DesktopNotification, waitSeconds: Double) -> NotificationOutcome
}
