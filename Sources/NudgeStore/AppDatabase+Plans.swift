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
  /// The entries of defined flows in a range of days, by day then flow. A row whose answers
  /// are not a JSON object of texts is unreadable (a newer Nudge's, or a damaged file).
  func answeredEntries(flow: String? = nil, from first: Day, through last: Day) throws
    -> [AnsweredEntry]
  {
    var sql = "SELECT flow, day, answers, saved_at FROM flow_entry WHERE day >= ? AND day <= ?"
    var arguments = [SQLValue(first), SQLValue(last)]
    if let flow {
      sql += " AND flow = ?"
      arguments.append(.text(flow))
    }
    return try rows(sql + " ORDER BY day, flow", arguments) { row in
      guard let word = row.text(at: 0), let day = row.text(at: 1).flatMap({ Day($0) }),
        let text = row.text(at: 2), let savedAt = row.text(at: 3),
        let values = try? JSONDecoder().decode([String: String].self, from: Data(text.utf8))
      else { throw UnreadableValue(column: "flow_entry", text: row.text(at: 2)) }
      return AnsweredEntry(
        flow: word, day: day, answers: FlowAnswers(values: values), savedAt: savedAt)
    }
  }

  /// Stores a defined flow's entry of a day, replacing the one it had.
  func putAnsweredEntry(_ entry: AnsweredEntry) throws {
    let sorted = entry.answers.values.sorted { $0.key < $1.key }
    var object = "{"
    for (index, (key, value)) in sorted.enumerated() {
      if index > 0 { object += "," }
      object += try Self.jsonString(key) + ":" + Self.jsonString(value)
    }
    object += "}"
    try execute(
      """
      INSERT INTO flow_entry (flow, day, answers, saved_at) VALUES (?, ?, ?, ?)
      ON CONFLICT (flow, day) DO UPDATE SET answers = excluded.answers, saved_at = excluded.saved_at
      """, [.text(entry.flow), SQLValue(entry.day), .text(object), .text(entry.savedAt)])
  }

  private static func jsonString(_ text: String) throws -> String {
    String(decoding: try JSONEncoder().encode(text), as: UTF8.self)
  }
}
