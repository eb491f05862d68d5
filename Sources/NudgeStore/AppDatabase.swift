import Foundation
import GRDB
import NudgeCore

/// Nudge's SQLite database: migrations and the named reads and writes the commands use.
public final class AppDatabase: Sendable {
  /// The schema version this binary writes (`PRAGMA user_version`).
  public static let schemaVersion = 3

  private let writer: any DatabaseWriter
  /// The file this database lives in (":memory:" for tests).
  public let path: String

  /// Wraps an open connection and brings its schema up to date.
  public init(_ writer: any DatabaseWriter, path: String = ":memory:") throws {
    self.writer = writer
    self.path = path
    try Self.migrate(writer)
  }

  /// Brings the schema up to date in a single immediate write transaction, so a file is at
  /// its old version or the current one, never in between, whatever stops the process; a
  /// file from a newer Nudge is refused untouched.
  public static func migrate(_ writer: any DatabaseWriter, upTo target: Int = schemaVersion)
    throws
  {
    let current = try writer.read { try Int.fetchOne($0, sql: "PRAGMA user_version") ?? 0 }
    if current == target { return }
    try writer.writeWithoutTransaction { db in
      try db.inTransaction(.immediate) {
        let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        if version > schemaVersion {
          throw StoreError.newerSchema(
            "the database was written by a newer Nudge (schema \(version)). Update Nudge; the file was left untouched."
          )
        }
        for (number, step) in migrations.enumerated() where number + 1 > version {
          guard number + 1 <= target else { break }
          try step(db)
          try db.execute(sql: "PRAGMA user_version = \(number + 1)")
        }
        return .commit
      }
    }
  }

  /// Each schema version's changes from the one before, in order (index 0 builds version 1).
  private static let migrations: [@Sendable (Database) throws -> Void] = [
    { db in
      try db.execute(
        sql: """
          PRAGMA application_id = \(DatabaseFileHeader.applicationID);
          CREATE TABLE prep (
            day TEXT PRIMARY KEY NOT NULL,
            sticky_notes BOOLEAN NOT NULL,
            produce BOOLEAN NOT NULL,
            water BOOLEAN NOT NULL,
            breakfast BOOLEAN NOT NULL,
            other TEXT,
            saved_at TEXT NOT NULL
          );
          CREATE TABLE review (
            day TEXT PRIMARY KEY NOT NULL,
            why TEXT, challenge TEXT, challenge_other TEXT, swap TEXT,
            commit_to TEXT, commit_from TEXT,
            saved_at TEXT NOT NULL
          );
          CREATE TABLE checkin (
            day TEXT PRIMARY KEY NOT NULL,
            followed BOOLEAN, feel TEXT, blocker TEXT,
            saved_at TEXT NOT NULL
          );
          CREATE TABLE help_note (
            id TEXT PRIMARY KEY NOT NULL,
            day TEXT NOT NULL,
            category TEXT NOT NULL,
            note TEXT, coach TEXT,
            at TEXT NOT NULL
          );
          CREATE INDEX help_note_day ON help_note(day);
          CREATE TABLE setting (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
          """)
    },
    { db in
      try db.execute(
        sql: """
          CREATE TABLE achievement (key TEXT PRIMARY KEY NOT NULL, earned_on TEXT NOT NULL);
          CREATE TABLE state (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
          """)
      try awardAchievements(db)
    },
    { db in
      try db.execute(
        sql: """
          CREATE TABLE slot_schedule (
            slot TEXT PRIMARY KEY NOT NULL, expression TEXT NOT NULL, enabled BOOLEAN NOT NULL
          );
          CREATE TABLE reminder_claim (
            slot TEXT NOT NULL, elapse INTEGER NOT NULL, PRIMARY KEY (slot, elapse)
          );
          CREATE TABLE reminder_log (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            slot TEXT NOT NULL, elapse INTEGER, outcome TEXT NOT NULL, at TEXT NOT NULL
          );
          """)
    },
  ]

  private static func configuration() -> Configuration {
    var config = Configuration()
    config.busyMode = .timeout(10)
    config.label = "nudge"
    return config
  }

  /// An empty in-memory database, for tests.
  public static func inMemory() throws -> AppDatabase {
    try AppDatabase(DatabaseQueue(configuration: configuration()))
  }

