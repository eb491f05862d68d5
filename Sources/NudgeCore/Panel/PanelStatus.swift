/// What the panel shows of today (`nudge status`): one short line, a tooltip with the day's
/// list, a state a status bar styles by, and the link a click opens — decided from the day's
/// flows, habits and pause alone.
public struct PanelStatus: Equatable, Sendable {
  /// How the day stands, for a bar's CSS class and the tray's icon.
  public enum State: String, Equatable, Sendable, CaseIterable {
    /// A flow of this part of the day, or a habit, is still to do.
    case due
    /// Nothing is left for now.
    case done
    /// A day off (`nudge pause`).
    case paused
    /// A flow its reminder asked for today is still not done.
    case overdue
  }

  /// A flow of this part of the day.
  public struct FlowItem: Equatable, Sendable {
    /// Its title as the person sees it (escaped by the caller when it comes from a file).
    public var title: String
    public var link: DeepLink
    public var done: Bool
    /// Its reminder came today and it is not done yet.
    public var reminded: Bool

    public init(title: String, link: DeepLink, done: Bool, reminded: Bool = false) {
      self.title = title
      self.link = link
      self.done = done
      self.reminded = reminded
    }
  }

  /// One of the person's habits wanted today (or this week or month).
  public struct HabitItem: Equatable, Sendable {
    public var name: String
    public var state: HabitProgress.DayState

    public init(name: String, state: HabitProgress.DayState) {
      self.name = name
      self.state = state
    }
  }

  public var state: State
  /// The one line: "🔥 5 · Prep · 2 habits left".
  public var text: String
  /// The day's list, a line each, at most `maxTooltipLines`.
  public var tooltip: [String]
  /// What a click opens: the next flow to do, else the today view.
  public var next: DeepLink
  public var streak: Int
  /// How many habits are still to do today.
  public var habitsLeft: Int

  /// The most tooltip lines: a long list ends "and N more".
  public static let maxTooltipLines = 20

  /// The status of `today` (`heading`: the day as the tooltip's first line says it): the
  /// streak, this part of the day's flows, the habits wanted today, and the pause holding
  /// today (`pausedUntil`, its last day as said, "Fri 27 Nov"). Names are shown as given:
  /// the caller escapes them for where they go.
  public init(
    heading: String, streak: Int, flows: [FlowItem], habits: [HabitItem], pausedUntil: String?
  ) {
    self.streak = streak
    let left = habits.filter { $0.state == .due }
    habitsLeft = left.count
    let due = flows.filter { !$0.done }
    let leftWords = left.count == 1 ? "1 habit left" : "\(left.count) habits left"
    if let pausedUntil {
      state = .paused
      text = "⏸ paused until \(pausedUntil)"
      next = .today
    } else if let first = due.first {
      state = due.contains(where: \.reminded) ? .overdue : .due
      text = "🔥 \(streak) · \(first.title)" + (left.isEmpty ? "" : " · \(leftWords)")
      next = first.link
    } else if !left.isEmpty {
      state = .due
      text = "🔥 \(streak) · \(leftWords)"
      next = .today
    } else {
      state = .done
      text = "🔥 \(streak) · all done"
      next = .today
    }
    var lines = [heading + " · streak " + (streak == 1 ? "1 day" : "\(streak) days")]
    if let pausedUntil { lines.append("Days off until \(pausedUntil)") }
    for flow in flows {
      lines.append((flow.done ? "✓ " : flow.reminded ? "! " : "○ ") + flow.title)
    }
    for habit in habits {
      let mark: String
      switch habit.state {
      case .done: mark = "✓ "
      case .skipped: mark = "- "
      case .failed: mark = "✗ "
      case .due: mark = "○ "
      case .notDue: continue
      }
      lines.append(mark + habit.name)
    }
    if lines.count > Self.maxTooltipLines {
      let more = lines.count - (Self.maxTooltipLines - 1)
      lines = Array(lines.prefix(Self.maxTooltipLines - 1)) + ["and \(more) more"]
    }
    tooltip = lines
  }

  /// The first instant after `now` at which the status can change with nothing written: the
  /// part of the day turning (`DayPhase`) or the day itself (at the rollover hour), found on
  /// the hours of the local clock `zone` keeps (a `--follow` sleeps until then).
  public static func nextChange(after now: Instant, in zone: ZoneRules, rolloverHour: Int)
    -> Instant
  {
    let rule = DayRule(rolloverHour: rolloverHour)
    func part(_ instant: Instant) -> (Day, DayPhase) {
      (
        rule.day(of: instant, in: zone),
        DayPhase.of(LocalTime(instant, in: zone), rolloverHour: rolloverHour)
      )
    }
    let start = part(now)
    var instant = now
    // two days of hours at most: each part of the day is shorter
    for _ in 0..<50 {
      let local = LocalTime(instant, in: zone)
      instant = Instant(seconds: instant.seconds + 3600 - (local.minute * 60 + local.second))
      if part(instant) != start { return instant }
    }
    return instant
  }
}
