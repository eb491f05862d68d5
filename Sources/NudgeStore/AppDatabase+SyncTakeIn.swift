import NudgeCore

extension AppDatabase {
  // MARK: - Taking in another device's changes

  /// The other devices, as last read.
  public func syncPeers() throws(StoreError) -> [SyncPeer] {
    try read { db in
      try db.rows(
        """
        SELECT device, name, latest, generation, log_offset, log_stamp, snapshot_stamp, heard_at,
          skipped, skipped_why
        FROM sync_peer ORDER BY name, device
        """
      ) { row in
        var peer = SyncPeer(device: row.text(at: 0) ?? "", name: row.text(at: 1) ?? "")
        peer.latest = row.text(at: 2).flatMap(SyncClock.init)
        peer.generation = row.integer(at: 3) ?? -1
        peer.logOffset = row.integer(at: 4) ?? 0
        peer.logStamp = row.text(at: 5)
        peer.snapshotStamp = row.text(at: 6)
        peer.heardAt = row.text(at: 7)
        peer.skipped = row.integer(at: 8) ?? 0
        peer.skippedWhy = row.text(at: 9)
        return peer
      }
    }
  }

  /// Keeps how far `peer`'s files were read.
  public func saveSyncPeer(_ peer: SyncPeer) throws(StoreError) {
    try write { db in
      try db.execute(
        """
        INSERT INTO sync_peer (device, name, latest, generation, log_offset, log_stamp,
          snapshot_stamp, heard_at, skipped, skipped_why) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (device) DO UPDATE SET name = excluded.name, latest = excluded.latest,
          generation = excluded.generation, log_offset = excluded.log_offset,
          log_stamp = excluded.log_stamp, snapshot_stamp = excluded.snapshot_stamp,
          heard_at = excluded.heard_at, skipped = excluded.skipped,
          skipped_why = excluded.skipped_why
        """,
        [
          .text(peer.device), .text(peer.name), SQLValue(peer.latest?.description),
          .integer(Int64(peer.generation)), .integer(Int64(peer.logOffset)),
          SQLValue(peer.logStamp), SQLValue(peer.snapshotStamp), SQLValue(peer.heardAt),
          .integer(Int64(peer.skipped)), SQLValue(peer.skippedWhy),
        ])
    }
  }

  /// Merges one change from another device (`SyncMerge`): the entry, pause, schedule or
  /// setting it names is written as it says when it wins, and a conflict's loser is kept. Moves
  /// this device's clock past it. Runs in the caller's transaction when there is one.
  public func mergeSyncChange(_ change: SyncChange, at: String) throws(StoreError)
    -> SyncMergeResult
  {
    try mergeSyncChanges([change], at: at)[0]
  }

  /// Merges changes in order, as `mergeSyncChange` does each, in one transaction (the
  /// caller's when there is one): a device's file is taken in a few hundred lines at a time.
  public func mergeSyncChanges(_ changes: [SyncChange], at: String) throws(StoreError)
    -> [SyncMergeResult]
  {
    try write { db in
      var batch = MergeBatch(
        anyPending: try db.integer("SELECT EXISTS (SELECT 1 FROM sync_dirty)") == 1,
        anyLosers: try db.integer("SELECT EXISTS (SELECT 1 FROM sync_conflict)") == 1)
      let results = try changes.map { try Self.merge(db, $0, at: at, &batch) }
      guard let latest = changes.map(\.clock).max() else { return results }
      try db.execute(
        """
        UPDATE sync_self SET clock_wall = ?, clock_counter = ?
        WHERE clock_wall < ? OR (clock_wall = ? AND clock_counter < ?)
        """,
        [
          .integer(Int64(latest.wall)), .integer(Int64(latest.counter)),
          .integer(Int64(latest.wall)), .integer(Int64(latest.wall)),
          .integer(Int64(latest.counter)),
        ])
      return results
    }
  }

  /// What a batch of merges knows of the tables it need not ask about for each change: whether
  /// any key was pending here when it began, whether any loser is kept.
  private struct MergeBatch {
    let anyPending: Bool
    var anyLosers: Bool
  }

  private static func merge(
    _ db: SQLiteConnection, _ change: SyncChange, at: String, _ batch: inout MergeBatch
  ) throws -> SyncMergeResult {
    let incoming = SyncVersion(clock: change.clock, value: change.value, seen: change.seen)
    let before = try state(db, change.key, losers: batch.anyLosers)
    var after = before
    let outcome = after.merge(incoming)
    if !after.losers.isEmpty { batch.anyLosers = true }
    if after == before { return .ignored }
    let newConflict = after.conflicts.contains { kept in
      !before.conflicts.contains { $0.clock == kept.clock }
    }
    guard outcome == .won else {
      try save(db, change.key, before: before, after: after, at: at)
      return newConflict ? .keptAsConflict : .ignored
    }
    // a key changed here and not written yet (the folder could not take it): that change is
    // later than this one and will win when written; the row stays as it is here
    if batch.anyPending,
      try db.integer(
        "SELECT EXISTS (SELECT 1 FROM sync_dirty WHERE key = ?)", [.text(change.key.description)])
        == 1
    {
      try save(db, change.key, before: before, after: after, at: at)
      return .pendingHere
    }
    if before.winner?.value != incoming.value {
      try applyValue(db, change.key, change.value)
      // the row just written is the folder's, not a change made here
      try db.execute("DELETE FROM sync_dirty WHERE key = ?", [.text(change.key.description)])
      try db.execute("DELETE FROM sync_brought WHERE key = ?", [.text(change.key.description)])
    }
    try save(db, change.key, before: before, after: after, at: at)
    return newConflict ? .appliedKeepingConflict : .applied
  }

