import FoundationEssentials
import NudgeCore

/// A change to the days off, kept so that `nudge undo` can take it back: every pause as it was
/// before the change and after it.
public struct PauseChange: Equatable, Sendable {
  /// What the change was.
  public enum Kind: String, Sendable {
    /// `nudge pause`: days marked off (ahead, today on, or past).
    case paused
    /// `nudge resume`: the pause covering today ended.
    case resumed
    /// `nudge pause remove`: a pause taken away whole.
    case removed
  }

  public var id: Int
  public var seq: Int
  public var kind: Kind
  /// When it was made, ISO 8601 with its offset.
  public var at: String
  /// The pause the change was about: the one marked, the one resumed (as it was), the one
  /// removed.
  public var pause: Pause
  public var before: [Pause]
  public var after: [Pause]
}

/// A change from any of the journals `undo` reads: an entry's, a habit's or the days off's.
public enum JournaledChange: Sendable {
  case entry(EntryChange)
  case habit(HabitChange)
  case pause(PauseChange)

  /// Where it stands among all the journals: its place in their one count, then its time
  /// (a change journaled before the count began is 0, ordered by its time alone).
  var place: (seq: Int, at: Instant) {
    switch self {
    case .entry(let c): (c.seq, InstantFormat.parse(c.at) ?? .distantPast)
    case .habit(let c): (c.seq, InstantFormat.parse(c.at) ?? .distantPast)
    case .pause(let c): (c.seq, InstantFormat.parse(c.at) ?? .distantPast)
    }
  }
}

extension AppDatabase {
  /// The change `undo` takes back: the latest one made on `day` not undone yet, of any journal.
  public func latestUndoable(madeOn day: Day) throws(StoreError) -> JournaledChange? {
    let candidates: [JournaledChange] = [
      try latestUndoableChange(madeOn: day).map(JournaledChange.entry),
      try latestUndoableHabitChange(madeOn: day).map(JournaledChange.habit),
      try pauseChange(madeOn: day, where: "NOT undone ORDER BY seq DESC, id DESC").map(
        JournaledChange.pause),
    ].compactMap { $0 }
    return candidates.max { $0.place < $1.place }
  }

  /// The change `redo` re-applies: the one the latest undo on `day` took back (undo takes the
  /// latest first, so the earliest undone), of any journal; nil when none is left.
  public func latestRedoable(madeOn day: Day) throws(StoreError) -> JournaledChange? {
    let candidates: [JournaledChange] = [
      try latestRedoableChange(madeOn: day).map(JournaledChange.entry),
      try latestRedoableHabitChange(madeOn: day).map(JournaledChange.habit),
      try pauseChange(madeOn: day, where: "undone ORDER BY seq ASC, id ASC").map(
        JournaledChange.pause),
    ].compactMap { $0 }
    return candidates.min { $0.place < $1.place }
  }

  /// Writes a change of the days off to its journal.
  public func journalPauses(
    _ kind: PauseChange.Kind, _ pause: Pause, madeOn: Day, at: String, before: [Pause],
    after: [Pause]
  ) throws(StoreError) {
    try write { db in
      try db.execute("DELETE FROM pause_change WHERE made_on < ?", [SQLValue(madeOn)])
      let seq = try db.nextJournalSeq(madeOn: madeOn)
      try db.execute(
        """
        INSERT INTO pause_change (made_on, at, seq, kind, pause, before, after)
        VALUES (?, ?, ?, ?, ?, ?, ?)
        """,
        [
          SQLValue(madeOn), .text(at), .integer(Int64(seq)), .text(kind.rawValue),
          .text(try Self.pausesJSON([pause])),
          .text(try Self.pausesJSON(before)), .text(try Self.pausesJSON(after)),
        ])
    }
  }

  /// Puts the days off to `pauses` (an undo's or a redo's), and marks `change` undone or not.
  public func movePauses(to pauses: [Pause], marking change: PauseChange, undone: Bool)
    throws(StoreError)
  {
    try write { db in
      try db.execute("DELETE FROM pause")
      for pause in pauses { try db.save(pause) }
      try db.execute(
        "UPDATE pause_change SET undone = ? WHERE id = ?",
        [.integer(undone ? 1 : 0), SQLValue(change.id)])
    }
  }

  /// Takes away the pause that starts on `firstDay` whole; false when none starts then.
  public func removePause(startingOn firstDay: Day) throws(StoreError) -> Bool {
    try write { db in
      guard try db.exists(Pause.self, key: firstDay.description) else { return false }
      try db.delete(Pause.self, key: firstDay.description)
      return true
    }
  }

  private func pauseChange(madeOn day: Day, where order: String) throws(StoreError)
    -> PauseChange?
  {
    try read { db in
      try db.rows(
        """
        SELECT id, seq, kind, at, before, after, pause FROM pause_change
        WHERE made_on = ? AND \(order) LIMIT 1
        """, [SQLValue(day)]
      ) { row -> PauseChange? in
        guard let kind = PauseChange.Kind(rawValue: row.text(at: 2) ?? ""),
          let before = Self.pauses(json: row.text(at: 4)),
          let after = Self.pauses(json: row.text(at: 5)),
          let pause = Self.pauses(json: row.text(at: 6))?.first
        else { return nil }
        return PauseChange(
          id: row.integer(at: 0) ?? 0, seq: row.integer(at: 1) ?? 0, kind: kind,
          at: row.text(at: 3) ?? "", pause: pause, before: before, after: after)
      }.first ?? nil
    }
  }

  static func pausesJSON(_ pauses: [Pause]) throws -> String {
    String(decoding: try NudgeJSON.encode(pauses), as: UTF8.self)
  }

  static func pauses(json: String?) -> [Pause]? {
    guard let json else { return nil }
    return try? NudgeJSON.decode([Pause].self, from: Data(json.utf8))
  }
}

extension SQLiteConnection {
  /// Makes way for a new change made on `madeOn` in any journal, and returns its place in
  /// their one count: a new change ends what `redo` could re-apply, in every journal (as in an
  /// editor), and comes after every change kept.
  func nextJournalSeq(madeOn: Day) throws -> Int {
    for table in ["entry_change", "habit_change", "pause_change"] {
      try execute("DELETE FROM \(table) WHERE made_on = ? AND undone", [SQLValue(madeOn)])
    }
    let latest = try integer(
      """
      SELECT max(seq) FROM (SELECT max(seq) AS seq FROM entry_change
        UNION ALL SELECT max(seq) FROM habit_change UNION ALL SELECT max(seq) FROM pause_change)
      """)
    return (latest ?? 0) + 1
  }
}