  /// Opens (or atomically creates) the database file at `path`, refusing files that are not
  /// Nudge's or are newer, and never writing to a file it refused.
  public static func open(path: String) throws(StoreError) -> AppDatabase {
    let url = URL(fileURLWithPath: path)
    try ensureDirectory(url.deletingLastPathComponent().path)
    if !FileManager.default.fileExists(atPath: path) {
      try create(path: path)
    }
    try DatabaseFileHeader.check(path: path, knownVersion: schemaVersion)
    do {
      let pool = try DatabasePool(path: path, configuration: configuration())
      return try AppDatabase(pool, path: path)
    } catch let error as StoreError {
      throw error
    } catch {
      throw StoreError(error, path: path)
    }
  }

  private static func ensureDirectory(_ dir: String) throws(StoreError) {
    var isDir: ObjCBool = false
    if FileManager.default.fileExists(atPath: dir, isDirectory: &isDir) {
      if isDir.boolValue { return }
      throw .cannotCreate("\(dir) is a file, not a directory: move it away or set NUDGE_DB.")
    }
    let parent = URL(fileURLWithPath: dir).deletingLastPathComponent().path
    if parent != dir { try ensureDirectory(parent) }
    if mkdir(dir, 0o700) != 0 && errno != EEXIST {
      let reason = String(cString: strerror(errno))
      throw .cannotCreate(
        "Cannot create the data directory \(dir): \(reason). Fix its parent's permissions or set NUDGE_DB to a writable path."
      )
    }
  }

  /// Builds the schema in a private file, then links it into place, so that a racing process
  /// sees either no file or a complete database, never an empty one.
  private static func create(path: String) throws(StoreError) {
    removeAbandonedTempFiles(of: path)
    let temp = path + ".creating-\(getpid())"
    defer {
      for suffix in ["", "-wal", "-shm", "-journal"] { unlink(temp + suffix) }
    }
    do {
      let fd = Glibc.open(temp, O_CREAT | O_EXCL | O_WRONLY, 0o600)
      guard fd >= 0 else {
        let reason = String(cString: strerror(errno))
        throw StoreError.cannotCreate(
          "Cannot create the database at \(path): \(reason). Fix the directory's permissions or set NUDGE_DB to a writable path."
        )
      }
      close(fd)
      let queue = try DatabaseQueue(path: temp, configuration: configuration())
      try migrate(queue)
      try queue.writeWithoutTransaction { db in
        try db.execute(sql: "PRAGMA journal_mode = WAL")
      }
      try queue.close()
    } catch let error as StoreError {
      throw error
    } catch {
      throw StoreError(error, path: path)
    }
    if link(temp, path) != 0 && errno != EEXIST {
      let reason = String(cString: strerror(errno))
      throw .cannotCreate(
        "Cannot create the database at \(path): \(reason). Fix the directory's permissions or set NUDGE_DB to a writable path."
      )
    }
  }

