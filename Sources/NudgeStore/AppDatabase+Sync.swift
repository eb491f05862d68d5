import FoundationEssentials
import NudgeCore

/// This device as sync knows it (`nudge sync init`): nil in `AppDatabase.syncDevice()` until
/// then.
public struct SyncSelf: Equatable, Sendable {
  public var device: String
  public var name: String
  /// The folder the devices share (absolute).
  public var folder: String
  /// The generation of this device's log (a snapshot starts the next).
  public var generation: Int
  /// Changes written to the log of this generation.
  public var logLines: Int
  public var joinedAt: String
  /// When this device last wrote a change to the folder.
  public var wroteAt: String?
  /// How long its log was after its last write (0: not known): a log of another length is
  /// not the one it wrote (an older copy put back).
  public var logBytes: Int = 0
}

/// What a command's start reads of sync, in one read (`AppDatabase.syncLook`).
public struct SyncLook: Sendable {
  public var me: SyncSelf
  /// Whether a change made here waits to be written.
  public var pending: Bool
  public var peers: [SyncPeer]
  /// Whether lines of others dated ahead of this clock wait.
  public var later: Bool
}

/// Another device, as this one last read its files.
public struct SyncPeer: Equatable, Sendable {
  public var device: String
  public var name: String
  /// The latest of its own changes taken in.
  public var latest: SyncClock?
  /// The generation of its log read, and how far (bytes of complete lines).
  public var generation: Int = -1
  public var logOffset: Int = 0
  /// What its files were (size, time, inode) when last read: nothing to read while they match.
  public var logStamp: String?
  public var snapshotStamp: String?
  /// When this device last took in something of it.
  public var heardAt: String?
  /// How many of its lines or files were skipped, and the latest reason.
  public var skipped = 0
  public var skippedWhy: String?

  public init(device: String, name: String) {
    self.device = device
    self.name = name
  }
}

/// A version that lost to a later one made on another device while the two were apart: kept
/// until it is taken instead (`nudge sync take ID`) or a later change settles the key.
public struct SyncConflict: Equatable, Sendable {
  public var id: Int
  public var key: SyncKey
  public var kept: SyncVersion
  /// The clock of the version that won.
  public var winner: SyncClock
  public var keptAt: String
}

/// What merging one change did.
public enum SyncMergeResult: Equatable, Sendable {
  /// It replaced what was here.
  case applied
  /// It was older than what is here (or here already).
  case ignored
  /// It replaced what was here; what was here is kept as a conflict.
  case appliedKeepingConflict
  /// What is here stays; it is kept as a conflict.
  case keptAsConflict
  /// It is later than what was written from here, but the key was changed here since, not
  /// yet written: that change stays, and wins once written.
  case pendingHere
}

extension AppDatabase {
  // MARK: - This device

  /// This device's sync state; nil when it does not sync.
  public func syncDevice() throws(StoreError) -> SyncSelf? {
    try read { db in
      var found: SyncSelf?
      _ = try db.rows(
        """
        SELECT device, name, folder, generation, log_lines, joined_at, wrote_at, log_bytes
        FROM sync_self
        """
      ) { row in
        found = SyncSelf(
          device: row.text(at: 0) ?? "", name: row.text(at: 1) ?? "",
          folder: row.text(at: 2) ?? "", generation: row.integer(at: 3) ?? 0,
          logLines: row.integer(at: 4) ?? 0, joinedAt: row.text(at: 5) ?? "",
          wroteAt: row.text(at: 6), logBytes: row.integer(at: 7) ?? 0)
      }
      return found
    }
  }

  /// The id this device had when it last synced (kept across `leaveSync`), nil before its first
  /// join: a device that joins again is the same device to the others.
  public func syncIdentity() throws(StoreError) -> String? {
    try read { db in try db.texts("SELECT device FROM sync_identity").first }
  }

