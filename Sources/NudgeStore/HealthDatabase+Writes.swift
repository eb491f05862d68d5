import Glibc
import NudgeCore

/// What one import changed: rows written (new or different) and removed; nothing when the
/// file was taken in as it is before.
public struct HealthTakeResult: Equatable, Sendable {
  public var written: Int
  public var removed: Int
  public var unchanged: Bool
}

extension HealthDatabase {
  /// Takes one file's nights, days and workouts in one transaction: a row the store holds
  /// already, the same, is not rewritten; a row of the same origin within the file's span
  /// that the file no longer holds is removed (so a newer export ends as it would in an empty
  /// store); rows outside its span are kept for good. The same file again writes nothing.
  public func take(_ batch: HealthImportBatch) throws(StoreError) -> HealthTakeResult {
    do {
      if try alreadyTaken(batch.file) {
        return HealthTakeResult(written: 0, removed: 0, unchanged: true)
      }
      return try db.transaction(immediate: true) {
        let before = db.totalChanges
        var removed = 0
        if let span = batch.span, !batch.partial {
          removed += try removeMissing(
            table: "nights", origin: batch.origin, span: span,
            keep: Set(batch.nights.map(\.night.day.description)))
          removed += try removeMissing(
            table: "days", origin: batch.origin, span: span,
            keep: Set(batch.days.map(\.day.description)))
          removed += try removeMissingWorkouts(batch, span: span)
        }
        adding = batch.partial
        defer { adding = false }
        for night in batch.nights { try write(night, origin: batch.origin) }
        for day in batch.days { try write(day, origin: batch.origin) }
        for workout in batch.workouts { try write(workout, origin: batch.origin) }
        let rowChanges = db.totalChanges - before - removed
        try db.execute(
          """
          INSERT INTO files(path, size, modified, origin) VALUES (?, ?, ?, ?)
          ON CONFLICT(path) DO UPDATE SET size = excluded.size, modified = excluded.modified,
            origin = excluded.origin
          """,
          [
            .text(batch.file.path), .integer(Int64(batch.file.size)),
            .integer(Int64(batch.file.modified)), .text(batch.origin),
          ])
        return HealthTakeResult(written: rowChanges, removed: removed, unchanged: false)
      }
    } catch let error as StoreError {
      throw error
    } catch {
      throw StoreError.from(error, path: path)
    }
  }

  /// Removes the rows of `origin` inside `span` whose day is not in `keep`; how many.
  private func removeMissing(
    table: String, origin: String, span: ClosedRange<Day>, keep: Set<String>
  )
    throws -> Int
  {
    let held = try db.texts(
      "SELECT day FROM \(table) WHERE origin = ? AND day BETWEEN ? AND ?",
      [.text(origin), .text(span.lowerBound.description), .text(span.upperBound.description)])
    let gone = held.filter { !keep.contains($0) }
    for day in gone {
      try db.execute(
        "DELETE FROM \(table) WHERE origin = ? AND day = ?", [.text(origin), .text(day)])
      if table == "nights" {
        try db.execute(
          "DELETE FROM night_signals WHERE origin = ? AND day = ?", [.text(origin), .text(day)])
      }
    }
    return gone.count
  }

  /// Removes the workouts of the batch's origin that start inside its span and that it no
  /// longer holds (deleted or edited on the phone); how many.
  private func removeMissingWorkouts(_ batch: HealthImportBatch, span: ClosedRange<Day>) throws
    -> Int
  {
    let keep = Set(batch.workouts.map { "\($0.start.microseconds) \($0.type) \($0.source)" })
    let held = try db.rows(
      "SELECT start, type, source FROM workouts WHERE origin = ? AND day BETWEEN ? AND ?",
      [
        .text(batch.origin), .text(span.lowerBound.description),
        .text(span.upperBound.description),
      ]
    ) { row in (row.integer(at: 0) ?? 0, row.text(at: 1) ?? "", row.text(at: 2) ?? "") }
    let gone = held.filter { !keep.contains("\($0.0) \($0.1) \($0.2)") }
    for (start, type, source) in gone {
      try db.execute(
        "DELETE FROM workouts WHERE origin = ? AND start = ? AND type = ? AND source = ?",
        [.text(batch.origin), .integer(Int64(start)), .text(type), .text(source)])
    }
    return gone.count
  }

  /// An upsert that changes a row only when a value differs (while `adding`: an insert that
  /// leaves a row held alone).
  private func upsert(_ table: String, keys: [String], columns: [String], _ values: [SQLValue])
    throws
  {
    let all = keys + columns
    if adding {
      try db.execute(
        "INSERT OR IGNORE INTO \(table)(\(all.joined(separator: ", "))) VALUES (\(all.map { _ in "?" }.joined(separator: ", ")))",
        values)
      return
    }
    let sets = columns.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
    let differs = columns.map { "\(table).\($0) IS NOT excluded.\($0)" }.joined(separator: " OR ")
    try db.execute(
      """
      INSERT INTO \(table)(\(all.joined(separator: ", "))) VALUES (\(all.map { _ in "?" }.joined(separator: ", ")))
      ON CONFLICT(\(keys.joined(separator: ", "))) DO UPDATE SET \(sets) WHERE \(differs)
      """, values)
  }

  private static func real(_ value: Double?) -> SQLValue { value.map(SQLValue.real) ?? .null }

