/// The tray icon's menu (`nudge tray`): today's flows (each opens in a terminal, as a
/// notification's click does), today's habits (a yes/no one ticks, a measurable one asks its
/// amount in a terminal), Pause or Resume, and Open today — at most `maxHabits` habits, the
/// rest said in a line. Its labels are shown as the panel reads them: escaped, underscores
/// doubled (a single one marks a keyboard accelerator in dbusmenu).
public struct TrayMenu: Equatable, Sendable {
  /// What choosing an item does.
  public enum Action: Equatable, Sendable {
    /// Opens the link in a terminal (a flow, a measurable habit's amount, the today view).
    case open(DeepLink)
    /// Marks a yes/no habit done today, by its name.
    case tick(String)
    /// Pauses today (a day off) or takes today's pause back.
    case pauseToday, resume
  }

  /// One entry of the menu.
  public struct Item: Equatable, Sendable {
    /// Its dbusmenu id: the same for what it stands for (a flow's link, a habit) as long as
    /// the tray runs, whatever moves around it (`IDs`).
    public var id: Int32
    /// Its label as dbusmenu carries it (escaped; `_` doubled); empty for a separator.
    public var label: String
    public var enabled: Bool
    public var isSeparator: Bool
    /// What choosing it does; nil for a separator or a line that only says something.
    public var action: Action?

    init(id: Int32, label: String, enabled: Bool = true, action: Action? = nil) {
      self.id = id
      self.label = Self.dbusmenuLabel(label)
      self.enabled = enabled && action != nil
      isSeparator = false
      self.action = action
    }

    static func separator(_ id: Int32) -> Item {
      var item = Item(id: id, label: "")
      item.isSeparator = true
      return item
    }

    /// `text` escaped (control, bidi and line-breaking characters shown as escapes) with its
    /// underscores doubled.
    static func dbusmenuLabel(_ text: String) -> String {
      VisibleText.escaped(text).replacing("_", with: "__")
    }
  }

  /// The dbusmenu ids of what a menu stands for, kept for as long as the tray runs: a flow's
  /// and a habit's item keep theirs however the menu changes around them, and an id is never
  /// given to something else, so a click on a menu the panel drew before a change acts on its
  /// own item or, gone, on nothing.
  public struct IDs: Equatable, Sendable {
    private var assigned: [String: Int32] = [:]
    /// The next id to give: below it are the fixed items' (separators, Pause, Open today).
    private var next: Int32 = 100

    public init() {}

    /// The id of `key` ("flow nudge://prep", "habit 7"), given now if it has none.
    mutating func id(for key: String) -> Int32 {
      if let id = assigned[key] { return id }
      assigned[key] = next
      next += 1
      return next - 1
    }
  }

  /// A habit as the menu lists it.
  public struct Habit: Equatable, Sendable {
    /// The habit's own id (its item keeps its menu id through a rename).
    public var id: Int
    public var name: String
    public var state: HabitProgress.DayState
    public var isMeasurable: Bool

    public init(id: Int, name: String, state: HabitProgress.DayState, isMeasurable: Bool) {
      self.id = id
      self.name = name
      self.state = state
      self.isMeasurable = isMeasurable
    }
  }

  /// The most habits listed; the rest are said in one line ("and 480 more").
  public static let maxHabits = 20

  public var items: [Item]

  /// The menu of `flows` (this part of the day's), `habits` (those wanted today), and whether
  /// today is a day off; its items' ids from `ids`, which keeps those it gives.
  public init(flows: [PanelStatus.FlowItem], habits: [Habit], paused: Bool, ids: inout IDs) {
    var items: [Item] = []
    for flow in flows {
      items.append(
        Item(
          id: ids.id(for: "flow " + flow.link.url), label: (flow.done ? "✓ " : "○ ") + flow.title,
          enabled: !flow.done, action: .open(flow.link)))
    }
    let listed = habits.filter { $0.state != .notDue }
    if !listed.isEmpty {
      if !items.isEmpty { items.append(.separator(2)) }
      for habit in listed.prefix(Self.maxHabits) {
        let mark: String
        switch habit.state {
        case .done: mark = "✓ "
        case .skipped: mark = "- "
        case .failed: mark = "✗ "
        case .due, .notDue: mark = "○ "
        }
        let action: Action =
          habit.isMeasurable ? .open(.habit(habit.name)) : .tick(habit.name)
        items.append(
          Item(
            id: ids.id(for: "habit \(habit.id)"),
            label: mark + habit.name + (habit.isMeasurable ? "…" : ""),
            enabled: habit.state == .due, action: action))
      }
      if listed.count > Self.maxHabits {
        items.append(Item(id: 3, label: "and \(listed.count - Self.maxHabits) more"))
      }
    }
    items.append(.separator(4))
    items.append(
      paused
        ? Item(id: 7, label: "Resume", action: .resume)
        : Item(id: 5, label: "Pause today", action: .pauseToday))
    items.append(Item(id: 6, label: "Open today", action: .open(.today)))
    self.items = items
  }

  /// The item with `id`, nil for one this menu does not have (a stale or forged id).
  public func item(_ id: Int32) -> Item? { items.first { $0.id == id } }
}
