import Glibc
import NudgeCore

/// The health store: what imports of watch and phone exports keep (each night with its
/// signals, each day's activity, workouts, the files already taken in and the folders to
/// watch), in a file of its own beside the database, mode 0600, never in the sync folder, and
/// removed whole by `nudge health forget`.
public final class HealthDatabase: @unchecked Sendable {
  /// "NUDH": the health file's SQLite application id.
  static let applicationID: Int32 = 0x4E55_4448
  static let schemaVersion = 1
  let db: SQLiteConnection
  public let path: String
  /// Set while a partial file's rows are written: inserts only.
  var adding = false

  /// Where the health store lives: `NUDGE_HEALTH_DB`, else `health.sqlite3` in the
  /// database's folder.
  public static func path(environment: [String: String]) -> String {
    if let explicit = environment["NUDGE_HEALTH_DB"], !explicit.isEmpty { return explicit }
    let database = DatabaseLocation.path(environment: environment)
    let folder = database.split(separator: "/", omittingEmptySubsequences: false).dropLast()
      .joined(separator: "/")
    return (folder.isEmpty ? "." : folder) + "/health.sqlite3"
  }

  private init(db: SQLiteConnection, path: String) {
    self.db = db
    self.path = path
  }

  /// Opens the health store at `path`; nil when there is none and `create` is false.
  public static func at(_ path: String, create: Bool) throws(StoreError) -> HealthDatabase? {
    var info = stat()
    let exists = stat(path, &info) == 0
    if !exists {
      guard create else { return nil }
      let folder = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
      if !folder.isEmpty { mkdirs(folder) }
      let fd = Glibc.open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
      guard fd >= 0 || errno == EEXIST else {
        throw .cannotCreate(
          "Cannot create the health store at \(path): \(String(cString: strerror(errno))). Fix the folder's permissions or set NUDGE_HEALTH_DB."
        )
      }
      if fd >= 0 { Glibc.close(fd) }
    } else if (info.st_mode & S_IFMT) != S_IFREG {
      throw .notNudgeDatabase("\(path) is not a file; move it away to keep health data there.")
    } else if info.st_mode & 0o077 != 0 {
      chmod(path, 0o600)
    }
    do {
      let db = try SQLiteConnection(path: path)
      let id = try db.integer("PRAGMA application_id") ?? 0
      let version = try db.integer("PRAGMA user_version") ?? 0
      let tables = try db.integer("SELECT count(*) FROM sqlite_schema") ?? 0
      if id == 0 && version == 0 && tables == 0 {
        try db.transaction(immediate: true) { try db.execute(schema) }
      } else if id != Int(applicationID) {
        throw StoreError.notNudgeDatabase(
          "\(path) is not Nudge's health store; Nudge left it untouched (move it away, or run 'nudge health forget')."
        )
      } else if version > schemaVersion {
        throw StoreError.newerSchema(
          "\(path) was written by a newer Nudge (health schema \(version)); update Nudge, the file was left untouched."
        )
      }
      return HealthDatabase(db: db, path: path)
    } catch let error as StoreError {
      throw error
    } catch {
      throw StoreError.from(error, path: path)
    }
  }

  private static func mkdirs(_ folder: String) {
    var made = ""
    for part in folder.split(separator: "/") {
      made += "/" + part
      mkdir(made, 0o700)
    }
  }

