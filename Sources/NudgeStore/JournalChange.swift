import FoundationEssentials
import NudgeCore

/// What one step of the journal is about: a key sync knows (an entry, a help note, a habit, a
/// habit's day, a pause, a reminder time, a plan choice, the celebrations), or a setting that
/// stays on this computer. Its text is the sync key's (`setting/NAME` for a setting).
public enum JournalKey: Hashable, Sendable, CustomStringConvertible {
  case data(SyncKey)
  case setting(SettingKey)

  /// A setting's key: the celebrations as sync keys them, any other by its name.
  public static func of(_ setting: SettingKey) -> JournalKey {
    setting == .celebrations ? .data(.celebrations) : .setting(setting)
  }

  /// The key of `entry` (its day's, or a help note's by its id).
  public static func of(_ entry: FlowEntry) -> JournalKey {
    .data(.entry(day: entry.day, flow: entry.flow.rawValue, id: entry.id))
  }

  public var description: String {
    switch self {
    case .data(let key): key.description
    case .setting(let key): "setting/" + key.rawValue
    }
  }

  /// Reads the text `description` wrote; nil for one this Nudge does not know.
  init?(text: String) {
    if case .success(let key) = SyncKey.parse(text) {
      self = .data(key)
    } else if text.hasPrefix("setting/"), let key = SettingKey(rawValue: String(text.dropFirst(8))),
      key != .celebrations
    {
      self = .setting(key)
    } else {
      return nil
    }
  }
}

/// What a change was, as undo and redo say it: which kind of data, and what its command did.
public enum JournalSubject: Equatable, Sendable {
  /// A flow's entry saved, updated, edited or deleted (a help note among them).
  case entry(ChangeKind)
  /// A habit added, edited or removed, or one of its days recorded or noted.
  case habit(HabitChange.Kind)
  /// The days off, about this pause.
  case pause(PauseChange.Kind, Pause)
  /// Reminder times (`schedule set|on|off`).
  case schedule
  /// A setting (`config set|unset`).
  case setting(SettingKey)
  /// A plan turned on or off.
  case plan(String, on: Bool)

  /// What taking `value` for `key` over `before` is (a conflict's kept version taken): the
  /// change its own command would have made; nil for a plan file (the file is the person's).
  static func taking(_ key: SyncKey, _ value: SyncValue?, over before: SyncValue?)
    -> JournalSubject?
  {
    switch key {
    case .entry: .entry(value == nil ? .deleted : before == nil ? .saved : .edited)
    case .habit: .habit(value == nil ? .removed : before == nil ? .added : .edited)
    case .habitDay:
      // a day's mark taken away is said as the mark it had
      .habit(
        (value ?? before)?.failed == true
          ? .failed : (value ?? before)?.done == false ? .skipped : .done)
    case .pause(let first):
      .pause(
        value == nil ? .removed : .paused,
        Pause(firstDay: first, lastDay: (value ?? before)?.lastDay ?? first))
    case .slot: .schedule
    case .celebrations: .setting(.celebrations)
    case .planChoice(let name): .plan(name, on: value?.enabled == true)
    case .planFile: nil
    }
  }

  /// Its `kind` column: the kind of data, a dot, what was done.
  var kindText: String {
    switch self {
    case .entry(let kind): "entry." + kind.rawValue
    case .habit(let kind): "habit." + kind.rawValue
    case .pause(let kind, _): "pause." + kind.rawValue
    case .schedule: "schedule.set"
    case .setting(let key): "setting." + key.rawValue
    case .plan(_, let on): on ? "plan.on" : "plan.off"
    }
  }

  /// Its `about` column: the pause's days, or the plan's name.
  var aboutText: String? {
    switch self {
    case .pause(_, let pause): "\(pause.firstDay) \(pause.lastDay)"
    case .plan(let name, _): name
    default: nil
    }
  }

