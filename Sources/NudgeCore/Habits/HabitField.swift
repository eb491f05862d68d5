/// Each field of a habit's definition, declared once: its name (the export's and sync's key,
/// and the store's column), the words a conflict about it is listed in, and its value as text,
/// as a person compares two versions (`SyncValue.fields`). A new field is a case here, its
/// property on `Habit` and `ExportHabit`, its column (a migration) and its check; the compiler
/// asks this switch for its words and its text, and `HabitFieldTests` fails while any path
/// (the export, the store's table, sync's fields, the conflict listing) lacks it.
public enum HabitField: String, CaseIterable, Sendable {
  case name, question, every, at
  case alsoAt = "also_at"
  case target, unit, since, archived, tags
  case atMost = "at_most"
  case quit

  /// How a conflict about it is listed ("How often: kept 'daily', won '3/week'").
  public var words: String {
    switch self {
    case .name: "Name"
    case .question: "What its reminder asks"
    case .every: "How often"
    case .at: "Reminder time"
    case .alsoAt: "Its further reminders"
    case .target: "Target a day"
    case .unit: "Unit"
    case .since: "Counted from"
    case .archived: "Archived"
    case .tags: "Tags"
    case .atMost: "A limit (at most)"
    case .quit: "A habit to quit"
    }
  }

  /// Its value in `habit` as text (nil: it has none, or an export from before it).
  public func text(in habit: ExportHabit) -> String? {
    func yesNo(_ value: Bool?) -> String? { value.map { $0 ? "yes" : "no" } }
    return switch self {
    case .name: habit.name
    case .question: habit.question
    case .every: habit.every
    case .at: habit.at
    case .alsoAt: habit.alsoAt?.joined(separator: ", ")
    case .target: habit.target.map(String.init)
    case .unit: habit.unit
    case .since: habit.since.description
    case .archived: yesNo(habit.archived)
    case .tags: habit.tags?.joined(separator: ", ")
    case .atMost: yesNo(habit.atMost)
    case .quit: yesNo(habit.quit)
    }
  }
}
