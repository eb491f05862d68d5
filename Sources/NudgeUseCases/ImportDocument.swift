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
    public var schedulesAdded: [ReminderSource] = []
    /// Pauses added, as `FIRST..LAST`.
    public var pausesAdded: [String] = []
    /// Plans the file turned on or off that were not chosen here, as `NAME on|off`.
    public var plansChosen: [String] = []
    /// Habits new here, and days of habits added or changed.
    public var habitsAdded = 0
    public var habitDaysAdded = 0
    /// Days recorded here that the document recorded otherwise: kept as they are here.
    public var habitDaysKept = 0
    public var scheduleChanged: Bool { !schedulesAdded.isEmpty }
  }

  /// `habits`: the document's habits, checked (`ExportHabit.checked`); a habit already here
  /// by name is the same one (its definition kept), its days added or replaced.
  public func callAsFunction(
    _ document: ExportDocument, habits: [(habit: Habit, checks: [HabitCheck])] = [],
    at: String
  ) throws(StoreError) -> Summary {
    try db.inTransaction {
      var summary = Summary()
      // every entry here, read once: the document's are compared with them in memory and
      // only what changes is written (the same document imported again writes nothing)
      let stored = try db.allEntries()
      var here: [EntryKey: FlowEntry] = Dictionary(minimumCapacity: stored.count)
      for entry in stored { here[EntryKey(entry.flow, entry.key)] = entry }
      var puts: [FlowEntry] = []
      var notes: [FlowEntry] = []
      func merge<Entry: DayRecord>(_ entries: [Entry]) {
        for entry in entries {
          guard
            let found = here[EntryKey(Entry.flow, entry.day.description)],
            let existing = Entry(found)
          else {
            puts.append(entry.flowEntry)
            summary.added += 1
            continue
          }
          if existing != entry && Self.isNewer(entry.savedAt, than: existing.savedAt) {
            if entry.answered < existing.answered {
              summary.keptFuller.append("\(Entry.flow.rawValue) \(entry.day)")
              summary.unchanged += 1
            } else {
              puts.append(entry.flowEntry)
              summary.updated += 1
              summary.replaced.append("\(Entry.flow.rawValue) \(entry.day)")
            }
          } else {
            summary.unchanged += 1
          }
        }
      }
      merge(document.prep)
      merge(document.review)
      merge(document.checkin)
      for entry in document.flows {
        let name = "\(entry.flow) \(entry.day)"
        // the coach's flows come in their own lists, held to their own merge rules
        guard let flow = Flow(rawValue: entry.flow), !flow.isCoach else {
          throw StoreError.unreadable(
            "the file's flows hold an entry of '\(entry.flow)', which is no plan file's flow: nothing was imported."
          )
        }
        guard let existing = here[EntryKey(flow, entry.day.description)]?.answeredEntry else {
          puts.append(entry.flowEntry)
          summary.added += 1
          continue
        }
        if existing != entry && Self.isNewer(entry.savedAt, than: existing.savedAt) {
          if entry.answers.answered < existing.answers.answered {
            summary.keptFuller.append(name)
            summary.unchanged += 1
          } else {
            puts.append(entry.flowEntry)
            summary.updated += 1
            summary.replaced.append(name)
          }
        } else {
          summary.unchanged += 1
        }
      }
      for note in document.help {
        if here[EntryKey(.needHelp, note.id)] != nil {
          summary.unchanged += 1
        } else {
          notes.append(note.flowEntry)
          summary.added += 1
        }
      }
      try db.putEntries(puts)
      try db.putEntries(notes, replacing: false)
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
      where try !schedule.slot.hasOwnTimer && !db.hasStoredSchedule(schedule.slot) {
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
      let counted = try db.importHabits(habits, at: at)
      summary.habitsAdded = counted.newHabits
      summary.habitDaysAdded = counted.newChecks
      summary.habitDaysKept = counted.keptChecks
      (summary.newAchievements, summary.lostAchievements) = try AchievementLedger(db: db)
        .recompute()
      return summary
    }
  }
}

extension ImportDocument {
  /// Whether a save at `incoming` came after one at `local` (a time that does not parse as
  /// the earliest).
  fileprivate static func isNewer(_ incoming: String, than local: String) -> Bool {
    (InstantFormat.parse(incoming) ?? .distantPast) > (InstantFormat.parse(local) ?? .distantPast)
  }
}

/// An entry's place in the store: its flow and its key (its day, a help note's id).
private struct EntryKey: Hashable {
  let flow: Flow
  let key: String

  init(_ flow: Flow, _ key: String) {
    self.flow = flow
    self.key = key
  }
}
