import FoundationEssentials
import NudgeCore

/// Every flow's entries in one table, `flow_entry` (schema 9): a row is the entry's day, its
/// flow's name, a help note's id in `key` ('' for an entry kept by its day), its answers as one
/// JSON object of question id → answer text, and when it was saved. No flow and no question has a table or a
/// column of its own: what an entry means is its flow definition's to say (`StoredEntry`).
extension SQLiteConnection {
  /// The entries matching `condition` (a WHERE clause over `day`, `flow` and `key`), by day,
  /// then flow, then when saved.
  func flowEntries(_ condition: String, _ arguments: [SQLValue] = []) throws -> [FlowEntry] {
    // read in the primary key's order (day, flow, key), which needs no sorting (sorting ten
    // years of rows by when saved was half of SQLite's work); a day's several entries of one
    // flow (help notes) are then put in the order they were saved, as SQL would have
    var found = try rows(
      """
      SELECT day, flow, key, answers, saved_at FROM flow_entry WHERE \(condition)
      ORDER BY day, flow, key
      """, arguments
    ) { row -> ReadEntry in
      let flow = row.text(at: 1) ?? ""
      let key = row.text(at: 2) ?? ""
      guard let day = row.text(at: 0).flatMap({ Day($0) }), let utf8 = row.utf8(at: 3),
        let savedAt = row.text(at: 4),
        // the object `putFlowEntry` writes, read byte by byte from the column; any other
        // spelling through JSONDecoder
        let answers =
          FlatJSON.stringObject(utf8: utf8)
          ?? (try? JSONDecoder().decode(
            [String: String].self, from: Data(String(decoding: utf8, as: UTF8.self).utf8)))
      else {
        throw UnreadableValue(
          column: "flow_entry", text: row.text(at: 3),
          what: "an entry of \(flow) it cannot read as a day and answers")
      }
      do throws(InputError) {
        let entry = try FlowEntry(
          stored: StoredEntry(
            flow: flow, day: day, id: key.isEmpty ? nil : key, answers: answers, savedAt: savedAt))
        return ReadEntry(day: day, flow: flow, savedAt: savedAt, key: key, entry: entry)
      } catch {
        throw UnreadableValue(column: "flow_entry", text: row.text(at: 3), what: error.message)
      }
    }
    ReadEntry.orderBySaving(&found)
    return found.map(\.entry)
  }

  /// The entry of `flow` found by `key` (its day, or a help note's id), nil when there is none.
  func flowEntry(_ flow: Flow, key: String) throws -> FlowEntry? {
    if flow.isKeptSeveralADay {
      return try flowEntries("flow = ? AND key = ? AND key <> ''", [SQLValue(flow), .text(key)])
        .first
    }
    guard let day = Day(key) else { return nil }
    return try flowEntries("day = ? AND flow = ? AND key = ''", [SQLValue(day), SQLValue(flow)])
      .first
  }

  /// The entries from `first` through `last`.
  func flowEntries(from first: Day, through last: Day) throws -> [FlowEntry] {
    try flowEntries("day >= ? AND day <= ?", [SQLValue(first), SQLValue(last)])
  }

  /// Stores `entry`, replacing the one of its day and flow (a help note: with its id);
  /// `replacing: false` fails with SQLITE_CONSTRAINT instead.
  func putFlowEntry(_ entry: FlowEntry, replacing: Bool = true) throws {
    try putFlowEntries([entry], replacing: replacing)
  }

  /// Stores each of `entries` as `putFlowEntry` does, through one prepared statement per kind
  /// (a day's entry, a help note).
  func putFlowEntries(_ entries: [FlowEntry], replacing: Bool = true) throws {
    var byDay: [[SQLValue]] = []
    var byID: [[SQLValue]] = []
    for entry in entries {
      let stored = entry.stored
      let row: [SQLValue] = [
        SQLValue(stored.day), .text(stored.flow), .text(stored.id ?? ""),
        .text(FlatJSON.object(stored.answers)), .text(stored.savedAt),
      ]
      if stored.id == nil { byDay.append(row) } else { byID.append(row) }
    }
    // a day's entry is found by its day and flow; a help note by its id, whatever its day
    for (target, rows) in [("(day, flow, key)", byDay), ("(flow, key) WHERE key <> ''", byID)]
    where !rows.isEmpty {
      let upsert =
        replacing
        ? """
        ON CONFLICT \(target) DO UPDATE SET
        day = excluded.day, answers = excluded.answers, saved_at = excluded.saved_at
        """ : ""
      try execute(
        "INSERT INTO flow_entry (day, flow, key, answers, saved_at) VALUES (?, ?, ?, ?, ?) "
          + upsert, each: rows)
    }
  }

  /// Removes `entry` (the row of its day and flow; a help note's by its id).
  func removeFlowEntry(_ entry: FlowEntry) throws {
    let stored = entry.stored
    if let id = stored.id {
      try execute(
        "DELETE FROM flow_entry WHERE flow = ? AND key = ? AND key <> ''",
        [.text(stored.flow), .text(id)])
    } else {
      try execute(
        "DELETE FROM flow_entry WHERE day = ? AND flow = ? AND key = ''",
        [SQLValue(stored.day), .text(stored.flow)])
    }
  }
}

/// A row of `flow_entry` as read, with what orders it.
private struct ReadEntry {
  let day: Day
  let flow: String
  let savedAt: String
  let key: String
  let entry: FlowEntry

  /// Rows in (day, flow, key) order put in (day, flow, saved_at, key) order: only a run of one
  /// day's entries of one flow moves, compared byte by byte as SQLite compares text (the
  /// texts as read: a damaged file's, cut at a NUL or repaired, may order otherwise than its
  /// raw bytes would).
  static func orderBySaving(_ rows: inout [ReadEntry]) {
    var start = 0
    while start < rows.count {
      var end = start + 1
      while end < rows.count && rows[end].day == rows[start].day
        && rows[end].flow.utf8.elementsEqual(rows[start].flow.utf8)
      {
        end += 1
      }
      if end - start > 1 {
        rows[start..<end].sort { a, b in
          a.savedAt.utf8.elementsEqual(b.savedAt.utf8)
            ? a.key.utf8.lexicographicallyPrecedes(b.key.utf8)
            : a.savedAt.utf8.lexicographicallyPrecedes(b.savedAt.utf8)
        }
      }
      start = end
    }
  }
}