  static let schema = """
    PRAGMA application_id = \(applicationID);
    PRAGMA user_version = \(schemaVersion);
    CREATE TABLE files(path TEXT PRIMARY KEY, size INTEGER NOT NULL, modified INTEGER NOT NULL,
      origin TEXT NOT NULL) WITHOUT ROWID;
    CREATE TABLE nights(origin TEXT NOT NULL, day TEXT NOT NULL, source TEXT NOT NULL,
      sleep_start INTEGER NOT NULL, wake INTEGER NOT NULL, sleep_start_offset INTEGER NOT NULL,
      wake_offset INTEGER NOT NULL, asleep_minutes REAL NOT NULL, in_bed_minutes REAL NOT NULL,
      in_bed REAL, asleep_unspecified REAL, awake REAL, core REAL, deep REAL, rem REAL,
      PRIMARY KEY(origin, day)) WITHOUT ROWID;
    CREATE TABLE night_signals(origin TEXT NOT NULL, day TEXT NOT NULL, signal TEXT NOT NULL,
      value REAL NOT NULL, sample_count INTEGER NOT NULL, capped_count INTEGER NOT NULL,
      source TEXT NOT NULL, PRIMARY KEY(origin, day, signal)) WITHOUT ROWID;
    CREATE TABLE days(origin TEXT NOT NULL, day TEXT NOT NULL, steps REAL,
      active_energy_kcal REAL, summary_active_energy_kcal REAL, body_mass_kg REAL,
      PRIMARY KEY(origin, day)) WITHOUT ROWID;
    CREATE TABLE workouts(origin TEXT NOT NULL, start INTEGER NOT NULL, type TEXT NOT NULL,
      source TEXT NOT NULL, end INTEGER NOT NULL, day TEXT NOT NULL, offset INTEGER NOT NULL,
      duration_minutes REAL, energy_kcal REAL, average_heart_rate REAL,
      maximum_heart_rate REAL, PRIMARY KEY(origin, start, type, source)) WITHOUT ROWID;
    CREATE TABLE folders(path TEXT PRIMARY KEY) WITHOUT ROWID;
    CREATE TABLE refusals(path TEXT PRIMARY KEY, size INTEGER NOT NULL,
      modified INTEGER NOT NULL) WITHOUT ROWID;
    CREATE TABLE preferred(position INTEGER PRIMARY KEY, source TEXT NOT NULL);
    CREATE INDEX nights_by_day ON nights(day);
    CREATE INDEX night_signals_by_day ON night_signals(day);
    CREATE INDEX days_by_day ON days(day);
    CREATE INDEX workouts_by_end ON workouts(end);
    """

  /// Whether `file` was taken in as it is now (same path, size and modification time).
  public func alreadyTaken(_ file: HealthFileIdentity) throws(StoreError) -> Bool {
    do {
      return try db.integer(
        "SELECT count(*) FROM files WHERE path = ? AND size = ? AND modified = ?",
        [.text(file.path), .integer(Int64(file.size)), .integer(Int64(file.modified))]) == 1
    } catch { throw StoreError.from(error, path: path) }
  }

  /// Whether `file`, as it is now, was refused before (a source folder's refusal is said once).
  public func refusedBefore(_ file: HealthFileIdentity) throws(StoreError) -> Bool {
    do {
      return try db.integer(
        "SELECT count(*) FROM refusals WHERE path = ? AND size = ? AND modified = ?",
        [.text(file.path), .integer(Int64(file.size)), .integer(Int64(file.modified))]) == 1
    } catch { throw StoreError.from(error, path: path) }
  }

  /// The sources preferred where several measured one thing, first first (`nudge health
  /// prefer`); empty: a Watch first, then by name.
  public func preferredSources() throws(StoreError) -> [String] {
    do { return try db.texts("SELECT source FROM preferred ORDER BY position") } catch {
      throw StoreError.from(error, path: path)
    }
  }

  /// The folders `nudge health` takes new exports from.
  public func folders() throws(StoreError) -> [String] {
    do { return try db.texts("SELECT path FROM folders ORDER BY path") } catch {
      throw StoreError.from(error, path: path)
    }
  }

  /// The nights kept from `from` through `through`, one a morning (of two origins, the first
  /// by name: an Apple Health export's before a Gadgetbridge database's).
  public func nights(from: Day, through: Day) throws(StoreError) -> [HealthDigest.Night] {
    do {
      var signals: [String: [HealthSignal: HealthSignalReading]] = [:]
      try db.forEachRow(
        "SELECT origin, day, signal, value, sample_count, capped_count, source FROM night_signals WHERE day BETWEEN ? AND ?",
        [.text(from.description), .text(through.description)]
      ) { row in
        guard let signal = row.text(at: 2).flatMap(HealthSignal.init(rawValue:)) else { return }
        signals[row.text(at: 0)! + " " + row.text(at: 1)!, default: [:]][signal] =
          HealthSignalReading(
            value: row.double(at: 3) ?? 0, sampleCount: row.integer(at: 4) ?? 0,
            cappedCount: row.integer(at: 5) ?? 0, source: row.text(at: 6) ?? "")
      }
      var byDay: [Day: HealthDigest.Night] = [:]
      try db.forEachRow(
        """
        SELECT origin, day, source, sleep_start, wake, sleep_start_offset, wake_offset,
          asleep_minutes, in_bed_minutes, in_bed, asleep_unspecified, awake, core, deep, rem
        FROM nights WHERE day BETWEEN ? AND ? ORDER BY origin DESC
        """, [.text(from.description), .text(through.description)]
      ) { row in
        guard let day = row.day(at: 1) else { return }
        var stages: [HealthSample.SleepStage: Double] = [:]
        let columns: [HealthSample.SleepStage] = [
          .inBed, .asleepUnspecified, .awake, .core, .deep, .rem,
        ]
        for (index, stage) in columns.enumerated() {
          if let minutes = row.double(at: Int32(9 + index)) { stages[stage] = minutes }
        }
        let night = HealthNight(
          day: day, source: row.text(at: 2) ?? "",
          sleepStart: Instant(microseconds: row.integer(at: 3) ?? 0),
          wake: Instant(microseconds: row.integer(at: 4) ?? 0),
          sleepStartOffset: row.integer(at: 5) ?? 0, wakeOffset: row.integer(at: 6) ?? 0,
          asleepMinutes: row.double(at: 7) ?? 0, inBedMinutes: row.double(at: 8) ?? 0,
          stageMinutes: stages)
        byDay[day] = HealthDigest.Night(
          night: night, signals: signals[row.text(at: 0)! + " " + day.description] ?? [:])
      }
      return byDay.values.sorted { $0.night.day < $1.night.day }
    } catch { throw StoreError.from(error, path: path) }
  }

