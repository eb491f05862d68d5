import Glibc
import NudgeCore

/// Gadgetbridge's database export (the Android companion of Amazfit, Mi Band, Pebble,
/// PineTime…), read for the Huami/Zepp family: sleep, heart rate and steps, as samples the
/// health digest takes. Opened read-only and immutable, never written or "repaired": a file
/// still being copied by a sync (its pages fewer than its header says) is refused for now and
/// taken next time. Where each shape comes from: scripts/fixtures/gadgetbridge/SCHEMA-NOTES.md.
///
/// - MI_BAND_ACTIVITY_SAMPLE (Mi Band 2–6, Amazfit Bip, GTR, GTS…): a row a minute, TIMESTAMP
///   in seconds; `RAW_KIND & 0xF` 9 light and 11 deep sleep (Mi Band 1: 5 light, 4 deep), 3
///   not worn, 0 and 10 the minute before's kind.
/// - HUAMI_EXTENDED_ACTIVITY_SAMPLE (Zepp OS: Mi Band 7, GTS 3/4, GTR 3/4…): kind 120 sleep,
///   REM when `REM_SLEEP & 127` > 55, else deep when `DEEP_SLEEP & 127` > 42, else light.
/// - Heart rate counts from 10 to 250 (0 and 255 are "not measured"); light sleep is HealthKit's
///   core.
public struct GadgetbridgeReader {
  /// Why a file is not read; one line.
  public struct Failure: Error, Equatable, Sendable {
    public var message: String
    /// The file is busy (being copied, locked): try again later, not bad data.
    public var busy = false
  }

  /// What was read: the samples, the devices read and those not read yet (by name and kind).
  public struct Read: Sendable {
    public var samples: [HealthSample]
    /// Heart-rate minutes read (valid ones), counted: no rule reads them.
    public var heartRateMinutes: Int
    public var devicesRead: [String]
    public var devicesNotRead: [String]
    /// Set when the schema is newer than the versions Nudge was written against.
    public var newerSchema: Int?
  }

  /// The schema versions read (greenDAO's `Schema(92, …)` of 2024 to `Schema(140, …)` of 2025).
  public static let knownVersions = 1...140

  /// The device kinds whose minutes are in MI_BAND_ACTIVITY_SAMPLE or
  /// HUAMI_EXTENDED_ACTIVITY_SAMPLE: read by their table, so any device with rows there is read.
  static let tables = ["MI_BAND_ACTIVITY_SAMPLE", "HUAMI_EXTENDED_ACTIVITY_SAMPLE"]