  init?(kind: String, about: String?) {
    let parts = kind.split(separator: ".", maxSplits: 1).map(String.init)
    guard parts.count == 2 else { return nil }
    switch parts[0] {
    case "entry":
      guard let kind = ChangeKind(rawValue: parts[1]) else { return nil }
      self = .entry(kind)
    case "habit":
      guard let kind = HabitChange.Kind(rawValue: parts[1]) else { return nil }
      self = .habit(kind)
    case "pause":
      let days = (about ?? "").split(separator: " ").compactMap { Day(String($0)) }
      guard let kind = PauseChange.Kind(rawValue: parts[1]), days.count == 2 else { return nil }
      self = .pause(kind, Pause(firstDay: days[0], lastDay: days[1]))
    case "schedule": self = .schedule
    case "setting":
      guard let key = SettingKey(rawValue: parts[1]) else { return nil }
      self = .setting(key)
    case "plan":
      guard let about, parts[1] == "on" || parts[1] == "off" else { return nil }
      self = .plan(about, on: parts[1] == "on")
    default: return nil
    }
  }
}

/// One change as the journal keeps it: what it was, and each key it changed with the value
/// before and after (nil: none). Every kind of data undoes and redoes through it alike.
public struct JournalChange: Equatable, Sendable {
  /// One key's value before the change and after it.
  public struct Step: Equatable, Sendable {
    public var key: JournalKey
    public var before: SyncValue?
    public var after: SyncValue?
  }

  /// Its place in the journal's one count: later changes have larger ones.
  public var number: Int
  public var madeOn: Day
  /// When it was made, ISO 8601 with its offset.
  public var at: String
  public var subject: JournalSubject
  public var steps: [Step]
  /// The local id of the habit a habit's change is about (nil for any other).
  public var habit: Int?
}

extension SyncValue {
  /// An entry's value as sync and the journal keep it: its answers and when it was saved.
  init(entry: FlowEntry) {
    let stored = entry.stored
    self.init(answers: stored.answers, savedAt: stored.savedAt)
  }
}

extension JournalChange {
  /// The entry's change as `undo` and `delete` report it (nil: another kind's).
  public var entryChange: EntryChange? {
    guard case .entry(let kind) = subject, let step = steps.first,
      case .data(.entry(let day, let flowName, let id)) = step.key,
      let flow = Flow(rawValue: flowName)
    else { return nil }
    func entry(_ value: SyncValue?) -> FlowEntry? {
      guard let answers = value?.answers, let savedAt = value?.savedAt else { return nil }
      return try? FlowEntry(
        stored: StoredEntry(flow: flowName, day: day, id: id, answers: answers, savedAt: savedAt))
    }
    return EntryChange(
      id: number, madeOn: madeOn, at: at, kind: kind, flow: flow, before: entry(step.before),
      after: entry(step.after), seq: number)
  }

  /// The habit's change as `undo` reports it (nil: another kind's): a day's check before and
  /// after, or the habit's definition.
  public var habitChange: HabitChange? {
    guard case .habit(let kind) = subject, let step = steps.first else { return nil }
    func check(_ value: SyncValue?) -> String? {
      guard case .data(.habitDay(_, let day)) = step.key, let value, let done = value.done else {
        return nil
      }
      return HabitCheck(
        day: day, done: done, failed: value.failed ?? false, value: value.amount,
        note: value.note, savedAt: value.savedAt ?? ""
      ).json
    }
    return HabitChange(
      id: number, kind: kind, habit: habit ?? 0, at: at, before: check(step.before),
      after: check(step.after), seq: number)
  }

  /// The days off's change as `undo` reports it (nil: another kind's).
  public var pauseChange: PauseChange? {
    guard case .pause(let kind, let pause) = subject else { return nil }
    func pauses(_ value: (Step) -> SyncValue?) -> [Pause] {
      steps.compactMap { step in
        guard case .data(.pause(let first)) = step.key, let last = value(step)?.lastDay else {
          return nil
        }
        return Pause(firstDay: first, lastDay: last)
      }
    }
    return PauseChange(
      id: number, seq: number, kind: kind, at: at, pause: pause, before: pauses(\.before),
      after: pauses(\.after))
  }
}
