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
    var entries: [FlowEntry] = []
    // the rows that share a day and a flow with another: their run (its first index), their
    // index, saved_at and key (no other row needs them)
    var shared: [SharedRow] = []
    // the row before's (plain variables: an optional tuple of texts was copied out and
    // destroyed whole each row)
    var (previousDay, previousFlow, previousSavedAt, previousKey): (Day?, String, String, String) =
      (nil, "", "", "")
    try forEachRow(
      """
      SELECT day, flow, key, answers, saved_at FROM flow_entry WHERE \(condition)
      ORDER BY day, flow, key
      """, arguments
    ) { row in
      let flow = row.text(at: 1) ?? ""
      let key = row.text(at: 2) ?? ""
      guard let day = row.day(at: 0), let utf8 = row.utf8(at: 3),
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
          row: StoredEntry(
            flow: flow, day: day, id: key.isEmpty ? nil : key, answers: answers, savedAt: savedAt))
        if previousDay == day, previousFlow.utf8.elementsEqual(flow.utf8) {
          let before = entries.count - 1
          let run = shared.last.flatMap { $0.index == before ? $0.run : nil } ?? before
          if run == before { shared.append(SharedRow(run, before, previousSavedAt, previousKey)) }
          shared.append(SharedRow(run, entries.count, savedAt, key))
        }
        (previousDay, previousFlow, previousSavedAt, previousKey) = (day, flow, savedAt, key)
        entries.append(entry)
      } catch {
        throw UnreadableValue(column: "flow_entry", text: row.text(at: 3), what: error.message)
      }
    }
    Self.orderBySaving(&entries, shared: shared)
    return entries
  }

  /// A row read that shares its day and flow with the row before or after it.
  private struct SharedRow {
    /// The index of the first row of its run (the rows of one day and one flow).
    let run: Int
    let index: Int
    let savedAt: String
    let key: String

    init(_ run: Int, _ index: Int, _ savedAt: String, _ key: String) {
      (self.run, self.index, self.savedAt, self.key) = (run, index, savedAt, key)
    }
  }

  /// Rows in (day, flow, key) order put in (day, flow, saved_at, key) order: only a run of one
  /// day's entries of one flow moves (`shared`: each run's rows, in order, with their saved_at
  /// and key), compared byte by byte as SQLite compares text (the texts as read: a damaged
  /// file's, cut at a NUL or repaired, may order otherwise than its raw bytes would).
  private static func orderBySaving(_ entries: inout [FlowEntry], shared: [SharedRow]) {
    var start = 0
    while start < shared.count {
      var end = start + 1
      while end < shared.count && shared[end].run == shared[start].run { end += 1 }
      let run = shared[start..<end]
      let sorted = run.sorted { a, b in
        a.savedAt.utf8.elementsEqual(b.savedAt.utf8)
          ? a.key.utf8.lexicographicallyPrecedes(b.key.utf8)
          : a.savedAt.utf8.lexicographicallyPrecedes(b.savedAt.utf8)
      }
      let moved = sorted.map { entries[$0.index] }
      for (offset, entry) in moved.enumerated() { entries[run.first!.index + offset] = entry }
      start = end
    }
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
