/// Every kind of the person's data, each declared once with the paths that carry it: the
/// export's member (which `nudge import` restores), the sync key it travels under, whether the
/// CSV export has it (and as which `flow`), and the journal `nudge undo` takes its change back
/// through — or, where a path does not carry it, why not. A new kind is a new case: the
/// compiler then asks every path (and `EveryKindTravelsTests`, which makes a change of each
/// kind and follows it through export, import, CSV, sync, undo and the conflict listing) for
/// it, so none can be forgotten.
public enum DataKind: String, CaseIterable, Sendable {
  /// A day's entry of a flow, the coach's and every plan's.
  case flowEntry
  /// A craving note (need-help), several a day.
  case helpNote
  /// Days off, ahead or past.
  case pause
  /// A reminder's time (`schedule set`).
  case slotTime
  /// A setting that may travel (the celebrations; the terminal names a program and never
  /// travels).
  case setting
  /// A habit's definition (name, question, frequency, time, target, archived).
  case habit
  /// What was recorded of a habit on a day: done (with its amount) or skipped.
  case habitDay
  /// Whether a plan is on.
  case planChoice
  /// A plan file of the person's own, as text.
  case planFile

  /// The export document's members that hold it (what `nudge import` restores).
  public var exportMembers: [String] {
    switch self {
    case .flowEntry: ["prep", "review", "checkin", "flows"]
    case .helpNote: ["help"]
    case .pause: ["pauses"]
    case .slotTime: ["schedule"]
    case .setting: ["settings"]
    case .habit, .habitDay: ["habits"]
    case .planChoice: ["plans"]
    case .planFile: ["plan_files"]
    }
  }

  /// The kind of `SyncKey` it travels under (the first part of its text).
  public var syncKind: String {
    switch self {
    case .flowEntry, .helpNote: "entry"
    case .pause: "pause"
    case .slotTime: "slot"
    case .setting: "setting"
    case .habit: "habit"
    case .habitDay: "habitday"
    case .planChoice: "plan"
    case .planFile: "planfile"
    }
  }

  /// How the CSV export (a spreadsheet of the days' records) has it.
  public enum InSpreadsheet: Equatable, Sendable {
    /// A row each, its `flow` column this (nil: the entry's own flow).
    case rows(flow: String?)
    /// Not a day's record: why it is not in the spreadsheet (the JSON export has it).
    case notARecord(String)
  }

  public var spreadsheet: InSpreadsheet {
    switch self {
    case .flowEntry, .helpNote: .rows(flow: nil)
    case .habitDay: .rows(flow: "habit")
    case .habit: .notARecord("a habit's definition: each of its days is a row, by its name")
    case .pause: .notARecord("days off are the days without rows; the JSON export has them")
    case .slotTime: .notARecord("a reminder's time is a setting, not a day's record")
    case .setting: .notARecord("a setting, not a day's record")
    case .planChoice: .notARecord("a plan on or off is a setting, not a day's record")
    case .planFile: .notARecord("a plan file is a definition; its flows' entries are rows")
    }
  }

  /// How `nudge undo` takes back a change of it.
  public enum Undone: Equatable, Sendable {
    /// Through the one journal (`change_journal`: each change as the keys it changed, their
    /// values before and after), today's changes latest first.
    case journal(String)
    /// Not journaled: the command that made the change turns it back, as said here.
    case byItsCommand(String)
  }

  public var undo: Undone {
    switch self {
    case .flowEntry, .helpNote, .habit, .habitDay, .pause, .slotTime, .setting, .planChoice:
      .journal("change_journal")
    case .planFile: .byItsCommand("the file is the person's: an editor changes it back")
    }
  }

  /// The export's members that are no kind of data of their own: the document's shape, and
  /// the achievements (worked out again from the history wherever it lands).
  public static let derivedOrFormatMembers = ["format", "version", "achievements"]
}