  /// Joins this device to sync through `folder`: every key held now is to be written (the
  /// first snapshot of what this device brings).
  public func joinSync(device: String, name: String, folder: String, at: String)
    throws(StoreError)
  {
    try write { db in
      try Self.clearSync(db)
      try db.execute(
        "INSERT INTO sync_self (id, device, name, folder, joined_at) VALUES (1, ?, ?, ?, ?)",
        [.text(device), .text(name), .text(folder), .text(at)])
      // from now on every write marks what it changed, whatever writes it
      try db.execute(Self.syncTriggersVersion13)
      try db.execute(Self.syncTriggersVersion15)
      // the same id, one more join (what it brings is dated apart from its last join's)
      try db.execute(
        """
        INSERT INTO sync_identity (id, device, joins) VALUES (1, ?, 1)
        ON CONFLICT (id) DO UPDATE SET device = excluded.device, joins = joins + 1
        """, [.text(device)])
      try db.execute(
        """
        INSERT OR IGNORE INTO sync_dirty (key)
          SELECT 'entry/' || day || '/' || flow || CASE WHEN key = '' THEN '' ELSE '/' || key END
          FROM flow_entry
          UNION ALL SELECT 'pause/' || first_day FROM pause
          UNION ALL SELECT 'slot/' || slot FROM slot_schedule
          UNION ALL SELECT 'setting/celebrations' FROM setting WHERE key = 'celebrations'
        """)
      try db.execute(Self.syncKeysOfVersion15)
    }
  }

  /// Stops syncing: this device forgets the folder, the other devices and the conflicts (the
  /// folder keeps its files; the entries stay as they are), and its writes mark nothing (the
  /// sync triggers go: SQLite would parse them at every open).
  public func leaveSync() throws(StoreError) {
    try write { db in try Self.clearSync(db) }
  }

  private static func clearSync(_ db: SQLiteConnection) throws {
    for table in [
      "sync_self", "sync_key", "sync_dirty", "sync_peer", "sync_conflict", "sync_outbox",
      "sync_later", "sync_brought",
    ] {
      try db.execute("DELETE FROM \(table)")
    }
    for trigger in syncTriggerNames { try db.execute("DROP TRIGGER IF EXISTS \(trigger)") }
  }

  /// This device's sync state, whether a change waits to be written, and the other devices as
  /// last read, in one read (what every command's start asks); nil when it does not sync.
  public func syncLook() throws(StoreError) -> SyncLook? {
    try read { db in
      guard let me = try syncDevice() else { return nil }
      return SyncLook(
        me: me, pending: try syncHasPending(), peers: try syncPeers(),
        later: try db.integer("SELECT EXISTS (SELECT 1 FROM sync_later)") == 1)
    }
  }

  /// How many keys changed here are not written to the folder yet.
  public func syncPending() throws(StoreError) -> Int {
    try read { db in
      try db.integer(
        "SELECT (SELECT count(*) FROM sync_dirty) + (SELECT count(*) FROM sync_outbox)")
        ?? 0
    }
  }

  /// Whether any key changed here waits to be written (cheap: one indexed probe).
  public func syncHasPending() throws(StoreError) -> Bool {
    try read { db in
      try db.integer(
        "SELECT EXISTS (SELECT 1 FROM sync_dirty) OR EXISTS (SELECT 1 FROM sync_outbox)") == 1
    }
  }

  // MARK: - Writing this device's changes

