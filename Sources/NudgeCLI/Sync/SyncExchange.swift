import NudgeCore
import NudgeLinux
import NudgeStore

/// One exchange with the sync folder: writes what changed here to this device's log (a
/// snapshot now and then replaces the log), then takes in what each other device's files hold
/// that was not read yet — nothing is read while no device file changed. What arrives is
/// merged (`SyncMerge`), the achievements held to the merged entries without a celebration
/// (one plays where the flow was done).
struct SyncExchange {
  let db: AppDatabase
  let me: SyncSelf
  /// The run's now, milliseconds since 1970, and as the store stamps it.
  let now: Int
  let at: String
  /// What the plans here make of a defined flow's entry (`PlanSet.verdict`), asked only when
  /// one arrives; nil: every such entry waits.
  var definedEntry: ((AnsweredEntry) -> PlanSet.EntryVerdict)? = nil
  /// What the rules of `nudge habit add` here say of a habit that arrives (a name that is a
  /// command's word, a time that does not read): nil when it is one they take.
  var habitRefusal: ((ExportHabit) -> String?)? = nil
  /// The habits this computer knows (their travelling ids), read when a habit's day first
  /// arrives, and those that arrived since: a day of a habit not known yet waits aside.
  let habitsHere = KnownHabits()
  /// What the rules of the plans folder here say of a plan file that arrives (by its plan
  /// name, with its text): nil when it is one they take.
  var planFileRefusal: ((String, String) -> String?)? = nil
  /// The plans folder's files now (plan name → text), taken into what sync knows before a
  /// write; nil: not read.
  var planFilesHere: (() -> [String: String]?)? = nil
  /// Reading this device's own files (`takeInOwn`): a change claiming this device is taken
  /// only for a key this database holds.
  var ownLinesConfirmOnly = false

  var folder: SyncFolder { SyncFolder(path: me.folder) }

  /// The refused lines of a file said one by one; those after are counted in one more line.
  static let refusalsSaid = 20

  /// A log longer than this many changes is folded into a snapshot.
  static let linesPerGeneration = 2000

  /// What an exchange did, for `nudge sync` to say.
  struct Report: Sendable {
    /// Changes written here.
    var written = 0
    /// Per device (by name): changes taken in.
    var arrived: [(name: String, count: Int)] = []
    /// Conflicts kept in this exchange.
    var conflicts = 0
    /// A line per line or file not taken, naming the file and why.
    var skipped: [String] = []
    /// A line per file whose last line is not finished (taken once it is).
    var waiting: [String] = []
    /// Whether anything arrived that changed what is here.
    var changedHere = false
    /// Slots whose schedule arrived (their timers need rewriting).
    var slotsChanged = false
    /// Achievements the merged entries earned.
    var earned: [Achievement] = []
    /// Achievements what arrived no longer supports (another computer took a version that
    /// does not reach them), taken back.
    var lost: [Achievement] = []
    /// Devices whose files were read for the first time (by name).
    var found: [String] = []
    /// Whether this device's own files were missing from the folder and were written again.
    var rewroteOwn = false

    /// This report with `earlier`'s before it (the take-in a command made by itself).
    func adding(_ earlier: Report) -> Report {
      var sum = self
      sum.written += earlier.written
      sum.arrived = earlier.arrived + arrived
      sum.conflicts += earlier.conflicts
      sum.skipped = earlier.skipped + skipped
      sum.waiting = earlier.waiting + waiting
      sum.changedHere = changedHere || earlier.changedHere
      sum.slotsChanged = slotsChanged || earlier.slotsChanged
      sum.earned = earlier.earned + earned
      sum.lost = earlier.lost + lost
      sum.found = earlier.found + found
      sum.rewroteOwn = rewroteOwn || earlier.rewroteOwn
      return sum
    }
  }

  /// Writes this device's new changes to its log; throws when the folder can't take them (they
  /// stay pending, written next time).
  /// `joining`: the first write of what this device brings (`SyncStore.writeSyncChanges`).
  @discardableResult
  func writeOut(joining: Bool = false, mirroring: Bool = true) throws -> Int {
    if let problem = folder.problem() { throw CLIError.syncFolder(problem) }
    if mirroring { try mirrorPlanFiles() }
    // a log that is not the one this device wrote last (an older copy put back): everything
    // it knows is written again first, a snapshot and a new log
    // (what this device knows of its log now: an exchange may have written since `me` was read)
    let wrote = try db.syncDevice()?.logBytes ?? me.logBytes
    let length = folder.logLength(me.device)
    if let length, length > 0, wrote > 0, length != wrote { try snapshot() }
    // a log that is not there (deleted, never made) starts afresh: a new generation, so no
    // reader takes it up from where it left another
    let generation =
      (folder.logLength(me.device) ?? 0) > 0
      ? (try db.syncDevice()?.generation ?? me.generation) : try db.newSyncGeneration()
    let header = SyncLine.line(
      SyncHeader(device: me.device, name: me.name, generation: generation))
    var written: Int?
    let changes = try db.writeSyncChanges(now: now, at: at, joining: joining) { lines in
      try Self.inFolder { () throws(SyncFolder.WriteFailure) in
        written = try folder.append(lines.joined(), device: me.device, header: header)
      }
    }
    if let written { try db.recordSyncLogBytes(written) }
    if changes.isEmpty && me.wroteAt == nil {
      // a device that has written nothing yet is still seen by the others, by its name
      try Self.inFolder { () throws(SyncFolder.WriteFailure) in
        try folder.append("", device: me.device, header: header)
      }
    }
    if me.logLines + changes.count > Self.linesPerGeneration { try snapshot() }
    return changes.count
  }

  /// Takes the plans folder's files into what sync knows of them (a file new or changed is to
  /// be written); whether any was.
  @discardableResult
  func mirrorPlanFiles() throws -> Bool {
    guard let files = planFilesHere?() else { return false }
    return try db.mirrorPlanFiles(files)
  }

  /// Folds everything this device knows into its snapshot and starts its next log: the
  /// snapshot first (a reader with the old log and the new snapshot loses nothing), then the
  /// log replaced by one holding only its header.
  func snapshot() throws {
    var header = ""
    try db.startSyncGeneration { changes, generation in
      header = SyncLine.line(
        SyncHeader(device: me.device, name: me.name, generation: generation))
      try Self.inFolder { () throws(SyncFolder.WriteFailure) in
        try folder.replace(
          folder.snapshotPath(me.device), with: [header] + changes.map(SyncLine.line))
        try folder.replace(folder.logPath(me.device), with: [header])
      }
    }
    try db.recordSyncLogBytes(header.utf8.count)
  }

  /// A write to the folder, its failure said as sync's (the store passes a `StoreError` on
  /// as it is, and rolls back what it would have marked written).
  private static func inFolder(_ body: () throws(SyncFolder.WriteFailure) -> Void)
    throws(StoreError)
  {
    do { try body() } catch {
      throw StoreError.cannotCreate(CLIError.syncFolder(error.reason).message)
    }
  }

}

extension CLIError {
  /// The sync folder can't be used.
  static func syncFolder(_ problem: String) -> CLIError {
    CLIError(
      "sync: \(problem). Nothing was lost: changes wait until it can be used.", code: .cannotCreate)
  }
}
