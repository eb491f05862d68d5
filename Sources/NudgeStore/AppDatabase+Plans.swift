import FoundationEssentials
import NudgeCore

extension AppDatabase {
  // MARK: - Entries of the flows plan files define

  /// The entries of defined flows (of `flow` alone, when given) from `first` through `last`.
  public func answeredEntries(flow: String? = nil, from first: Day, through last: Day)
    throws(StoreError) -> [AnsweredEntry]
  {
    try read { db in try db.answeredEntries(flow: flow, from: first, through: last) }
  }

  // MARK: - Plans turned on and off

  /// The plans a person turned on or off (`nudge plan on|off`), by name; a plan not named
  /// follows its file's `on`.
  public func planChoices() throws(StoreError) -> [String: Bool] {
    try read { db in
      var choices: [String: Bool] = [:]
      _ = try db.rows("SELECT plan, is_on FROM plan_choice") { row in
        if let plan = row.text(at: 0) { choices[plan] = (row.integer(at: 1) ?? 0) != 0 }
      }
      return choices
    }
  }

  /// Remembers that `plan` is turned on or off.
  public func choosePlan(_ plan: String, on: Bool) throws(StoreError) {
    try write { db in
      try db.execute(
        """
        INSERT INTO plan_choice (plan, is_on) VALUES (?, ?)
        ON CONFLICT (plan) DO UPDATE SET is_on = excluded.is_on
        """, [.text(plan), SQLValue(on)])
    }
  }
}

extension SQLiteConnection {
  /// The entries of defined flows (of `flow` alone, when given) in a range of days, by day
  /// then flow.
  func answeredEntries(flow: String? = nil, from first: Day, through last: Day) throws
    -> [AnsweredEntry]
  {
    var condition = "day >= ? AND day <= ?"
    var arguments = [SQLValue(first), SQLValue(last)]
    if let flow {
      condition += " AND flow = ?"
      arguments.append(.text(flow))
    }
    return try flowEntries(condition, arguments).compactMap(\.answeredEntry)
  }
}
