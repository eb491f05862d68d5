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

}
