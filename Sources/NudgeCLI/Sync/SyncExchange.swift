import NudgeCore
import NudgeLinux
import NudgeStore
import NudgeUseCases

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
  fileprivate(set) var ownLinesConfirmOnly = false

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

  /// Takes in every other device's files that changed since they were read.
  func takeIn(peers: [SyncPeer]? = nil, later: Bool = true) throws -> Report {
    var report = try takeInFiles(peers: peers, later: later)
    // a habit's day read before its habit (another file, an earlier batch) is taken once the
    // habit is in, in this same exchange
    if habitsHere.daysWaited {
      habitsHere.daysWaited = false
      let before = report.changedHere
      report.changedHere = false
      try takeLater(&report)
      if report.changedHere { try settle(&report, heldBefore: nil) }
      report.changedHere = report.changedHere || before
    }
    return report
  }

  private func takeInFiles(peers: [SyncPeer]?, later: Bool) throws -> Report {
    var report = Report()
    if let problem = folder.problem() { throw CLIError.syncFolder(problem) }
    if later { try takeLater(&report) }
    let listed = folder.deviceFiles()
    // this device's log gone from the folder (deleted, or a copy of the folder put back):
    // everything it knows is written again, as a snapshot
    // (or its log is not the length it wrote: an older copy put back)
    let own = listed.filter { $0.device == me.device }
    let ownLog = own.first { !$0.isSnapshot }
    let wrote = me.wroteAt == nil ? 0 : (try db.syncDevice()?.logBytes ?? me.logBytes)
    if me.wroteAt != nil, ownLog == nil || (wrote > 0 && ownLog.map { $0.size != wrote } == true) {
      try snapshot()
      report.rewroteOwn = true
    }
    let files = Dictionary(grouping: listed.filter { $0.device != me.device }) { $0.device }
    var known = Dictionary(
      uniqueKeysWithValues: try (peers ?? db.syncPeers()).map { ($0.device, $0) })
    try sayStrange(known: &known, report: &report)
    guard files.contains(where: { device, found in Self.changed(found, known[device]) }) else {
      if report.changedHere { try settle(&report, heldBefore: nil) }
      return report
    }
    let heldBefore = try AchievementLedger(db: db).held()
    for device in files.keys.sorted().prefix(SyncFolder.maxDevices) {
      let found = files[device] ?? []
      guard Self.changed(found, known[device]) else { continue }
      var peer = known[device] ?? SyncPeer(device: device, name: device)
      var counted = Counted()
      let skippedBefore = report.skipped.count
      try db.inTransaction {
        if let snap = found.first(where: \.isSnapshot), snap.stamp != peer.snapshotStamp {
          try read(snap, into: &peer, counted: &counted, report: &report)
          peer.snapshotStamp = snap.stamp
        }
        if let log = found.first(where: { !$0.isSnapshot }), log.stamp != peer.logStamp {
          try read(log, into: &peer, counted: &counted, report: &report)
          peer.logStamp = log.stamp
        }
        if counted.taken > 0 { peer.heardAt = at }
        // what was skipped stays said: `sync status` and `doctor` show it
        if report.skipped.count > skippedBefore {
          peer.skipped += report.skipped.count - skippedBefore
          peer.skippedWhy = report.skipped.last
        }
        try db.saveSyncPeer(peer)
      }
      if known[device] == nil && peer.name != device { report.found.append(peer.name) }
      if counted.taken > 0 { report.arrived.append((peer.name, counted.taken)) }
    }
    if report.changedHere { try settle(&report, heldBefore: heldBefore) }
    return report
  }

  /// What is named as another device's file but is no file (a link, a directory, a FIFO) is
  /// never opened; it is said once, when it appears or is replaced (its stamp kept as the
  /// device's), not passed over without a word.
  private func sayStrange(known: inout [String: SyncPeer], report: inout Report) throws {
    for (file, kind) in folder.strangeEntries() where file.device != me.device {
      var peer = known[file.device] ?? SyncPeer(device: file.device, name: file.device)
      let seen = file.isSnapshot ? peer.snapshotStamp : peer.logStamp
      guard seen != file.stamp else { continue }
      let name = "nudge-\(file.device).\(file.isSnapshot ? "snapshot" : "log")"
      let line =
        "\(name) is \(kind), not a file; it is not read (a device's file is a regular file)."
      report.skipped.append(line)
      if file.isSnapshot { peer.snapshotStamp = file.stamp } else { peer.logStamp = file.stamp }
      peer.skipped += 1
      peer.skippedWhy = line
      try db.saveSyncPeer(peer)
      known[file.device] = peer
    }
  }

  /// Takes in what this device itself wrote to the folder before (it joins again): its own
  /// versions, and the conflicts they settled, are known again as they were. A key changed
  /// here since stays as it is here (it is written next, as this device brings it).
  ///
  /// Its own files are verified first, as anyone with the folder could have put them there: a
  /// file another user owns or others can read or write (Nudge writes 0600) is not read, and
  /// a change in them for a key this database does not hold is refused (whoever claims it:
  /// this computer wrote only what it held). When anything is refused, nothing of its own
  /// files is kept (the transaction rolls back) and `distrusted` says its files are to be
  /// written anew from this database (`snapshot()`), so no other computer reads them either.
  /// Returns what was refused, a line each, for `sync init` to say.
  func takeInOwn() throws -> (refused: [String], distrusted: Bool) {
    let own = folder.deviceFiles().filter { $0.device == me.device }
    guard !own.isEmpty else { return ([], false) }
    var report = Report()
    var peer = SyncPeer(device: me.device, name: me.name)
    var counted = Counted()
    var verified = self
    verified.ownLinesConfirmOnly = true
    struct Distrusted: Error {}
    var distrusted = false
    do {
      try db.inTransaction {
        for file in own.sorted(by: { $0.isSnapshot && !$1.isSnapshot }) {
          guard file.isPrivate else {
            report.skipped.append(
              "nudge-\(file.device).\(file.isSnapshot ? "snapshot" : "log") is this computer's name but not its file (another user's, or others can read or write it; Nudge writes its own 0600); not taken in."
            )
            continue
          }
          try verified.read(file, into: &peer, counted: &counted, report: &report)
        }
        if !report.skipped.isEmpty {
          distrusted = true
          throw Distrusted()
        }
      }
    } catch {
      // the rollback of distrusted files comes back through the store: anything else is news
      if !distrusted { throw error }
    }
    guard distrusted else { return ([], false) }
    return (
      report.skipped
        + [
          "none of this computer's own files was taken in; they are written again from this database"
        ],
      true
    )
  }

  /// The achievements held to the merged entries, without a celebration.
  private func settle(_ report: inout Report, heldBefore: Set<Achievement>?) throws {
    let settled = try db.inTransaction {
      try AchievementLedger(db: db).settle(heldBefore: heldBefore)
    }
    report.earned += settled.new
    report.lost += settled.lost
  }

  /// Takes the lines kept because they were dated ahead of this clock, once it got there.
  private func takeLater(_ report: inout Report) throws {
    let kept = try db.syncLater()
    guard !kept.isEmpty else { return }
    var done: [Int] = []
    var changes: [SyncChange] = []
    for (id, device, line) in kept {
      switch change(Array(line.utf8), device: device, anyDevice: true) {
      case .success(let change):
        changes.append(change)
        done.append(id)
      case .failure(let why) where why.waits:
        continue
      case .failure:
        done.append(id)
      }
    }
    guard !changes.isEmpty || !done.isEmpty else { return }
    let names = Dictionary(
      try db.syncPeers().map { ($0.device, $0.name) }, uniquingKeysWith: { first, _ in first })
    try db.inTransaction {
      let results = try db.mergeSyncChanges(changes, at: at)
      if results.contains(where: { $0 != .ignored }) { report.changedHere = true }
      for (change, result) in zip(changes, results) where result != .ignored {
        let name = names[change.clock.device] ?? change.clock.device
        if let at = report.arrived.firstIndex(where: { $0.name == name }) {
          report.arrived[at].count += 1
        } else {
          report.arrived.append((name, 1))
        }
      }
      try db.forgetSyncLater(done)
    }
  }

  /// A change line read and held to every rule a change is (`SyncLine.change`), then an entry
  /// of a defined flow to its flow's definition here.
  private func change(_ line: some Collection<UInt8>, device: String, anyDevice: Bool) -> Result<
    SyncChange, SyncRefusal
  > {
    let read = SyncLine.change(line, device: device, anyDevice: anyDevice, now: now)
    if case .success(let change) = read, let refusal = habitRefusal(change) {
      return .failure(refusal)
    }
    guard case .success(let change) = read, case .entry(let day, let flow, let id) = change.key,
      let value = change.value, let answers = value.answers, let savedAt = value.savedAt,
      case .answered(let entry)? = try? FlowEntry(
        stored: StoredEntry(flow: flow, day: day, id: id, answers: answers, savedAt: savedAt))
    else { return read }
    switch definedEntry?(entry) ?? .undefined {
    case .taken: return read
    case .undefined: return .failure(.undefinedFlow(entry.flow))
    case .refused(let why):
      return .failure(.notTakenByPlan(VisibleText.escaped(why)))
    }
  }

  /// A habit held to the rules here, and a habit's day to its habit being known here (else it
  /// waits aside, taken once the habit arrives); nil for one taken, and for other keys.
  private func habitRefusal(_ change: SyncChange) -> SyncRefusal? {
    switch change.key {
    case .habit(let uid):
      guard let habit = change.value?.habit else { return nil }
      if let why = habitRefusal?(habit) {
        return SyncRefusal("the habit is not one 'nudge habit add' takes here (\(why))")
      }
      // a habit new here counts toward the habits Nudge keeps, as one added here does
      if !habitsHere.knows(uid, db) {
        guard habitsHere.count(db) < Habit.maxCount else {
          return SyncRefusal(
            "it would make more than the \(Habit.maxCount) habits Nudge keeps; remove one you no longer keep (nudge habit remove NAME)"
          )
        }
        habitsHere.added += 1
      }
      habitsHere.arrived(uid)
      return nil
    case .planFile(let name):
      guard let text = change.value?.planText else { return nil }
      if let why = planFileRefusal?(name, text) {
        return SyncRefusal("the plan file \(name).plan is not one the plans folder takes (\(why))")
      }
      return nil
    case .habitDay(let uid, _):
      guard change.value != nil else { return nil }
      guard habitsHere.knows(uid, db) else {
        habitsHere.daysWaited = true
        return SyncRefusal(
          "its habit has not arrived here yet; it is taken once it has", waits: true)
      }
      return nil
    default:
      return nil
    }
  }

  /// Whether any of a device's files differs from when it was read.
  private static func changed(_ files: [SyncFolder.DeviceFile], _ peer: SyncPeer?) -> Bool {
    guard let peer else { return true }
    return files.contains { $0.stamp != ($0.isSnapshot ? peer.snapshotStamp : peer.logStamp) }
  }

  private struct Counted {
    var taken = 0
  }

  /// Reads one device file: the snapshot whole (it replaces itself), the log from where it was
  /// left (from its start when a new generation began), merging each change line.
  private func read(
    _ file: SyncFolder.DeviceFile, into peer: inout SyncPeer, counted: inout Counted,
    report: inout Report
  ) throws {
    let name = "nudge-\(file.device).\(file.isSnapshot ? "snapshot" : "log")"
    guard file.size <= SyncFolder.maxFileBytes else {
      report.skipped.append(
        "\(name) is \(file.size / 1_048_576) MiB, more than the \(SyncFolder.maxFileBytes / 1_048_576) MiB a device file may be; skipped."
      )
      return
    }
    // the header: whose file it is and its generation
    var header: SyncHeader?
    var headerEnd = 0
    var refusal: String?
    let first = SyncFolder.readLines(file.path, from: 0) { line, _ in
      switch SyncLine.header(line) {
      case .success(let found): header = found
      case .failure(let why): refusal = why.reason
      }
      return false
    }
    headerEnd = first.end
    if let failed = first.failed {
      report.skipped.append("\(name) can't be read (\(failed)); skipped.")
      return
    }
    guard let header else {
      if first.unfinished || first.end == 0 {
        report.waiting.append("\(name) has no complete first line yet.")
      } else {
        report.skipped.append("\(name): \(refusal ?? "no header"); skipped.")
      }
      return
    }
    guard header.device == file.device else {
      report.skipped.append("\(name) says it is device \(header.device)'s; skipped.")
      return
    }
    peer.name = header.name
    var offset = headerEnd
    if !file.isSnapshot {
      // the same generation read on from where it was left, unless the file is now shorter
      // (replaced): then from its start again (taking a change twice changes nothing)
      if header.generation == peer.generation && file.size >= peer.logOffset {
        offset = max(headerEnd, peer.logOffset)
      }
      peer.generation = header.generation
    }
    var latest = peer.latest
    var failure: (any Error)?
    // merged a few hundred at a time: memory stays bounded, statements run back to back
    var batch: [SyncChange] = []
    func merge() {
      guard failure == nil, !batch.isEmpty else { return }
      if ownLinesConfirmOnly {
        do {
          // this computer's files hold what it held: a value for a key not held here came
          // from somebody else (whatever device the line names)
          let here = try db.syncValuesHere(batch.map(\.key))
          let differing = Set(
            zip(batch, here).filter { $0.0.value != nil && $0.1 == nil }.map { $0.0.key })
          if !differing.isEmpty {
            report.skipped.append(
              "\(name): \(differing.count) change\(differing.count == 1 ? "" : "s") in this computer's own file hold\(differing.count == 1 ? "s" : "") what this database does not (\(differing.sorted { $0.description < $1.description }.prefix(3).map(\.description).joined(separator: ", "))); not taken."
            )
            batch.removeAll { differing.contains($0.key) }
          }
        } catch {
          failure = error
          return
        }
      }
      do {
        for (change, result) in zip(batch, try db.mergeSyncChanges(batch, at: self.at)) {
          switch result {
          case .applied:
            report.changedHere = true
          case .appliedKeepingConflict:
            report.changedHere = true
            report.conflicts += 1
          case .keptAsConflict:
            report.conflicts += 1
          case .ignored, .pendingHere:
            break
          }
          // the timers follow a schedule, a habit's time or a plan turned on or off
          switch change.key {
          case .slot, .habit, .planChoice:
            if result != .ignored { report.slotsChanged = true }
          default: break
          }
          // what was here already is no news
          if result != .ignored { counted.taken += 1 }
        }
      } catch {
        failure = error
      }
      batch.removeAll(keepingCapacity: true)
    }
    // refusals said: the first few of a file, then how many more (a file of junk costs neither
    // memory nor a screenful); a file that keeps failing is left after 1,000
    var refused = 0
    let reading = SyncFolder.readLines(file.path, from: offset) { line, at in
      switch change(line, device: file.device, anyDevice: file.isSnapshot) {
      case .failure(let why):
        refused += 1
        if why.waits {
          // kept aside, taken once this clock gets there
          do {
            try db.keepSyncLater(device: file.device, line: String(decoding: line, as: UTF8.self))
          } catch {
            failure = error
            return false
          }
        }
        if refused <= Self.refusalsSaid {
          let reason =
            line.isEmpty ? "it is empty or longer than \(SyncLine.maxBytes / 1024) KiB" : why.reason
          report.skipped.append("\(name), line at byte \(at): \(reason); skipped.")
        }
        if refused >= 1000 { return false }
      case .success(let change):
        if change.clock.device == file.device, latest.map({ change.clock > $0 }) ?? true {
          latest = change.clock
        }
        batch.append(change)
        if batch.count >= 256 { merge() }
      }
      return failure == nil
    }
    merge()
    if let failed = reading.failed {
      report.skipped.append("\(name): \(failed); the rest of it is left.")
    }
    if refused > Self.refusalsSaid {
      report.skipped.append(
        "\(name): \(refused - Self.refusalsSaid) more lines skipped\(refused >= 1000 ? " (the rest of the file is left: too many lines refused)" : "")."
      )
    }
    if let failure { throw failure }
    peer.latest = latest
    if !file.isSnapshot { peer.logOffset = refused >= 1000 ? file.size : reading.end }
    if reading.unfinished {
      report.waiting.append("\(name) ends in a line not finished yet; it is taken once it is.")
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

/// The habits a sync exchange knows here by their travelling ids: this database's (read once,
/// when a habit's day first arrives) and those that arrived in the exchange.
final class KnownHabits {
  private var uids: Set<String>?
  private var arrivedHere: Set<String> = []
  /// Whether a habit's day waited aside for its habit in this exchange.
  var daysWaited = false

  func arrived(_ uid: String) { arrivedHere.insert(uid) }

  /// Habits new here that arrived in the exchange.
  var added = 0
  private var kept: Int?

  /// How many habits there are here (not removed), with those new here that arrived.
  func count(_ db: AppDatabase) -> Int {
    if kept == nil { kept = (try? db.habits(includingArchived: true).count) ?? 0 }
    return (kept ?? 0) + added
  }

  func knows(_ uid: String, _ db: AppDatabase) -> Bool {
    if arrivedHere.contains(uid) { return true }
    if uids == nil { uids = (try? db.habitUIDs()) ?? [] }
    return uids?.contains(uid) == true
  }
}