  /// Turns every key changed here since the last write into a change with its own clock (after
  /// every clock seen, at `now` milliseconds; `joining`: what the device brings when it joins,
  /// dated when it was saved) and what its writer had seen of the key, and hands the lines to
  /// `append` (this device's log), after any the folder could not take before. When `append`
  /// fails the changes stay made, dated now, their lines kept for the next write (and the
  /// failure is thrown). A key changed back to what it held makes no change. Returns the
  /// changes made.
  @discardableResult
  public func writeSyncChanges(
    now: Int, at: String, joining: Bool = false, append: ([String]) throws -> Void
  ) throws(StoreError) -> [SyncChange] {
    var failure: (any Error)?
    let changes = try write { db -> [SyncChange] in
      guard let me = try Self.syncClock(db) else { return [] }
      let keys = try db.texts("SELECT key FROM sync_dirty ORDER BY key")
      // keys marked as what this device brings (an upgrade, a plan file first read)
      let brought = Set(try db.texts("SELECT key FROM sync_brought"))
      let waiting = try db.texts("SELECT line FROM sync_outbox ORDER BY id")
      guard !keys.isEmpty || !waiting.isEmpty else { return [] }
      let joins = try db.integer("SELECT joins FROM sync_identity") ?? 0
      var last = me.last
      var changes: [SyncChange] = []
      for text in keys {
        guard case .success(let key) = SyncKey.parse(text) else { continue }
        let value = try Self.localValue(db, key)
        let before = try Self.state(db, key)
        if let stored = before.winner, stored.value == value { continue }
        if before.winner == nil && value == nil { continue }
        let clock: SyncClock
        if joining || brought.contains(text) {
          // what a device brings when it joins counts from when it was saved (an entry), or as
          // older than any change made while syncing (a pause, a time, a setting: its join's
          // number orders those of its joins): a device that joins again never makes its old
          // answers newer than what was done meanwhile
          clock = SyncClock(
            wall: Self.savedMilliseconds(value, now: now),
            counter: min(joins, SyncClock.maxCounter), device: me.device)
        } else {
          clock = SyncClock.tick(after: last, now: now, device: me.device)
          last = (clock.wall, clock.counter)
        }
        // its writer had seen every version of the key merged here
        var seen: [String: SyncClock] = [:]
        for (device, known) in before.frontier.seen.merging(
          before.frontier.own, uniquingKeysWith: { max($0, $1) })
        where device != me.device {
          seen[device] = known
        }
        let change = SyncChange(clock: clock, key: key, value: value, seen: seen)
        var after = before
        _ = after.merge(SyncVersion(clock: clock, value: value, seen: seen))
        try Self.save(db, key, before: before, after: after, at: at)
        changes.append(change)
      }
      try db.execute("DELETE FROM sync_dirty")
      try db.execute("DELETE FROM sync_brought")
      if let last {
        try db.execute(
          "UPDATE sync_self SET clock_wall = ?, clock_counter = ?",
          [.integer(Int64(last.wall)), .integer(Int64(last.counter))])
      }
      let lines = waiting + changes.map(SyncLine.line)
      guard !lines.isEmpty else { return [] }
      do {
        try append(lines)
        try db.execute("DELETE FROM sync_outbox")
        try db.execute(
          "UPDATE sync_self SET log_lines = log_lines + ?, wrote_at = ?",
          [.integer(Int64(lines.count)), .text(at)])
      } catch {
        // the folder can't take them now: kept, with their clocks, for the next write
        failure = error
        try db.execute(
          "INSERT INTO sync_outbox (line) VALUES (?)",
          each: changes.map { [.text(SyncLine.line($0))] })
      }
      return changes
    }
    if let failure { throw StoreError.from(failure, path: path) }
    return changes
  }

  /// What each key holds here now, as a change would carry it (nil: nothing): what this
  /// device's own files must match when it joins again.
  public func syncValuesHere(_ keys: [SyncKey]) throws(StoreError) -> [SyncValue?] {
    try read { db in try keys.map { try Self.localValue(db, $0) } }
  }

  /// Keeps how long this device's log is after a write of its own.
  public func recordSyncLogBytes(_ bytes: Int) throws(StoreError) {
    try write { db in
      try db.execute("UPDATE sync_self SET log_bytes = ?", [.integer(Int64(bytes))])
    }
  }

  /// Starts a new log for this device (its file was missing): a new generation, so a device
  /// that read the old one reads the new one from its start.
  public func newSyncGeneration() throws(StoreError) -> Int {
    try write { db in
      let next = Int.random(in: 1..<(1 << 52))
      try db.execute("UPDATE sync_self SET generation = ?, log_lines = 0", [.integer(Int64(next))])
      return next
    }
  }

  // MARK: - Lines dated ahead of this clock

