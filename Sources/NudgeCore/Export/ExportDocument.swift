import FoundationEssentials

/// The versioned JSON document of everything Nudge stores (`nudge export` / `nudge import`).
public struct ExportDocument: Codable, Equatable, Sendable {
  public static let formatName = "nudge-export"
  /// 2: `flows`, the entries of flows plan files define; 3: `habits`, the person's own (older
  /// versions still import; an older Nudge refuses a version 3 file rather than drop its
  /// habits).
  public static let currentVersion = 3

  public var format: String
  public var version: Int
  public var settings: [String: String]
  public var prep: [PrepEntry]
  public var review: [ReviewEntry]
  public var checkin: [CheckinEntry]
  public var help: [HelpNote]
  /// Earned achievements; absent in documents from before achievements existed.
  public var achievements: [EarnedAchievement]
  /// Each reminder slot's calendar expression and whether it is on; absent in older documents.
  public var schedule: [SlotSchedule]
  /// Days off (`nudge pause`); absent in documents from before pauses existed.
  public var pauses: [Pause] = []
  /// The entries of flows plan files define, by day then flow; absent before version 2.
  public var flows: [AnsweredEntry] = []
  /// The plans turned on or off (`nudge plan on|off`), by name; absent before version 2.
  public var plans: [String: Bool] = [:]
  /// The person's own habits and their days; absent before version 3.
  public var habits: [ExportHabit] = []
  /// The person's plan files, as text (what their flows' entries need to be read again): held
  /// on import to every rule a file dropped into the plans folder is held to. Absent in older
  /// documents (an older Nudge ignores it, and says a flow's plan file is missing).
  public var planFiles: [ExportPlanFile] = []

  enum CodingKeys: String, CodingKey {
    case format, version, settings, prep, review, checkin, help, achievements, schedule, pauses
    case flows, plans, habits, planFiles
  }

  public init(
    settings: [String: String], prep: [PrepEntry], review: [ReviewEntry], checkin: [CheckinEntry],
    help: [HelpNote], achievements: [EarnedAchievement] = [], schedule: [SlotSchedule] = [],
    pauses: [Pause] = [], flows: [AnsweredEntry] = []
  ) {
    self.flows = flows.sorted { ($0.day, $0.flow) < ($1.day, $1.flow) }
    self.pauses = pauses.sorted { $0.firstDay < $1.firstDay }
    self.schedule = schedule.sorted { $0.slot.rawValue < $1.slot.rawValue }
    self.format = Self.formatName
    self.version = Self.currentVersion
    self.settings = settings
    self.prep = prep.sorted { $0.day < $1.day }
    self.review = review.sorted { $0.day < $1.day }
    self.checkin = checkin.sorted { $0.day < $1.day }
    self.help = help.sorted(by: HelpNote.savedBefore)
    self.achievements = achievements.sorted { $0.key.rawValue < $1.key.rawValue }
  }

  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    format = try c.decode(String.self, forKey: .format)
    version = try c.decode(Int.self, forKey: .version)
    settings = try c.decode([String: String].self, forKey: .settings)
    prep = try c.decode([PrepEntry].self, forKey: .prep)
    review = try c.decode([ReviewEntry].self, forKey: .review)
    checkin = try c.decode([CheckinEntry].self, forKey: .checkin)
    help = try c.decode([HelpNote].self, forKey: .help)
    achievements = try c.decodeIfPresent([EarnedAchievement].self, forKey: .achievements) ?? []
    schedule = try c.decodeIfPresent([SlotSchedule].self, forKey: .schedule) ?? []
    pauses = try c.decodeIfPresent([Pause].self, forKey: .pauses) ?? []
    flows = try c.decodeIfPresent([AnsweredEntry].self, forKey: .flows) ?? []
    plans = try c.decodeIfPresent([String: Bool].self, forKey: .plans) ?? [:]
    habits = try c.decodeIfPresent([ExportHabit].self, forKey: .habits) ?? []
    planFiles = try c.decodeIfPresent([ExportPlanFile].self, forKey: .planFiles) ?? []
  }

  /// Stable, human-readable JSON: sorted keys, two-space indentation, trailing newline —
  /// byte for byte what `NudgeJSON.encode` writes (a test holds it to that). The coach's
  /// entries, thousands after a few years, are written here field by field; through
  /// JSONEncoder they cost several times everything else an export does. The other lists
  /// are short and go through `NudgeJSON`.
  public func encoded() throws -> Data {
    var out = ExportWriter()
    out.raw("{\n")
    try out.member("achievements", achievements)
    out.entries("checkin", checkin) { w, e in
      w.field("blocker", e.blocker)
      w.field("day", e.day.description)
      w.field("feel", e.feel)
      w.field("followed", e.followed)
      w.field("saved_at", e.savedAt)
    }
    try out.member("flows", flows)
    try out.member("format", format)
    try out.member("habits", habits)
    out.entries("help", help) { w, n in
      w.field("at", n.at)
      w.field("category", n.category.rawValue)
      w.field("coach", n.coach)
      w.field("day", n.day.description)
      w.field("id", n.id)
      w.field("note", n.note)
    }
    try out.member("pauses", pauses)
    try out.member("plan_files", planFiles)
    try out.member("plans", plans)
    out.entries("prep", prep) { w, e in
      w.field("breakfast", e.breakfast)
      w.field("day", e.day.description)
      w.field("other", e.other)
      w.field("produce", e.produce)
      w.field("saved_at", e.savedAt)
      w.field("sticky_notes", e.stickyNotes)
      w.field("water", e.water)
    }
    out.entries("review", review) { w, e in
      w.field("challenge", e.challenge?.rawValue)
      w.field("challenge_other", e.challengeOther)
      w.field("commit_from", e.commitFrom)
      w.field("commit_to", e.commitTo)
      w.field("day", e.day.description)
      w.field("saved_at", e.savedAt)
      w.field("swap", e.swap)
      w.field("why", e.why)
    }
    try out.member("schedule", schedule)
    try out.member("settings", settings)
    try out.member("version", version, last: true)
    out.raw("}\n")
    return Data(out.bytes)
  }

}