  /// The days' activity kept from `from` through `through`, one a day (origins as for nights).
  public func activity(from: Day, through: Day) throws(StoreError) -> [HealthDigest.ActivityDay] {
    do {
      var byDay: [Day: HealthDigest.ActivityDay] = [:]
      // each figure from the first origin (by name) that has it: an Apple Health day without
      // steps does not hide Gadgetbridge's
      try db.forEachRow(
        """
        SELECT day, steps, active_energy_kcal, summary_active_energy_kcal, body_mass_kg
        FROM days WHERE day BETWEEN ? AND ? ORDER BY origin
        """, [.text(from.description), .text(through.description)]
      ) { row in
        guard let day = row.day(at: 0) else { return }
        var entry = byDay[day] ?? HealthDigest.ActivityDay(day: day)
        entry.steps = entry.steps ?? row.double(at: 1)
        entry.activeEnergyKcal = entry.activeEnergyKcal ?? row.double(at: 2)
        entry.summaryActiveEnergyKcal = entry.summaryActiveEnergyKcal ?? row.double(at: 3)
        entry.bodyMassKg = entry.bodyMassKg ?? row.double(at: 4)
        byDay[day] = entry
      }
      return byDay.values.sorted { $0.day < $1.day }
    } catch { throw StoreError.from(error, path: path) }
  }

  /// The workouts that end from `from` up to `until`, by start.
  public func workouts(from: Instant, until: Instant) throws(StoreError) -> [HealthWorkout] {
    do {
      return try db.rows(
        """
        SELECT type, start, end, offset, duration_minutes, energy_kcal, average_heart_rate,
          maximum_heart_rate, source FROM workouts WHERE end >= ? AND end < ?
        ORDER BY start, type, source
        """, [.integer(Int64(from.microseconds)), .integer(Int64(until.microseconds))]
      ) { row in
        HealthWorkout(
          type: row.text(at: 0) ?? "", start: Instant(microseconds: row.integer(at: 1) ?? 0),
          end: Instant(microseconds: row.integer(at: 2) ?? 0), offset: row.integer(at: 3) ?? 0,
          durationMinutes: row.double(at: 4), energyKcal: row.double(at: 5),
          averageHeartRate: row.double(at: 6), maximumHeartRate: row.double(at: 7),
          source: row.text(at: 8) ?? "")
      }
    } catch { throw StoreError.from(error, path: path) }
  }

  /// What the store holds: nights, days, workouts, files, and the first and last morning.
  public func holdings() throws(StoreError) -> HealthHoldings {
    do {
      let first = try db.texts("SELECT min(day) FROM nights").first.flatMap { Day($0) }
      let last = try db.texts("SELECT max(day) FROM nights").first.flatMap { Day($0) }
      let nights = try db.integer("SELECT count(DISTINCT day) FROM nights") ?? 0
      let days = try db.integer("SELECT count(DISTINCT day) FROM days") ?? 0
      let workouts = try db.integer("SELECT count(*) FROM workouts") ?? 0
      let files = try db.texts("SELECT path FROM files ORDER BY path")
      return HealthHoldings(
        nights: nights, days: days, workouts: workouts, files: files, firstNight: first,
        lastNight: last)
    } catch { throw StoreError.from(error, path: path) }
  }
}

/// What the health store holds, for `nudge health` to say.
public struct HealthHoldings: Equatable, Sendable {
  public var nights: Int
  public var days: Int
  public var workouts: Int
  public var files: [String]
  public var firstNight: Day?
  public var lastNight: Day?
}