  /// Deletes the private files of creators that were killed before linking theirs into place
  /// (`PATH.creating-PID` whose process is gone).
  private static func removeAbandonedTempFiles(of path: String) {
    let url = URL(fileURLWithPath: path)
    let prefix = url.lastPathComponent + ".creating-"
    let dir = url.deletingLastPathComponent().path
    for name in (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
    where name.hasPrefix(prefix) {
      let rest = name.dropFirst(prefix.count)
      let digits = rest.prefix { $0.isNumber }
      guard let pid = pid_t(digits), kill(pid, 0) != 0, errno == ESRCH else { continue }
      unlink(dir + "/" + name)
    }
  }

  // MARK: - Flows

  /// What a flow's save changed: the entry as stored and the achievements it newly earned.
  public struct Saved<Entry: Sendable>: Sendable {
    public var entry: Entry
    public var newAchievements: [Achievement]
  }

  /// Saves the day's prep, merging `update` into what was saved earlier that day.
  @discardableResult
  public func savePrep(day: Day, savedAt: String, _ update: (inout PrepEntry) -> Void) throws
    -> Saved<PrepEntry>
  {
    try upsert(day: day) { (existing: PrepEntry?) in
      var entry = existing ?? PrepEntry(day: day, savedAt: savedAt)
      update(&entry)
      entry.savedAt = savedAt
      return entry
    }
  }

  /// Saves the day's Morning Focus, merging `update` into what was saved earlier that day.
  @discardableResult
  public func saveReview(day: Day, savedAt: String, _ update: (inout ReviewEntry) -> Void) throws
    -> Saved<ReviewEntry>
  {
    try upsert(day: day) { (existing: ReviewEntry?) in
      var entry = existing ?? ReviewEntry(day: day, savedAt: savedAt)
      update(&entry)
      entry.savedAt = savedAt
      return entry
    }
  }

  /// Saves the day's check-in, merging `update` into what was saved earlier that day.
  @discardableResult
  public func saveCheckin(day: Day, savedAt: String, _ update: (inout CheckinEntry) -> Void)
    throws -> Saved<CheckinEntry>
  {
    try upsert(day: day) { (existing: CheckinEntry?) in
      var entry = existing ?? CheckinEntry(day: day, savedAt: savedAt)
      update(&entry)
      entry.savedAt = savedAt
      return entry
    }
  }

  private func upsert<Entry: FetchableRecord & PersistableRecord & Sendable>(
    day: Day, _ make: (Entry?) -> Entry
  ) throws -> Saved<Entry> {
    try writer.write { db in
      let entry = make(try Entry.fetchOne(db, key: day))
      try entry.save(db)
      return Saved(entry: entry, newAchievements: try Self.awardAchievements(db))
    }
  }

  /// Adds a tagged I-need-help note.
  @discardableResult
  public func addHelpNote(_ note: HelpNote) throws -> Saved<HelpNote> {
    try writer.write { db in
      try note.insert(db)
      return Saved(entry: note, newAchievements: try Self.awardAchievements(db))
    }
  }

  // MARK: - Achievements and rewards

  static func historyFacts(_ db: Database) throws -> HistoryFacts {
    func days(_ sql: String) throws -> Set<Day> {
      Set(try String.fetchAll(db, sql: sql).compactMap(Day.init))
    }
    return HistoryFacts(
      prepDays: try days("SELECT day FROM prep"),
      reviewDays: try days("SELECT day FROM review"),
      checkinDays: try days("SELECT day FROM checkin"),
      helpDays: try days("SELECT DISTINCT day FROM help_note"),
      followedDays: try days("SELECT day FROM checkin WHERE followed"))
  }

  /// Recomputes achievements from history and stores each once, keeping the earliest day;
  /// returns the ones earned for the first time.
  @discardableResult
  static func awardAchievements(_ db: Database) throws -> [Achievement] {
    let computed = AchievementRule.evaluate(try historyFacts(db))
    let stored = Dictionary(
      uniqueKeysWithValues: try EarnedAchievement.fetchAll(db).map { ($0.key, $0.earnedOn) })
    var new: [Achievement] = []
    for achievement in Achievement.allCases {
      guard let day = computed[achievement] else { continue }
      if let old = stored[achievement] {
        if day < old { try EarnedAchievement(key: achievement, earnedOn: day).update(db) }
      } else {
        try EarnedAchievement(key: achievement, earnedOn: day).insert(db)
        new.append(achievement)
      }
    }
    return new
  }

  /// Earned achievements and their days.
  public func achievements() throws -> [Achievement: Day] {
    try writer.read { db in
      Dictionary(
        uniqueKeysWithValues: try EarnedAchievement.fetchAll(db).map { ($0.key, $0.earnedOn) })
    }
  }

  /// Everything achievements are decided from.
  public func historyFacts() throws -> HistoryFacts {
    try writer.read { db in try Self.historyFacts(db) }
  }

  /// Draws the next celebration with the last message and the number of draws so far, and
  /// remembers what it drew, in one transaction.
  public func drawCelebration(
    _ draw: (_ previousMessage: String?, _ drawIndex: UInt64) -> Celebration
  ) throws -> Celebration {
    try writer.write { db in
      let last = try StateRow.fetchOne(db, key: "reward.last-message")?.value
      let count = try StateRow.fetchOne(db, key: "reward.draws").flatMap { UInt64($0.value) } ?? 0
      let celebration = draw(last, count)
      try StateRow(key: "reward.last-message", value: celebration.message).save(db)
      try StateRow(key: "reward.draws", value: String(count + 1)).save(db)
      let stored = StoredCelebration(number: count, celebration: celebration)
      let json = String(decoding: try JSONEncoder().encode(stored), as: UTF8.self)
      try StateRow(key: "reward.last-celebration", value: json).save(db)
      return celebration
    }
  }

  /// The latest drawn celebration and its draw number (what a Replay button replays).
  public func lastCelebration() throws -> StoredCelebration? {
    try writer.read { db in
      guard let row = try StateRow.fetchOne(db, key: "reward.last-celebration") else { return nil }
      return try? JSONDecoder().decode(StoredCelebration.self, from: Data(row.value.utf8))
    }
  }

  // MARK: - Triggers

  /// When the slot's timer last fired (epoch seconds), as systemd remembers a timer's last
  /// trigger: the base its next elapse is counted from.
  public func lastTrigger(_ slot: Slot) throws -> Int? {
    try writer.read { db in
      try StateRow.fetchOne(db, key: "trigger.\(slot.rawValue)").flatMap { Int($0.value) }
    }
  }

  /// Records a firing of the slot's timer at `at`.
  public func recordTrigger(_ slot: Slot, at: Int) throws {
    try writer.write { db in
      try StateRow(key: "trigger.\(slot.rawValue)", value: String(at)).save(db)
    }
  }

  // MARK: - Snoozes

  /// Stores a snoozed reminder: `slot` is due again at `due` (epoch seconds) for `elapse`.
  public func saveSnooze(_ snooze: Snooze) throws {
    try writer.write { db in
      try StateRow(key: Snooze.key(snooze.slot), value: "\(snooze.due) \(snooze.elapse ?? -1)")
        .save(db)
    }
  }

  /// Every stored snooze, due or not.
  public func snoozes() throws -> [Snooze] {
    try writer.read { db in
      try Slot.allCases.compactMap { slot in
        try StateRow.fetchOne(db, key: Snooze.key(slot)).flatMap { Snooze(slot: slot, $0.value) }
      }
    }
  }

  /// Takes the slot's snooze when it is due at `now`; nil when there is none or another
  /// process took it first (so a snooze is re-posted once, by whoever comes first).
  public func takeDueSnooze(_ slot: Slot, now: Int) throws -> Snooze? {
    try writer.write { db in
      guard let row = try StateRow.fetchOne(db, key: Snooze.key(slot)),
        let snooze = Snooze(slot: slot, row.value), snooze.due <= now
      else { return nil }
      try db.execute(sql: "DELETE FROM state WHERE key = ?", arguments: [Snooze.key(slot)])
      return snooze
    }
  }

  // MARK: - Reads

  public func prep(on day: Day) throws -> PrepEntry? {
    try writer.read { db in try PrepEntry.fetchOne(db, key: day) }
  }

  public func review(on day: Day) throws -> ReviewEntry? {
    try writer.read { db in try ReviewEntry.fetchOne(db, key: day) }
  }

  public func checkin(on day: Day) throws -> CheckinEntry? {
    try writer.read { db in try CheckinEntry.fetchOne(db, key: day) }
  }

  /// The most recent Morning Focus before `day`, to offer its Why and swap again.
  public func latestReview(before day: Day) throws -> ReviewEntry? {
    try writer.read { db in
      try ReviewEntry.filter(Column("day") < day).order(Column("day").desc).fetchOne(db)
    }
  }

  /// Every entry whose day lies in `days`, laid out as a timeline.
  public func history(from first: Day, through last: Day) throws -> [HistoryDay] {
    try writer.read { db in
      let range = Column("day") >= first && Column("day") <= last
      return Timeline.days(
        endingOn: last, count: last.ordinal - first.ordinal + 1,
        prep: try PrepEntry.filter(range).fetchAll(db),
        review: try ReviewEntry.filter(range).fetchAll(db),
        checkin: try CheckinEntry.filter(range).fetchAll(db),
        help: try HelpNote.filter(range).fetchAll(db))
    }
  }

  public func helpNotes(from first: Day, through last: Day) throws -> [HelpNote] {
    try writer.read { db in
      try HelpNote.filter(Column("day") >= first && Column("day") <= last).order(Column("at"))
        .fetchAll(db)
    }
  }

  /// Days on which any flow was completed.
  public func doneDays() throws -> Set<Day> {
    try writer.read { db in
      let days = try String.fetchAll(
        db,
        sql: """
          SELECT day FROM prep UNION SELECT day FROM review
          UNION SELECT day FROM checkin UNION SELECT day FROM help_note
          """)
      return Set(days.compactMap(Day.init))
    }
  }

  // MARK: - Settings

  public func storedSettings() throws -> [String: String] {
    try writer.read { db in
      Dictionary(
        uniqueKeysWithValues: try SettingRow.fetchAll(db).map { ($0.key, $0.value) })
    }
  }

  public func settings() throws -> Settings { Settings(stored: try storedSettings()) }

  public func setSetting(_ key: SettingKey, to value: String) throws {
    try writer.write { db in try SettingRow(key: key.rawValue, value: value).save(db) }
  }

  public func removeSetting(_ key: SettingKey) throws {
    _ = try writer.write { db in try SettingRow.deleteOne(db, key: key.rawValue) }
  }

  // MARK: - Export and import

  public func exportDocument() throws -> ExportDocument {
    try writer.read { db in
      ExportDocument(
        settings: Dictionary(
          uniqueKeysWithValues: try SettingRow.fetchAll(db).map { ($0.key, $0.value) }),
        prep: try PrepEntry.fetchAll(db), review: try ReviewEntry.fetchAll(db),
        checkin: try CheckinEntry.fetchAll(db), help: try HelpNote.fetchAll(db),
        achievements: try EarnedAchievement.fetchAll(db),
        schedule: try SlotSchedule.fetchAll(db))
    }
  }

  /// How an import changed the database.
  public struct ImportSummary: Equatable, Sendable {
    public var added = 0
    public var updated = 0
    public var unchanged = 0
    public var newAchievements: [Achievement] = []
    /// Whether a slot's schedule came from the document (installed units need an update).
    public var scheduleChanged = false
  }

  /// Merges a checked document in one transaction: entries new to a day are added, a newer
  /// save of a day replaces an older one, notes are kept by id, local settings win.
  public func importDocument(_ document: ExportDocument) throws -> ImportSummary {
    try writer.write { db in
      var summary = ImportSummary()
      func merge<Entry: FetchableRecord & PersistableRecord & Equatable>(
        _ entries: [Entry], day: (Entry) -> Day, savedAt: (Entry) -> String
      ) throws {
        for entry in entries {
          guard let existing = try Entry.fetchOne(db, key: day(entry)) else {
            try entry.insert(db)
            summary.added += 1
            continue
          }
          let incoming = InstantFormat.parse(savedAt(entry)) ?? .distantPast
          let local = InstantFormat.parse(savedAt(existing)) ?? .distantPast
          if existing != entry && incoming > local {
            try entry.update(db)
            summary.updated += 1
          } else {
            summary.unchanged += 1
          }
        }
      }
      try merge(document.prep, day: \.day, savedAt: \.savedAt)
      try merge(document.review, day: \.day, savedAt: \.savedAt)
      try merge(document.checkin, day: \.day, savedAt: \.savedAt)
      for note in document.help {
        if try note.exists(db) {
          summary.unchanged += 1
        } else {
          try note.insert(db)
          summary.added += 1
        }
      }
      for (key, value) in document.settings {
        if try SettingRow.exists(db, key: key) { continue }
        try SettingRow(key: key, value: value).insert(db)
      }
      // like settings, a slot already changed here keeps its local schedule
      for schedule in document.schedule where try !SlotSchedule.exists(db, key: schedule.slot) {
        try schedule.insert(db)
        summary.scheduleChanged = true
      }
      for earned in document.achievements {
        if let old = try EarnedAchievement.fetchOne(db, key: earned.key.rawValue) {
          if earned.earnedOn < old.earnedOn { try earned.update(db) }
        } else {
          try earned.insert(db)
          summary.newAchievements.append(earned.key)
        }
      }
      let awarded = try Self.awardAchievements(db)
      summary.newAchievements = Achievement.allCases.filter {
        summary.newAchievements.contains($0) || awarded.contains($0)
      }
      return summary
    }
  }

  // MARK: - Reminders

  /// Each slot's schedule, defaults for slots never changed.
  public func schedules() throws -> [SlotSchedule] {
    try writer.read { db in
      let stored = try SlotSchedule.fetchAll(db)
      return Slot.allCases.map { slot in
        stored.first { $0.slot == slot } ?? .defaults(slot)
      }
    }
  }

  public func saveSchedule(_ schedule: SlotSchedule) throws {
    try writer.write { db in try schedule.save(db) }
  }

  /// Claims (slot, elapse) for one reminder and logs its outcome, atomically. A second claim of
  /// the same pair is refused by the UNIQUE key (not a check-then-insert), logs `duplicate`
  /// and returns false.
  public func claimFiring(slot: Slot, elapse: Int, outcome: ReminderOutcome, at: String) throws
    -> Bool
  {
    try writer.write { db in
      do {
        try db.execute(
          sql: "INSERT INTO reminder_claim (slot, elapse) VALUES (?, ?)",
          arguments: [slot.rawValue, elapse])
      } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
        try ReminderLogEntry(slot: slot, elapse: elapse, outcome: .duplicate, at: at).insert(db)
        return false
      }
      try ReminderLogEntry(slot: slot, elapse: elapse, outcome: outcome, at: at).insert(db)
      return true
    }
  }

