import FoundationEssentials
import NudgeCore

/// Every flow's entries in one table, `flow_entry` (schema 9): a row is a flow's name, the
/// entry's key (its day, or a help note's id), its day, its answers as one JSON object of
/// question id → answer text, and when it was saved. No flow and no question has a table or a
/// column of its own: what an entry means is its flow definition's to say (`StoredEntry`).
extension SQLiteConnection {
  /// The entries matching `condition` (a WHERE clause over `flow`, `key` and `day`), by day,
  /// then flow, then when saved.
  func flowEntries(_ condition: String, _ arguments: [SQLValue] = []) throws -> [FlowEntry] {
    try rows(
      """
      SELECT flow, key, day, answers, saved_at FROM flow_entry WHERE \(condition)
      ORDER BY day, flow, saved_at, key
      """, arguments
    ) { row in
      let flow = row.text(at: 0) ?? ""
      let key = row.text(at: 1) ?? ""
      guard let day = row.text(at: 2).flatMap({ Day($0) }), let text = row.text(at: 3),
        let savedAt = row.text(at: 4),
        let answers = try? JSONDecoder().decode([String: String].self, from: Data(text.utf8))
      else {
        throw UnreadableValue(
          column: "flow_entry", text: row.text(at: 3),
          what: "an entry of \(flow) (\(key)) it cannot read as a day and answers")
      }
      do throws(InputError) {
        return try FlowEntry(
          stored: StoredEntry(flow: flow, key: key, day: day, answers: answers, savedAt: savedAt))
      } catch {
        throw UnreadableValue(column: "flow_entry", text: text, what: error.message)
      }
    }
  }

  /// The entry of `flow` found by `key`, nil when there is none.
  func flowEntry(_ flow: Flow, key: String) throws -> FlowEntry? {
    try flowEntries("flow = ? AND key = ?", [SQLValue(flow), .text(key)]).first
  }

  /// The entries from `first` through `last`.
  func flowEntries(from first: Day, through last: Day) throws -> [FlowEntry] {
    try flowEntries("day >= ? AND day <= ?", [SQLValue(first), SQLValue(last)])
  }

  /// Stores `entry`, replacing the one with its flow and key (`replacing: false`: fails with
  /// SQLITE_CONSTRAINT instead).
  func putFlowEntry(_ entry: FlowEntry, replacing: Bool = true) throws {
    let stored = entry.stored
    let sorted = stored.answers.sorted { $0.key < $1.key }
    var object = "{"
    for (index, (key, value)) in sorted.enumerated() {
      if index > 0 { object += "," }
      object += try Self.jsonString(key) + ":" + Self.jsonString(value)
    }
    object += "}"
    let upsert =
      replacing
      ? """
      ON CONFLICT (flow, key) DO UPDATE SET
      day = excluded.day, answers = excluded.answers, saved_at = excluded.saved_at
      """ : ""
    try execute(
      "INSERT INTO flow_entry (flow, key, day, answers, saved_at) VALUES (?, ?, ?, ?, ?) " + upsert,
      [
        .text(stored.flow), .text(stored.key), SQLValue(stored.day), .text(object),
        .text(stored.savedAt),
      ])
  }

  /// Removes `entry` (the row with its flow and key).
  func removeFlowEntry(_ entry: FlowEntry) throws {
    try execute(
      "DELETE FROM flow_entry WHERE flow = ? AND key = ?", [SQLValue(entry.flow), .text(entry.key)])
  }

  private static func jsonString(_ text: String) throws -> String {
    String(decoding: try JSONEncoder().encode(text), as: UTF8.self)
  }
}
