/// What one change is about: a flow's entry (a help note by its id), a pause, a slot's
/// schedule, a setting that travels, one of the person's own habits (by the id it travels
/// under), a habit's day, or whether a plan is on. Nothing else travels: not the `terminal`
/// (it runs a command), not a path, not the reminders' state.
public enum SyncKey: Hashable, Sendable, CustomStringConvertible {
  /// A flow's entry of a day (`id`: a help note's, several a day).
  case entry(day: Day, flow: String, id: String?)
  /// The pause that starts on this day.
  case pause(firstDay: Day)
  /// A slot's schedule.
  case slot(ReminderSource)
  /// The celebration preference (the only setting that travels).
  case celebrations
  /// A habit's definition, by the id every computer knows it by (`habit.uid`).
  case habit(uid: String)
  /// What was recorded of a habit on a day (done, with its amount, or skipped).
  case habitDay(uid: String, day: Day)
  /// Whether a plan is on (`nudge plan on|off NAME`).
  case planChoice(String)
  /// A plan file of the person's own (`NAME.plan` in the plans folder), as text.
  case planFile(String)

  /// `entry/DAY/FLOW[/ID]`, `pause/DAY`, `slot/SLOT`, `setting/celebrations`, `habit/UID`,
  /// `habitday/UID/DAY`, `plan/NAME`.
  public var description: String {
    switch self {
    case .entry(let day, let flow, let id): "entry/\(day)/\(flow)" + (id.map { "/" + $0 } ?? "")
    case .pause(let day): "pause/\(day)"
    case .slot(let slot): "slot/\(slot.rawValue)"
    case .celebrations: "setting/celebrations"
    case .habit(let uid): "habit/\(uid)"
    case .habitDay(let uid, let day): "habitday/\(uid)/\(day)"
    case .planChoice(let name): "plan/\(name)"
    case .planFile(let name): "planfile/\(name)"
    }
  }

  /// Every kind of key, by the word its text starts with: one for each kind of the person's
  /// data (`DataKind.syncKind`).
  public static let kinds = DataKind.allCases.map(\.syncKind).reduce(into: [String]()) {
    if !$0.contains($1) { $0.append($1) }
  }

  /// Reads a key another device wrote; the reason when it is not one this Nudge takes.
  public static func parse(_ text: String) -> Result<SyncKey, SyncRefusal> {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    switch (parts.first, parts.count) {
    case ("entry", 3), ("entry", 4):
      guard let day = Day(parts[1]) else { return .failure(.init("an entry's day is not a date")) }
      guard let flow = Flow(rawValue: parts[2]) else {
        return .failure(.init("an entry's flow is not a flow's name"))
      }
      let id = parts.count == 4 ? parts[3] : nil
      guard flow.isKeptSeveralADay == (id != nil) else {
        return .failure(
          .init("an entry of \(flow.rawValue) \(id == nil ? "without" : "with") an id"))
      }
      if let id, !SyncKey.isNoteID(id) {
        return .failure(.init("a help note's id is not 1 to 64 visible ASCII characters"))
      }
      return .success(.entry(day: day, flow: flow.rawValue, id: id))
    case ("pause", 2):
      guard let day = Day(parts[1]) else { return .failure(.init("a pause's day is not a date")) }
      return .success(.pause(firstDay: day))
    case ("slot", 2):
      guard let slot = ReminderSource(rawValue: parts[1]) else {
        return .failure(.init("a slot's name is not one Nudge has"))
      }
      return .success(.slot(slot))
    case ("setting", 2) where parts[1] == "celebrations":
      return .success(.celebrations)
    case ("setting", 2):
      return .failure(.init("the setting '\(VisibleText.escaped(parts[1]))' does not travel"))
    case ("habit", 2):
      guard isHabitID(parts[1]) else {
        return .failure(.init("a habit's id is not 16 to 32 lowercase hex digits"))
      }
      return .success(.habit(uid: parts[1]))
    case ("habitday", 3):
      guard isHabitID(parts[1]) else {
        return .failure(.init("a habit's id is not 16 to 32 lowercase hex digits"))
      }
      guard let day = Day(parts[2]) else {
        return .failure(.init("a habit day's day is not a date"))
      }
      return .success(.habitDay(uid: parts[1], day: day))
    case ("plan", 2):
      guard ExportPlanFile.isFileName(parts[1] + ".plan") else {
        return .failure(.init("a plan's name is not one a plan file can have"))
      }
      return .success(.planChoice(parts[1]))
    case ("planfile", 2):
      guard ExportPlanFile.isFileName(parts[1] + ".plan") else {
        return .failure(.init("a plan file's name is not one a plan file can have"))
      }
      return .success(.planFile(parts[1]))
    case ("entry", _), ("pause", _), ("slot", _), ("setting", _), ("habit", _), ("habitday", _),
      ("plan", _), ("planfile", _):
      return .failure(
        .init(
          "its key has \(parts.count) parts, not the \(parts[0] == "entry" ? "3 or 4 of entry/DAY/FLOW[/ID]" : parts[0] == "habitday" ? "3 of habitday/ID/DAY" : "2 of \(parts[0])/NAME")"
        ))
    default:
      return .failure(
        .init("unknown kind '\(VisibleText.escaped(String((parts.first ?? "").prefix(40))))'"))
    }
  }

  /// A habit's travelling id: 16 to 32 lowercase hex digits (the store makes 16).
  public static func isHabitID(_ id: String) -> Bool {
    (16...32).contains(id.utf8.count)
      && id.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
  }

  /// A help note's id as imports take it: 1 to 64 visible ASCII characters, no '/'.
  static func isNoteID(_ id: String) -> Bool {
    !id.isEmpty && id.utf8.count <= 64
      && id.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7F && $0 != "/" }
  }
}
