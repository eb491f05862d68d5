import NudgeCore
import NudgeStore

/// Imports a checked export document, all or nothing, in one transaction: entries new to a
/// day are added; a newer save of a day replaces an older one unless it answers less; notes
/// are kept by id; settings, schedules and pauses already set here win; a setting that names a
/// program on this machine is never taken; achievements are then recomputed from the entries
/// (a document's own list is never read). The summary names every change.
public struct ImportDocument: Sendable {
  public let db: AppDatabase

  public init(db: AppDatabase) { self.db = db }

  /// How an import changed the database: every change it made, named.
  public struct Summary: Equatable, Sendable {
    public var added = 0
    public var updated = 0
    public var unchanged = 0
    /// Days whose entry here the document's newer save replaced, as `flow DAY`.
    public var replaced: [String] = []
    /// Days whose entry here answers more than the document's newer save: kept as they are.
    public var keptFuller: [String] = []
    /// Achievements earned for the first time, from the entries.
    public var newAchievements: [Achievement] = []
    /// Achievements whose condition no longer holds after the merge.
    public var lostAchievements: [Achievement] = []
    /// Settings taken from the document (ones not set here), as `key=value`.
    public var settingsAdded: [String] = []
    /// Settings the document carried that name a command or a path on this machine: skipped.
    public var settingsSkipped: [String] = []
    /// Slots whose schedule came from the document (installed units need an update).
    public var schedulesAdded: [Slot] = []
    /// Pauses added, as `FIRST..LAST`.
    public var pausesAdded: [String] = []
    /// Plans the file turned on or off that were not chosen here, as `NAME on|off`.
    public var plansChosen: [String] = []
    public var scheduleChanged: Bool { !schedulesAdded.isEmpty }
  }

  public func callAsFunction(_ document: ExportDocument) throws(StoreError) -> Summary {
    try db.inTransaction {
      var summary = Summary()
      func merge<Entry: DayRecord>(_ entries: [Entry]) throws {
        for entry in entries {
          guard let existing = try db.dayEntry(on: entry.day) as Entry? else {
            try db.putEntry(entry)
            summary.added += 1
            continue
          }
          let incoming = InstantFormat.parse(entry.savedAt) ?? .distantPast
          let local = InstantFormat.parse(existing.savedAt) ?? .distantPast
          if existing != entry && incoming > local {
            if entry.answered < existing.answered {
              summary.keptFuller.append("\(Entry.flow.rawValue) \(entry.day)")
              summary.unchanged += 1
            } else {
              try db.putEntry(entry)
              summary.updated += 1
              summary.replaced.append("\(Entry.flow.rawValue) \(entry.day)")
            }
          } else {
            summary.unchanged += 1
          }
        }
      }
      try merge(document.prep)
      try merge(document.review)
      try merge(document.checkin)
      for entry in document.flows {
        let name = "\(entry.flow) \(entry.day)"
        // the coach's flows come in their own lists, held to their own merge rules
        guard case .defined? = Flow(rawValue: entry.flow) else {
          throw StoreError.unreadable(
            "the file's flows hold an entry of '\(entry.flow)', which is no plan file's flow: nothing was imported."
          )
        }
        guard case .answered(let existing)? = try db.entry(.defined(entry.flow), on: entry.day)
        else {
          try db.putFlowEntry(.answered(entry))
          summary.added += 1
          continue
        }
        let incoming = InstantFormat.parse(entry.savedAt) ?? .distantPast
        let local = InstantFormat.parse(existing.savedAt) ?? .distantPast
        if existing != entry && incoming > local {
          if entry.answers.answered < existing.answers.answered {
            summary.keptFuller.append(name)
            summary.unchanged += 1
          } else {
            try db.putFlowEntry(.answered(entry))
            summary.updated += 1
            summary.replaced.append(name)
          }
        } else {
          summary.unchanged += 1
        }
      }
      for note in document.help {
        if try db.hasHelpNote(id: note.id) {
          summary.unchanged += 1
        } else {
          try db.insertHelpNote(note)
          summary.added += 1
        }
      }
      for (key, value) in document.settings.sorted(by: { $0.key < $1.key }) {
        guard let setting = SettingKey(rawValue: key) else { continue }
        if ExportDocument.machineSettings.contains(setting) {
          summary.settingsSkipped.append(key)
          continue
        }
        if try db.hasSetting(setting) { continue }
        let valid = try setting.validate(value)
        try db.setSetting(setting, to: valid)
        summary.settingsAdded.append("\(key)=\(valid)")
      }
      // like settings, a slot already changed here keeps its local schedule
      // (a plan's own slot takes its time from its plan file: a file's row for one is not kept)
      for schedule in document.schedule
      where try !schedule.slot.isPlans && !db.hasStoredSchedule(schedule.slot) {
        try db.saveSchedule(schedule)
        summary.schedulesAdded.append(schedule.slot)
      }
      // a pause new here is added; one that starts the same day or overlaps one here keeps
      // the local pause
      let local = try db.pauses()
      for pause in document.pauses where try !db.hasPause(startingOn: pause.firstDay) {
        guard
          !local.contains(where: { $0.firstDay <= pause.lastDay && pause.firstDay <= $0.lastDay })
        else { continue }
        try db.insertPause(pause)
        summary.pausesAdded.append("\(pause.firstDay)..\(pause.lastDay)")
      }
      // like settings, a plan turned on or off here keeps its choice
      let chosen = try db.planChoices()
      for (plan, on) in document.plans.sorted(by: { $0.key < $1.key }) where chosen[plan] == nil {
        try db.choosePlan(plan, on: on)
        summary.plansChosen.append("\(plan) \(on ? "on" : "off")")
      }
      (summary.newAchievements, summary.lostAchievements) = try AchievementLedger(db: db)
        .recompute()
      return summary
    }
  }
}