  /// Keeps a line of `device`'s dated ahead of this clock, to take once it gets there (at most
  /// 10,000 of a device: the rest are skipped for good).
  public func keepSyncLater(device: String, line: String) throws(StoreError) {
    try write { db in
      guard
        try db.integer("SELECT count(*) FROM sync_later WHERE device = ?", [.text(device)]) ?? 0
          < 10_000
      else { return }
      // a line kept already (a snapshot read again) is kept once
      try db.execute(
        """
        INSERT INTO sync_later (device, line) SELECT ?, ?
        WHERE NOT EXISTS (SELECT 1 FROM sync_later WHERE device = ? AND line = ?)
        """, [.text(device), .text(line), .text(device), .text(line)])
    }
  }

  /// The lines kept for later, oldest first.
  public func syncLater() throws(StoreError) -> [(id: Int, device: String, line: String)] {
    try read { db in
      try db.rows("SELECT id, device, line FROM sync_later ORDER BY id") { row in
        (row.integer(at: 0) ?? 0, row.text(at: 1) ?? "", row.text(at: 2) ?? "")
      }
    }
  }

  /// Forgets lines kept for later (taken, or refused for good).
  public func forgetSyncLater(_ ids: [Int]) throws(StoreError) {
    try write { db in
      try db.execute("DELETE FROM sync_later WHERE id = ?", each: ids.map { [.integer(Int64($0))] })
    }
  }

  /// Every key's latest version (a snapshot's lines), and starts the next generation of this
  /// device's log: `write` writes the snapshot and the new log's first line, inside the
  /// transaction.
  public func startSyncGeneration(write body: ([SyncChange], Int) throws -> Void) throws(StoreError)
  {
    try write { db in
      var changes: [SyncChange] = []
      // every key's winner, and the versions kept beside it (so a device that reads only the
      // snapshot keeps the same conflicts)
      for table in ["sync_key", "sync_conflict"] {
        _ = try db.rows("SELECT key, clock, value, seen FROM \(table) ORDER BY key, clock") { row in
          guard case .success(let key) = SyncKey.parse(row.text(at: 0) ?? ""),
            let version = Self.version(row, from: 1)
          else { return }
          changes.append(
            SyncChange(clock: version.clock, key: key, value: version.value, seen: version.seen))
        }
      }
      // a random generation: never one a reader saw before, whatever happened to this device
      // (a leave and a join, a log deleted)
      let next = Int.random(in: 1..<(1 << 52))
      try body(changes, next)
      try db.execute("UPDATE sync_self SET generation = ?, log_lines = 0", [.integer(Int64(next))])
    }
  }