  /// Whether (slot, elapse) has been handled already.
  public func isClaimed(slot: Slot, elapse: Int) throws -> Bool {
    try writer.read { db in
      try Bool.fetchOne(
        db, sql: "SELECT EXISTS (SELECT 1 FROM reminder_claim WHERE slot = ? AND elapse = ?)",
        arguments: [slot.rawValue, elapse]) ?? false
    }
  }

  /// Logs what happened to a reminder (clicked, done, snoozed…).
  public func logReminder(_ entry: ReminderLogEntry) throws {
    try writer.write { db in try entry.insert(db) }
  }

  /// The reminder log, newest last.
  public func reminderLog(limit: Int) throws -> [ReminderLogEntry] {
    try writer.read { db in
      try ReminderLogEntry.order(Column("id").desc).limit(limit).fetchAll(db).reversed()
    }
  }

  /// Whether `flow` was completed on `day`.
  /// The flows finished on `day`.
  public func doneFlows(on day: Day) throws -> Set<Flow> {
    Set(try Flow.allCases.filter { try isDone($0, on: day) })
  }

  public func isDone(_ flow: Flow, on day: Day) throws -> Bool {
    try writer.read { db in
      let table =
        switch flow {
        case .prep: "prep"
        case .review: "review"
        case .checkin: "checkin"
        case .needHelp: "help_note"
        }
      return try Bool.fetchOne(
        db, sql: "SELECT EXISTS (SELECT 1 FROM \(table) WHERE day = ?)", arguments: [day]) ?? false
    }
  }

