import NudgeCore
import NudgeLinux
import NudgeStore
import NudgeUseCases

/// Reads one export file into what the health store takes: an Apple Health `export.zip` or
/// `export.xml`, streamed a chunk at a time (the records of each chunk summed into the digest
/// and let go).
enum HealthImporting {
  /// What reading a file gave: the batch, and what to say of it.
  struct Read {
    var batch: HealthImportBatch
    var records: Int
    /// Set when `--partial` took the records before a cut.
    var cutAt: Int?
    /// What to say besides: devices not read yet, a newer schema.
    var notes: [String] = []
  }

  /// The file as the store remembers it (path, size, modification time), without reading it.
  static func identity(_ path: String) throws(CLIError) -> HealthFileIdentity {
    let file: ExportFile
    do { file = try ExportFile(path: path) } catch {
      throw CLIError("Cannot read \(VisibleText.escaped(path)): \(error.message).", code: .noInput)
    }
    defer { file.close() }
    return HealthFileIdentity(path: path, size: file.size, modified: file.modified)
  }

  /// Reads `path`; `partial` takes the whole records before a file that ends early.
  static func read(
    _ path: String, partial: Bool, zone: ZoneRules, preferring preferred: [String] = []
  ) throws(CLIError) -> Read {
    let file: ExportFile
    do { file = try ExportFile(path: path) } catch {
      throw CLIError("Cannot read \(VisibleText.escaped(path)): \(error.message).", code: .noInput)
    }
    defer { file.close() }
    let identity = HealthFileIdentity(path: path, size: file.size, modified: file.modified)
    if file.kind() == .sqlite {
      return try gadgetbridge(path, identity: identity, zone: zone, preferring: preferred)
    }
    var scanner = HealthXMLScanner(
      wanted: HealthExportRecords.elements, keptAttributes: HealthExportRecords.attributes)
    var records = HealthExportRecords()
    var digest = HealthDigest()
    var count = 0
    var kept = 0
    func drain() {
      let (samples, workouts, summaries) = records.drain()
      kept += samples.count + workouts.count + summaries.count
      for sample in samples { digest.add(sample) }
      for workout in workouts { digest.add(workout) }
      for summary in summaries { digest.add(summary) }
    }
    var cutAt: Int? = nil
    do {
      try file.streamXML { chunk in
        try scanner.feed(chunk) { records.take($0) }
        drain()
      }
      try scanner.finish()
    } catch let refusal as HealthXMLScanner.Refusal {
      let endsEarly = refusal.message.hasPrefix("the file ends")
      guard partial && endsEarly else {
        throw CLIError(
          "\(VisibleText.escaped(path)) is not a readable export: \(VisibleText.escaped(refusal.message)) (at byte \(refusal.offset))\(endsEarly ? "; take the whole records before it with --partial" : ""); nothing was imported.",
          code: .badData)
      }
      drain()
      cutAt = refusal.offset
    } catch let failure as ExportFile.Failure {
      throw CLIError(
        "\(VisibleText.escaped(path)) is not read: \(VisibleText.escaped(failure.message)); nothing was imported.",
        code: failure.unavailable ? .unavailable : .badData)
    } catch {
      throw CLIError(
        "\(VisibleText.escaped(path)) is not read: \(error); nothing was imported.", code: .badData)
    }
    guard records.isHealthExport else {
      throw CLIError(
        "\(VisibleText.escaped(path)) is XML, but not an Apple Health export (no <HealthData>); nothing was imported.",
        code: .badData)
    }
    count = records.heartRateRecords + kept
    var skipped: [String: Int] = [:]
    for (why, n) in records.skipped { skipped[why.rawValue] = n }
    var batch = HealthImportBatch(
      origin: "apple-health", file: identity, nights: digest.nights(preferring: preferred),
      days: digest.days(preferring: preferred),
      workouts: digest.workouts, skipped: skipped)
    batch.partial = cutAt != nil
    return Read(batch: batch, records: count, cutAt: cutAt)
  }

  /// A Gadgetbridge database export, its minutes on the wearer's clock (`zone`).
  static func gadgetbridge(
    _ path: String, identity: HealthFileIdentity, zone: ZoneRules, preferring preferred: [String]
  )
    throws(CLIError) -> Read
  {
    let read: GadgetbridgeReader.Read
    do {
      read = try GadgetbridgeReader.read(path: path) { zone.localType(at: $0).offset }
    } catch {
      throw CLIError(
        "\(VisibleText.escaped(path)) is not read as a Gadgetbridge export: \(VisibleText.escaped(error.message)); nothing was imported.",
        code: error.busy ? .busy : .badData)
    }
    var digest = HealthDigest()
    for sample in read.samples { digest.add(sample) }
    var notes: [String] = []
    if let version = read.newerSchema {
      notes.append(
        "Its schema is version \(version), newer than the ones Nudge was written against (up to \(GadgetbridgeReader.knownVersions.upperBound)); its tables were read by their names."
      )
    }
    if !read.devicesNotRead.isEmpty {
      notes.append(
        "Not read yet (only the Huami/Zepp family: Amazfit, Mi Band): "
          + read.devicesNotRead.map { VisibleText.escaped($0) }.joined(separator: ", ") + ".")
    }
    let batch = HealthImportBatch(
      origin: "gadgetbridge", file: identity, nights: digest.nights(preferring: preferred),
      days: digest.days(preferring: preferred),
      workouts: [], skipped: [:])
    return Read(batch: batch, records: read.samples.count, cutAt: nil, notes: notes)
  }

  /// Whether a source folder's file is an export by its name: `*.zip`, `*.xml`, and
  /// Gadgetbridge's database (`Gadgetbridge`, `Gadgetbridge.db`, `Gadgetbridge_20261120-0600`).
  static func isExport(_ name: String) -> Bool {
    (name.hasSuffix(".zip") || name.hasSuffix(".xml") || name.hasSuffix(".db")
      || name == "Gadgetbridge" || name.hasPrefix("Gadgetbridge_")) && !name.contains("_cda")
  }

  /// The files in the source folders not taken in (nor refused) as they are now, by their
  /// names (`isExport`). A folder others may write to is refused, said.
  static func pending(_ store: HealthDatabase, files: any FileSystem) throws -> (
    files: [HealthFileIdentity], refusals: [String]
  ) {
    var paths: [HealthFileIdentity] = []
    var refusals: [String] = []
    for folder in try store.folders() {
      if let why = files.othersMayChange(folder) {
        refusals.append(
          "The health source folder \(VisibleText.escaped(folder)) is not read: \(why); make it yours alone (chmod go-w)."
        )
        continue
      }
      guard let names = files.names(in: folder, limit: 10_000) else {
        refusals.append(
          "The health source folder \(VisibleText.escaped(folder)) cannot be read; is it still there?"
        )
        continue
      }
      for name in names.sorted() where isExport(name) {
        let path = folder + "/" + name
        guard let file = try? ExportFile(path: path) else { continue }
        let identity = HealthFileIdentity(path: path, size: file.size, modified: file.modified)
        file.close()
        if try !store.alreadyTaken(identity) && !store.refusedBefore(identity) {
          paths.append(identity)
        }
      }
    }
    // the oldest first: a newer export (`export (1).zip` beside `export.zip`) is read last
    paths.sort { a, b in
      a.modified != b.modified
        ? a.modified < b.modified
        : Array(a.path.utf8).lexicographicallyPrecedes(Array(b.path.utf8))
    }
    return (paths, refusals)
  }
}