  /// When a value brought at a join was saved, in milliseconds (an entry's saved_at, no later
  /// than now); 2000-01-01 for what has no time of its own.
  static func savedMilliseconds(_ value: SyncValue?, now: Int) -> Int {
    guard let saved = value?.savedAt.flatMap(InstantFormat.parse) else {
      return SyncClock.earliestWall
    }
    return min(now, max(SyncClock.earliestWall, SyncClock.milliseconds(saved)))
  }

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
      // an entry taken is a change of it like an edit: `nudge undo` takes it back
      var before: FlowEntry?
      if case .entry(let day, let flow, let note) = conflict.key,
        let flowName = Flow(rawValue: flow)
      {
        before = try db.flowEntry(flowName, key: note ?? day.description)
      }
      try Self.applyValue(db, conflict.key, conflict.kept.value)
      if case .entry(let day, let flow, let note) = conflict.key,
        let flowName = Flow(rawValue: flow)
      {
        let after = try db.flowEntry(flowName, key: note ?? day.description)
        try Self.journal(db, madeOn: madeOn, at: at, kind: .edited, before: before, after: after)
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

  // MARK: - Rows

  private static func syncClock(_ db: SQLiteConnection) throws -> (
    device: String, last: (wall: Int, counter: Int)?
  )? {
    var found: (String, (Int, Int)?)?
    _ = try db.rows("SELECT device, clock_wall, clock_counter FROM sync_self") { row in
      let wall = row.integer(at: 1) ?? 0
      found = (row.text(at: 0) ?? "", wall > 0 ? (wall, row.integer(at: 2) ?? 0) : nil)
    }
    return found.map { (device: $0.0, last: $0.1.map { (wall: $0.0, counter: $0.1) }) }
  }

  /// The latest change of each other device taken in.
  private static func seenClocks(_ db: SQLiteConnection) throws -> [String: SyncClock] {
    var seen: [String: SyncClock] = [:]
    _ = try db.rows("SELECT device, latest FROM sync_peer WHERE latest IS NOT NULL") { row in
      if let device = row.text(at: 0), let clock = row.text(at: 1).flatMap(SyncClock.init) {
        seen[device] = clock
      }
    }
    return seen
  }

  static func seenText(_ seen: [String: SyncClock]) -> String {
    FlatJSON.object(seen.mapValues(\.description))
  }

  /// A version from columns clock, value, seen starting at `index`.
  private static func version(_ row: SQLiteConnection.Statement, from index: Int32) -> SyncVersion?
  {
    guard let clock = row.text(at: index).flatMap(SyncClock.init) else { return nil }
    let value = row.text(at: index + 1).flatMap { SyncValue(text: $0) }
    if !row.isNull(at: index + 1) && value == nil { return nil }
    var seen: [String: SyncClock] = [:]
    for (device, text) in FlatJSON.stringObject(row.text(at: index + 2) ?? "{}") ?? [:] {
      if let clock = SyncClock(text) { seen[device] = clock }
    }
    return SyncVersion(clock: clock, value: value, seen: seen)
  }

  /// What is stored of `key`: its winner, what the versions merged had seen, the losers kept.
  private static func state(_ db: SQLiteConnection, _ key: SyncKey, losers: Bool = true) throws
    -> SyncKeyState
  {
    var state = SyncKeyState()
    _ = try db.rows(
      "SELECT clock, value, seen, frontier FROM sync_key WHERE key = ?", [.text(key.description)]
    ) { row in
      state.winner = version(row, from: 0)
      for (name, text) in FlatJSON.stringObject(row.text(at: 3) ?? "{}") ?? [:] {
        guard let clock = SyncClock(text) else { continue }
        if name.hasPrefix("seen:") { state.frontier.seen[String(name.dropFirst(5))] = clock }
        if name.hasPrefix("own:") { state.frontier.own[String(name.dropFirst(4))] = clock }
      }
    }
    guard losers else { return state }
    state.losers = try db.rows(
      "SELECT clock, value, seen FROM sync_conflict WHERE key = ? ORDER BY clock",
      [.text(key.description)]
    ) { row in version(row, from: 0) }.compactMap { $0 }
    return state
  }

  /// Writes what merging changed of `key`'s state: its winner and frontier, the losers no
  /// longer kept gone, the new ones kept (stamped `at`); a loser still kept keeps its row (and
  /// whether it was dropped).
  private static func save(
    _ db: SQLiteConnection, _ key: SyncKey, before: SyncKeyState, after: SyncKeyState, at: String
  ) throws {
    if let winner = after.winner {
      var frontier: [String: String] = [:]
      for (device, clock) in after.frontier.seen { frontier["seen:" + device] = clock.description }
      for (device, clock) in after.frontier.own { frontier["own:" + device] = clock.description }
      try db.execute(
        """
        INSERT INTO sync_key (key, clock, value, seen, frontier) VALUES (?, ?, ?, ?, ?)
        ON CONFLICT (key) DO UPDATE SET clock = excluded.clock, value = excluded.value,
          seen = excluded.seen, frontier = excluded.frontier
        """,
        [
          .text(key.description), .text(winner.clock.description),
          SQLValue(winner.value?.text), .text(seenText(winner.seen)),
          .text(FlatJSON.object(frontier)),
        ])
    }
    let kept = Set(after.losers.map(\.clock))
    for gone in before.losers where !kept.contains(gone.clock) {
      try db.execute(
        "DELETE FROM sync_conflict WHERE key = ? AND clock = ?",
        [.text(key.description), .text(gone.clock.description)])
    }
    let had = Set(before.losers.map(\.clock))
    for loser in after.losers where !had.contains(loser.clock) {
      try db.execute(
        """
        INSERT OR IGNORE INTO sync_conflict (key, clock, value, seen, kept_at)
        VALUES (?, ?, ?, ?, ?)
        """,
        [
          .text(key.description), .text(loser.clock.description),
          .text(loser.value?.text ?? "null"), .text(seenText(loser.seen)), .text(at),
        ])
    }
  }

  /// What `key` holds here now (nil: nothing).
  private static func localValue(_ db: SQLiteConnection, _ key: SyncKey) throws -> SyncValue? {
    switch key {
    case .entry(let day, let flow, let id):
      let rows = try db.rows(
        "SELECT answers, saved_at FROM flow_entry WHERE day = ? AND flow = ? AND key = ?",
        [SQLValue(day), .text(flow), .text(id ?? "")]
      ) { row in
        SyncValue(
          answers: FlatJSON.stringObject(row.text(at: 0) ?? "")
            ?? (try? JSONDecoder().decode(
              [String: String].self, from: Data((row.text(at: 0) ?? "").utf8))) ?? [:],
          savedAt: row.text(at: 1) ?? "")
      }
      return rows.first
    case .pause(let first):
      return try db.texts("SELECT last_day FROM pause WHERE first_day = ?", [SQLValue(first)])
        .first.flatMap { Day($0) }.map { SyncValue(lastDay: $0) }
    case .slot(let slot):
      return try db.rows(
        "SELECT expression, enabled FROM slot_schedule WHERE slot = ?", [.text(slot.rawValue)]
      ) { row in SyncValue(expression: row.text(at: 0) ?? "", enabled: row.integer(at: 1) != 0) }
      .first
    case .celebrations:
      return try db.texts("SELECT value FROM setting WHERE key = 'celebrations'").first.map {
        SyncValue(value: $0)
      }
    case .habit(let uid):
      guard let id = try db.habitID(uid: uid, removed: false),
        let habit = try db.habits(includingArchived: true).first(where: { $0.id == id })
      else { return nil }
      return SyncValue(habit: ExportHabit(habit, days: []))
    case .habitDay(let uid, let day):
      guard let id = try db.resolvedHabitID(uid: uid) else { return nil }
      return try db.habitChecks(id, from: day).first { $0.day == day }.map {
        SyncValue(savedAt: $0.savedAt, done: $0.done, amount: $0.value)
      }
    case .planChoice(let name):
      return try db.rows("SELECT is_on FROM plan_choice WHERE plan = ?", [.text(name)]) { row in
        SyncValue(enabled: row.integer(at: 0) != 0)
      }.first
    case .planFile(let name):
      return try db.texts("SELECT text FROM plan_file WHERE name = ?", [.text(name)]).first.map {
        SyncValue(planText: $0)
      }
    }
  }

  /// Writes what `value` says `key` holds (nil: removes it).
  private static func applyValue(_ db: SQLiteConnection, _ key: SyncKey, _ value: SyncValue?)
    throws
  {
    switch key {
    case .entry(let day, let flow, let id):
      try db.execute(
        "DELETE FROM flow_entry WHERE day = ? AND flow = ? AND key = ?",
        [SQLValue(day), .text(flow), .text(id ?? "")])
      guard let value, let answers = value.answers, let savedAt = value.savedAt else { return }
      let entry = try FlowEntry(
        stored: StoredEntry(flow: flow, day: day, id: id, answers: answers, savedAt: savedAt))
      try db.putFlowEntry(entry)
    case .pause(let first):
      try db.execute("DELETE FROM pause WHERE first_day = ?", [SQLValue(first)])
      guard let last = value?.lastDay else { return }
      try db.execute(
        "INSERT INTO pause (first_day, last_day) VALUES (?, ?)", [SQLValue(first), SQLValue(last)])
    case .slot(let slot):
      try db.execute("DELETE FROM slot_schedule WHERE slot = ?", [.text(slot.rawValue)])
      guard let value, let expression = value.expression else { return }
      try db.execute(
        "INSERT INTO slot_schedule (slot, expression, enabled) VALUES (?, ?, ?)",
        [.text(slot.rawValue), .text(expression), .integer(value.enabled == true ? 1 : 0)])
    case .celebrations:
      try db.execute("DELETE FROM setting WHERE key = 'celebrations'")
      guard let text = value?.value else { return }
      try db.execute(
        "INSERT INTO setting (key, value) VALUES ('celebrations', ?)", [.text(text)])
    case .habit(let uid):
      let id = try db.habitID(uid: uid, removed: true)
      // a removal hides it, as `habit remove` does here (its days stay while undo could
      // bring it back on the computer that removed it)
      guard let habit = value?.habit,
        let read = try? habit.checked(reserved: [], timeProblem: { _ in nil })
      else {
        if let id { try db.execute("UPDATE habit SET removed = 1 WHERE id = ?", [SQLValue(id)]) }
        return
      }
      var row = HabitRow(read.habit)
      if let id {
        row.id = id
        try db.putHabitRow(row)
      } else if try db.resolvedHabitID(uid: uid) != nil {
        // known here by another id (the same habit under one name): that one's definition
        return
      } else if let same = try db.habits(includingArchived: true).first(where: {
        $0.name.lowercased() == read.habit.name.lowercased() && $0.uid != nil
      }), let local = same.uid {
        // a habit this computer has under the same name is the same habit (as an import
        // takes it): both computers keep it under the smaller of the two ids, its days as
        // both recorded them
        if uid < local {
          try db.execute("UPDATE habit SET uid = ? WHERE id = ?", [.text(uid), SQLValue(same.id)])
          row.id = same.id
          try db.putHabitRow(row)
          try db.execute(
            "INSERT OR REPLACE INTO habit_alias (uid, habit_uid) VALUES (?, ?)",
            [.text(local), .text(uid)])
          // its days here go to the others under the id it keeps
          try db.execute(
            """
            INSERT OR IGNORE INTO sync_dirty (key)
              SELECT 'habitday/' || ? || '/' || day FROM habit_check WHERE habit = ?
            """, [.text(uid), SQLValue(same.id)])
        } else {
          try db.execute(
            "INSERT OR REPLACE INTO habit_alias (uid, habit_uid) VALUES (?, ?)",
            [.text(uid), .text(local)])
        }
      } else {
        _ = try db.insertHabit(row, uid: uid)
        // a habit that comes back (a removal undone where it was made, after this computer
        // let it go) gets its days again, as sync last knew them
        let days = try db.rows(
          "SELECT key, value FROM sync_key WHERE key LIKE ? AND value IS NOT NULL",
          [.text("habitday/\(uid)/%")]
        ) { row in (row.text(at: 0) ?? "", row.text(at: 1).flatMap { SyncValue(text: $0) }) }
        for (text, value) in days {
          guard case .success(let key) = SyncKey.parse(text), let value else { continue }
          try applyValue(db, key, value)
        }
      }
    case .habitDay(let uid, let day):
      // its habit arrived first (`SyncExchange` keeps a day aside until it has)
      guard let id = try db.resolvedHabitID(uid: uid) else { return }
      try db.execute(
        "DELETE FROM habit_check WHERE habit = ? AND day = ?", [SQLValue(id), SQLValue(day)])
      guard let value, let done = value.done, let savedAt = value.savedAt else { return }
      // an amount only for a habit measured here (a yes/no one's day is done, or not)
      let measured = try db.integer("SELECT target FROM habit WHERE id = ?", [SQLValue(id)]) != nil
      try db.putHabitCheck(
        HabitCheck(day: day, done: done, value: measured ? value.amount : nil, savedAt: savedAt),
        habit: id)
    case .planChoice(let name):
      try db.execute("DELETE FROM plan_choice WHERE plan = ?", [.text(name)])
      guard let on = value?.enabled else { return }
      try db.execute(
        "INSERT INTO plan_choice (plan, is_on) VALUES (?, ?)", [.text(name), SQLValue(on)])
    case .planFile(let name):
      guard let text = value?.planText else {
        try db.execute("DELETE FROM plan_file WHERE name = ?", [.text(name)])
        return
      }
      // what the folder held stays known: the text is written there after (`seen` differs)
      try db.execute(
        """
        INSERT INTO plan_file (name, text) VALUES (?, ?)
        ON CONFLICT (name) DO UPDATE SET text = excluded.text
        """, [.text(name), .text(text)])
    }
  }
}