  /// Reads `path`; `offset` gives the person's UTC offset at an instant (Gadgetbridge keeps
  /// UTC seconds, and the night's clock is the wearer's).
  public static func read(path: String, offset: (Int) -> Int) throws(Failure) -> Read {
    var info = stat()
    guard stat(path, &info) == 0 else { throw Failure(message: "it cannot be read") }
    guard info.st_mode & S_IFMT == S_IFREG else {
      throw Failure(message: "it is not a regular file")
    }
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else { throw Failure(message: "it cannot be read") }
    var head = [UInt8](repeating: 0, count: 100)
    let got = pread(fd, &head, 100, 0)
    close(fd)
    guard got == 100, let header = DatabaseFileHeader(head) else {
      throw Failure(message: "it is not an SQLite database")
    }
    if header.countIsValid && Int(info.st_size) < header.pageCount * header.pageSize {
      throw Failure(
        message:
          "it is still being copied (\(info.st_size) of \(header.pageCount * header.pageSize) bytes); it is taken next time",
        busy: true)
    }
    do {
      let db = try SQLiteConnection(path: path, readOnly: true, immutable: true)
      let tables = Set(try db.texts("SELECT name FROM sqlite_schema WHERE type = 'table'"))
      guard tables.contains("DEVICE") else {
        throw Failure(message: "it is an SQLite database, but not Gadgetbridge's (no DEVICE table)")
      }
      let version = try db.integer("PRAGMA user_version") ?? 0
      var devices: [Int: (name: String, kind: String)] = [:]
      try db.forEachRow("SELECT _id, NAME, TYPE_NAME FROM DEVICE") { row in
        devices[row.integer(at: 0) ?? -1] = (row.text(at: 1) ?? "", row.text(at: 2) ?? "")
      }
      var samples: [HealthSample] = []
      var heartRateMinutes = 0
      var read: Set<Int> = []
      for table in tables.intersection(Self.tables).sorted() {
        let extended = table == "HUAMI_EXTENDED_ACTIVITY_SAMPLE"
        let columns =
          "TIMESTAMP, DEVICE_ID, RAW_KIND, STEPS, HEART_RATE"
          + (extended ? ", DEEP_SLEEP, REM_SLEEP" : "")
        var last: [Int: (kind: HealthSample.SleepStage?, start: Int, end: Int)] = [:]
        var previousKind: [Int: Int] = [:]
        func close(_ device: Int) {
          guard let open = last[device], let stage = open.kind else { return }
          let name = devices[device]?.name ?? "Gadgetbridge device \(device)"
          samples.append(
            HealthSample(
              kind: .sleep, stage: stage, value: 0, start: Instant(seconds: open.start),
              end: Instant(seconds: open.end), offset: offset(open.start), source: name,
              device: devices[device]?.kind))
        }
        try db.forEachRow("SELECT \(columns) FROM \(table) ORDER BY DEVICE_ID, TIMESTAMP") { row in
          // a minute from 1900 to 9998 (a damaged row's time is passed over)
          guard let time = row.integer(at: 0), let device = row.integer(at: 1),
            (-2_208_988_800...253_370_764_800).contains(time)
          else { return }
          read.insert(device)
          let name = devices[device]?.name ?? "Gadgetbridge device \(device)"
          let kindName = devices[device]?.kind
          var raw = row.integer(at: 2) ?? -1
          if !extended && raw != -1 { raw &= 0xF }
          if !extended && (raw == 0 || raw == 10) { raw = previousKind[device] ?? raw }
          previousKind[device] = raw
          var stage: HealthSample.SleepStage? = nil
          if extended {
            if raw == 120 {
              let rem = (row.integer(at: 6) ?? 0) & 127
              let deep = (row.integer(at: 5) ?? 0) & 127
              stage = rem > 55 ? .rem : deep > 42 ? .deep : .core
            }
          } else if kindName == "MIBAND" {
            stage = raw == 4 ? .deep : raw == 5 ? .core : nil
          } else {
            stage = raw == 11 ? .deep : raw == 9 ? .core : nil
          }
          // a run of minutes of one stage is one segment
          if let open = last[device], open.kind == stage, open.end == time {
            last[device]!.end = time + 60
          } else {
            close(device)
            last[device] = (stage, time, time + 60)
          }
          let at = offset(time)
          if let steps = row.integer(at: 3), steps > 0 {
            samples.append(
              HealthSample(
                kind: .steps, stage: nil, value: Double(steps), start: Instant(seconds: time),
                end: Instant(seconds: time + 60), offset: at, source: name, device: kindName))
          }
          if let rate = row.integer(at: 4), (10...250).contains(rate) { heartRateMinutes += 1 }
        }
        for device in last.keys.sorted() { close(device) }
      }
      if tables.contains("HUAMI_HEART_RATE_RESTING_SAMPLE") {
        try db.forEachRow(
          "SELECT TIMESTAMP, DEVICE_ID, HEART_RATE FROM HUAMI_HEART_RATE_RESTING_SAMPLE ORDER BY TIMESTAMP"
        ) { row in
          guard let ms = row.integer(at: 0), let device = row.integer(at: 1),
            let rate = row.integer(at: 2), (10...250).contains(rate),
            (-2_208_988_800_000...253_370_764_800_000).contains(ms)
          else { return }
          let time = ms / 1000
          samples.append(
            HealthSample(
              kind: .restingHeartRate, stage: nil, value: Double(rate),
              start: Instant(seconds: time), end: Instant(seconds: time), offset: offset(time),
              source: devices[device]?.name ?? "Gadgetbridge device \(device)",
              device: devices[device]?.kind))
        }
      }
      let named = { (id: Int) in
        devices[id].map { "\($0.name) (\($0.kind))" } ?? "device \(id)"
      }
      return Read(
        samples: samples, heartRateMinutes: heartRateMinutes, devicesRead: read.sorted().map(named),
        devicesNotRead: devices.keys.filter { !read.contains($0) }.sorted().map(named),
        newerSchema: version > knownVersions.upperBound ? version : nil)
    } catch let failure as Failure {
      throw failure
    } catch let error as SQLiteError {
      switch error.code {
      case 5, 6:
        throw Failure(
          message: "it is locked by another program; try again when it is done", busy: true)
      case 11, 26: throw Failure(message: "it is damaged (SQLite: \(error.message))")
      case 1:
        throw Failure(
          message:
            "its tables are not the ones Nudge knows (\(error.message)); a Gadgetbridge of another version wrote it"
        )
      default: throw Failure(message: "SQLite could not read it: \(error.message)")
      }
    } catch {
      throw Failure(message: "it could not be read: \(error)")
    }
  }
}