  /// `PRAGMA integrity_check`: "ok" or the problems SQLite found.
  public func integrityCheck() throws -> String {
    try writer.read { db in
      try String.fetchAll(db, sql: "PRAGMA integrity_check").joined(separator: "; ")
    }
  }
}

extension StoreError {
  /// Maps an SQLite failure to what the person can do about it.
  init(_ error: any Error, path: String) {
    guard let db = error as? DatabaseError else {
      self = .cannotCreate("Cannot use the database at \(path): \(error).")
      return
    }
    let keep =
      "Nudge left it untouched; move it away (or set NUDGE_DB to another file) to start fresh."
    switch db.resultCode {
    case .SQLITE_BUSY, .SQLITE_LOCKED:
      self = .busy(
        "The database at \(path) is busy: another nudge is writing. Try again in a moment.")
    case .SQLITE_NOTADB, .SQLITE_CORRUPT:
      self = .notNudgeDatabase("\(path) is damaged or not a database. \(keep)")
    case .SQLITE_FULL:
      self = .cannotCreate(
        "The disk holding \(path) is full: free some space and try again; nothing was saved.")
    case .SQLITE_READONLY, .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_AUTH:
      self = .cannotCreate(
        "Cannot write the database at \(path) (\(db.message ?? "read-only")): fix the permissions of the file and its directory, or set NUDGE_DB."
      )
    default:
      self = .cannotCreate(
        "The database at \(path) failed: \(db.message ?? "\(db.resultCode)"). Nothing was changed; try again."
      )
    }
  }
}

extension StoreError {
  /// Maps any failure of a read or write to a `StoreError`.
  public static func from(_ error: any Error, path: String) -> StoreError {
    if let error = error as? StoreError { return error }
    return StoreError(error, path: path)
  }
}
