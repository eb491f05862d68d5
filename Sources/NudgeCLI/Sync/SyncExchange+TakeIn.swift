import NudgeCore
import NudgeLinux
import NudgeStore
import NudgeUseCases

extension SyncExchange {
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
}
