import NudgeCore
import NudgeLinux
import NudgeStore

extension SyncExchange {
  /// A change line read and held to every rule a change is (`SyncLine.change`), then an entry
  /// of a defined flow to its flow's definition here.
  func change(_ line: some Collection<UInt8>, device: String, anyDevice: Bool) -> Result<
    SyncChange, SyncRefusal
  > {
    let read = SyncLine.change(line, device: device, anyDevice: anyDevice, now: now)
    if case .success(let change) = read, let refusal = habitRefusal(change) {
      return .failure(refusal)
    }
    guard case .success(let change) = read, case .entry(let day, let flow, let id) = change.key,
      let value = change.value, let answers = value.answers, let savedAt = value.savedAt,
      let entry = try? FlowEntry(
        stored: StoredEntry(flow: flow, day: day, id: id, answers: answers, savedAt: savedAt)
      ).answeredEntry
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
  static func changed(_ files: [SyncFolder.DeviceFile], _ peer: SyncPeer?) -> Bool {
    guard let peer else { return true }
    return files.contains { $0.stamp != ($0.isSnapshot ? peer.snapshotStamp : peer.logStamp) }
  }

  struct Counted {
    var taken = 0
  }

  /// Reads one device file: the snapshot whole (it replaces itself), the log from where it was
  /// left (from its start when a new generation began), merging each change line.
  func read(
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