  private func write(_ entry: HealthDigest.Night, origin: String) throws {
    let night = entry.night
    let day = SQLValue.text(night.day.description)
    // a partial file adds nights, and never signals to a night held already
    if adding,
      try db.integer(
        "SELECT count(*) FROM nights WHERE origin = ? AND day = ?", [.text(origin), day])
        == 1
    {
      return
    }
    let stages: [HealthSample.SleepStage] = [
      .inBed, .asleepUnspecified, .awake, .core, .deep, .rem,
    ]
    try upsert(
      "nights", keys: ["origin", "day"],
      columns: [
        "source", "sleep_start", "wake", "sleep_start_offset", "wake_offset", "asleep_minutes",
        "in_bed_minutes", "in_bed", "asleep_unspecified", "awake", "core", "deep", "rem",
      ],
      [
        .text(origin), day, .text(night.source), .integer(Int64(night.sleepStart.microseconds)),
        .integer(Int64(night.wake.microseconds)), .integer(Int64(night.sleepStartOffset)),
        .integer(Int64(night.wakeOffset)), .real(night.asleepMinutes), .real(night.inBedMinutes),
      ] + stages.map { Self.real(night.stageMinutes[$0]) })
    for signal in HealthSignal.allCases {
      guard let reading = entry.signals[signal] else {
        if adding { continue }
        try db.execute(
          "DELETE FROM night_signals WHERE origin = ? AND day = ? AND signal = ?",
          [.text(origin), day, .text(signal.rawValue)])
        continue
      }
      try upsert(
        "night_signals", keys: ["origin", "day", "signal"],
        columns: ["value", "sample_count", "capped_count", "source"],
        [
          .text(origin), day, .text(signal.rawValue), .real(reading.value),
          .integer(Int64(reading.sampleCount)), .integer(Int64(reading.cappedCount)),
          .text(reading.source),
        ])
    }
  }

  private func write(_ day: HealthDigest.ActivityDay, origin: String) throws {
    try upsert(
      "days", keys: ["origin", "day"],
      columns: ["steps", "active_energy_kcal", "summary_active_energy_kcal", "body_mass_kg"],
      [
        .text(origin), .text(day.day.description), Self.real(day.steps),
        Self.real(day.activeEnergyKcal), Self.real(day.summaryActiveEnergyKcal),
        Self.real(day.bodyMassKg),
      ])
  }

  private func write(_ workout: HealthWorkout, origin: String) throws {
    let day = Day(ordinal: floorDiv(workout.start.seconds + workout.offset, 86400))
    try upsert(
      "workouts", keys: ["origin", "start", "type", "source"],
      columns: [
        "end", "day", "offset", "duration_minutes", "energy_kcal", "average_heart_rate",
        "maximum_heart_rate",
      ],
      [
        .text(origin), .integer(Int64(workout.start.microseconds)), .text(workout.type),
        .text(workout.source), .integer(Int64(workout.end.microseconds)), .text(day.description),
        .integer(Int64(workout.offset)), Self.real(workout.durationMinutes),
        Self.real(workout.energyKcal), Self.real(workout.averageHeartRate),
        Self.real(workout.maximumHeartRate),
      ])
  }

  /// Notes that `file`, as it is now, was refused (so a source folder says it once).
  public func noteRefused(_ file: HealthFileIdentity) throws(StoreError) {
    do {
      try db.transaction(immediate: true) {
        try db.execute(
          "INSERT OR REPLACE INTO refusals(path, size, modified) VALUES (?, ?, ?)",
          [.text(file.path), .integer(Int64(file.size)), .integer(Int64(file.modified))])
      }
    } catch { throw StoreError.from(error, path: path) }
  }

  /// Sets the sources preferred, first first (none: the default order), and forgets which
  /// files were taken, so that each is read again, in the new order, by the next import.
  public func prefer(_ sources: [String]) throws(StoreError) {
    do {
      try db.transaction(immediate: true) {
        try db.execute("DELETE FROM preferred")
        for (position, source) in sources.enumerated() {
          try db.execute(
            "INSERT INTO preferred(position, source) VALUES (?, ?)",
            [.integer(Int64(position)), .text(source)])
        }
        try db.execute("DELETE FROM files")
      }
    } catch { throw StoreError.from(error, path: path) }
  }

  /// Adds a folder to take exports from; false when it was there already.
  public func addFolder(_ folder: String) throws(StoreError) -> Bool {
    do {
      return try db.transaction(immediate: true) {
        let before = db.totalChanges
        try db.execute("INSERT OR IGNORE INTO folders(path) VALUES (?)", [.text(folder)])
        return db.totalChanges > before
      }
    } catch { throw StoreError.from(error, path: path) }
  }

  /// Removes a folder; false when it was not there.
  public func removeFolder(_ folder: String) throws(StoreError) -> Bool {
    do {
      return try db.transaction(immediate: true) {
        let before = db.totalChanges
        try db.execute("DELETE FROM folders WHERE path = ?", [.text(folder)])
        return db.totalChanges > before
      }
    } catch { throw StoreError.from(error, path: path) }
  }

  /// Removes the health store at `path` whole (its WAL and shared memory too); whether there
  /// was one.
  public static func forget(path: String) -> Bool {
    var removed = false
    for suffix in ["", "-wal", "-shm", "-journal"] where unlink(path + suffix) == 0 {
      removed = true
    }
    return removed
  }
}