  // MARK: - Conflicts

  /// The winning value of each of `keys` (by their text; nil for a removal).
  public func syncWinners(of keys: [SyncKey]) throws(StoreError) -> [String: SyncValue?] {
    try read { db in
      var found: [String: SyncValue?] = [:]
      for key in keys {
        _ = try db.rows("SELECT value FROM sync_key WHERE key = ?", [.text(key.description)]) {
          row in found[key.description] = row.text(at: 0).flatMap { SyncValue(text: $0) }
        }
      }
      return found
    }
  }

  // MARK: - Plan files

  /// Takes the plans folder's files as they are now (plan name → text) into what sync knows
  /// of them: a file new here, or changed since the folder was last read or written, is an
  /// edit made here, marked to be written. A file that still holds what the folder held (a
  /// version that arrived and waits to be written there) is no edit. A file gone from the
  /// folder is left as sync knows it (a removal does not travel: one computer's missing file
  /// never takes a plan from the others). Returns whether anything changed.
  @discardableResult
  public func mirrorPlanFiles(_ files: [String: String]) throws(StoreError) -> Bool {
    try write { db in
      var changed = false
      for (name, text) in files.sorted(by: { $0.key < $1.key }) {
        let known = try db.rows("SELECT seen FROM plan_file WHERE name = ?", [.text(name)]) {
          row in row.text(at: 0)
        }
        if let seen = known.first, seen == text { continue }
        try db.execute(
          """
          INSERT INTO plan_file (name, text, seen) VALUES (?, ?, ?)
          ON CONFLICT (name) DO UPDATE SET text = excluded.text, seen = excluded.seen
          """, [.text(name), .text(text), .text(text)])
        // a file read for the first time is what this computer brings, not an edit made now:
        // dated as a join dates it, so another computer's later edit of it is not undone
        if known.isEmpty {
          try db.execute(
            "INSERT OR IGNORE INTO sync_brought (key) VALUES (?)", [.text("planfile/" + name)])
        }
        changed = true
      }
      return changed
    }
  }

  /// The plan files whose text sync has and the folder did not hold when last read or written
  /// (they arrived, or were taken from a conflict): name, the text, what the folder held.
  public func planFilesToPlace() throws(StoreError) -> [(name: String, text: String, seen: String?)]
  {
    try read { db in
      try db.rows("SELECT name, text, seen FROM plan_file WHERE seen IS NOT text ORDER BY name") {
        row in (row.text(at: 0) ?? "", row.text(at: 1) ?? "", row.text(at: 2))
      }
    }
  }

  /// Keeps that the folder now holds `text` as `name`'s file.
  public func planFilePlaced(_ name: String, text: String) throws(StoreError) {
    try write { db in
      try db.execute("UPDATE plan_file SET seen = ? WHERE name = ?", [.text(text), .text(name)])
    }
  }

  /// The versions kept from conflicts, oldest first.
  public func syncConflicts() throws(StoreError) -> [SyncConflict] {
    try read { db in
      var found: [SyncConflict] = []
      // a kept version that says what the winner says is no conflict to show
      _ = try db.rows(
        """
        SELECT c.id, c.key, c.clock, c.value, c.seen, k.clock, c.kept_at
        FROM sync_conflict c JOIN sync_key k ON k.key = c.key
        WHERE NOT c.dropped AND c.value IS NOT k.value ORDER BY c.id
        """
      ) { row in
        guard case .success(let key) = SyncKey.parse(row.text(at: 1) ?? ""),
          let kept = Self.version(row, from: 2),
          let winner = row.text(at: 5).flatMap(SyncClock.init)
        else { return }
        found.append(
          SyncConflict(
            id: row.integer(at: 0) ?? 0, key: key, kept: kept, winner: winner,
            keptAt: row.text(at: 6) ?? ""))
      }
      return found
    }
  }

  /// Takes a kept version instead of the one that won: written here as a change of its own (a
  /// later clock, so it wins on every device), the conflict gone. False when there is no
  /// conflict `id`.
  public func takeSyncConflict(_ id: Int, madeOn: Day, at: String) throws(StoreError) -> Bool {
    try write { db in
      guard let conflict = try syncConflicts().first(where: { $0.id == id }) else { return false }
      // a version taken is a change of its key like any other: `nudge undo` takes it back
      let key = JournalKey.data(conflict.key)
      let before = try Self.journalValue(db, key)
      if let subject = JournalSubject.taking(conflict.key, conflict.kept.value, over: before) {
        try Self.journaled(db, subject, madeOn: madeOn, at: at, key: key) {
          try Self.applyValue(db, conflict.key, conflict.kept.value)
        }
      } else {
        try Self.applyValue(db, conflict.key, conflict.kept.value)
      }
      try db.execute("DELETE FROM sync_conflict WHERE id = ?", [.integer(Int64(id))])
      return true
    }
  }

  /// Forgets a kept version (the one that won stays). False when there is no conflict `id`.
  public func dropSyncConflict(_ id: Int) throws(StoreError) -> Bool {
    try write { db in
      guard try syncConflicts().contains(where: { $0.id == id }) else { return false }
      // kept, marked: the same version arriving again is not shown again
      try db.execute("UPDATE sync_conflict SET dropped = 1 WHERE id = ?", [.integer(Int64(id))])
      return true
    }
  }
}
