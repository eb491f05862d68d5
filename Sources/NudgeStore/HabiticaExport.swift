import FoundationEssentials
import NudgeCore

/// Habitica's data export (Settings → Site Data → Export Data → User Data, JSON:
/// `habitica-user-data.json`; habitica's website/server/controllers/top-level/dataexport.js)
/// read as the backup it stands for, so `LoopImport` maps it as it maps Loop's.
///
/// The user object holds `tasks.dailys` and `tasks.habits` (todos and rewards are no habits)
/// and `preferences.timezoneOffset` (minutes west of UTC, as JavaScript's getTimezoneOffset)
/// and `dayStart` (the hour a new day begins). Each task has `text`, and its `history`: a
/// daily's entries (website/server/libs/cron.js, common/script/ops/scoreTask.js) are
/// `{date, value, isDue, completed}`, one with `completed: true` pushed when it is checked
/// (that day), one with `completed: false` pushed by the next day's cron when it was due and
/// not done (so it stands for the day before); entries from before Habitica kept `completed`
/// say nothing of the day and are left out. A habit's entries are a day's
/// `{date, value, scoredUp, scoredDown}`. `date` is milliseconds since 1970 (an ISO 8601
/// string in some exports). A daily's `frequency` is daily (every `everyX` days), weekly (on
/// the days `repeat` marks), monthly (on `daysOfMonth`, or weeks of the month) or yearly.
///
/// A daily is a yes/no habit: checked is done, missed a no. A habit with only its plus is a
/// measurable one of 1 time a day, a day's amount its plus clicks; with only its minus, a
/// habit to quit, a day with a minus click a slip; with both, the plus clicks count and the
/// minus are left out (said in the notes).
public enum HabiticaExport {
  /// What was read, and notes on what was brought near.
  public struct Read: Sendable {
    public var backup: LoopBackup
    public var notes: [String]
  }

  /// The most bytes of the export read.
  public static let maxBytes = 128 << 20

  struct UserData: Decodable {
    var tasks: Tasks?
    var preferences: Preferences?
  }

  struct Preferences: Decodable {
    var timezoneOffset: Double?
    var dayStart: Double?
  }

  struct Tasks: Decodable {
    var habits: [Task]?
    var dailys: [Task]?
    var todos: [Ignored]?
    var rewards: [Ignored]?
  }

  /// An element not read (a todo, a reward), only counted.
  struct Ignored: Decodable {
    init(from decoder: any Decoder) throws {}
  }

  struct Task: Decodable {
    var text: String?
    var notes: String?
    var up: Bool?
    var down: Bool?
    var frequency: String?
    var everyX: Double?
    var repeatDays: [String: Bool]?
    var daysOfMonth: [Double]?
    var weeksOfMonth: [Double]?
    var history: [Entry]?

    enum CodingKeys: String, CodingKey {
      case text, notes, up, down, frequency, everyX, daysOfMonth, weeksOfMonth, history
      case repeatDays = "repeat"
    }
  }

  struct Entry: Decodable {
    var date: Stamp
    var scoredUp: Double?
    var scoredDown: Double?
    var isDue: Bool?
    var completed: Bool?
  }

  /// A history entry's time: milliseconds since 1970, or an ISO 8601 string.
  struct Stamp: Decodable {
    var seconds: Int

    init(from decoder: any Decoder) throws {
      let single = try decoder.singleValueContainer()
      if let ms = try? single.decode(Double.self) {
        guard ms.isFinite, abs(ms) < 1e15 else {
          throw DecodingError.dataCorruptedError(
            in: single, debugDescription: "not a time in milliseconds")
        }
        seconds = Int((ms / 1000).rounded(.down))
      } else if let text = try? single.decode(String.self),
        let instant = InstantFormat.parse(text)
      {
        seconds = instant.seconds
      } else {
        throw DecodingError.dataCorruptedError(
          in: single, debugDescription: "not a time (milliseconds or ISO 8601)")
      }
    }
  }

  /// Habitica's weekday keys, by `Day.weekday` (0 = Sunday).
  static let weekdayKeys = ["su", "m", "t", "w", "th", "f", "s"]

  /// The dailies and habits of `data` (the export's bytes) and their days; an error names the
  /// place in the file and what is wrong, and nothing is taken.
  public static func read(_ data: [UInt8]) throws(InputError) -> Read {
    let user: UserData
    do {
      user = try JSONDecoder().decode(UserData.self, from: Data(data))
    } catch let error as DecodingError {
      throw InputError(describe(error))
    } catch {
      throw InputError("not JSON Nudge can read")
    }
    guard let tasks = user.tasks, tasks.dailys != nil || tasks.habits != nil else {
      throw InputError(
        "has no tasks: Nudge reads Habitica's user data (Settings → Site Data → Export Data → User Data, JSON)"
      )
    }
    let dailys = tasks.dailys ?? []
    let habits = tasks.habits ?? []
    guard dailys.count + habits.count <= LoopBackup.maxHabits else {
      throw InputError(
        "holds \(dailys.count + habits.count) dailies and habits, more than the \(LoopBackup.maxHabits) Nudge keeps"
      )
    }
    let entries = (dailys + habits).reduce(0) { $0 + ($1.history?.count ?? 0) }
    guard entries <= LoopBackup.maxRepetitions * 2 else {
      throw InputError(
        "holds \(entries) history entries, more than Nudge reads (\(LoopBackup.maxRepetitions * 2))"
      )
    }
    // the person's day: their zone's offset (minutes west of UTC) and the hour it begins
    let offset = user.preferences?.timezoneOffset ?? 0
    let dayStart = user.preferences?.dayStart ?? 0
    guard offset.isFinite, abs(offset) <= 24 * 60, dayStart.isFinite, (0...23).contains(dayStart)
    else { throw InputError("preferences: the time zone offset or day start is out of range") }
    let shift = Int(offset) * 60 + Int(dayStart) * 3600
    func day(_ stamp: Stamp) -> Day { Day(ordinal: floorDiv(stamp.seconds - shift, 86400)) }
    var notes: [String] = []
    var read: [LoopBackup.Habit] = []
    let latest = Day(year: 2199, month: 12, day: 31)
    func named(_ task: Task, _ place: String) throws(InputError) -> String {
      guard let text = task.text, !text.trimmingSpaces.isEmpty else {
        throw InputError("\(place) has no text (its name)")
      }
      guard text.count <= LoopBackup.maxTextLength else {
        throw InputError("\(place)'s text is longer than \(LoopBackup.maxTextLength) characters")
      }
      return text.trimmingSpaces
    }
    func marks(_ found: [Day: LoopBackup.Mark.Kind], _ place: String) throws(InputError)
      -> [LoopBackup.Mark]
    {
      for day in found.keys where day < LoopBackup.earliestDay || day > latest {
        throw InputError("\(place): a history entry is on \(day), before 2000 or after 2199")
      }
      return found.sorted { $0.key < $1.key }.map { LoopBackup.Mark(day: $0.key, kind: $0.value) }
    }
    var unknown = 0
    var offDays = 0
    for (i, task) in dailys.enumerated() {
      let place = "tasks.dailys[\(i)]"
      let name = try named(task, place)
      var habit = LoopBackup.Habit(name: name, position: read.count + 1)
      frequency(task, name: name, into: &habit, notes: &notes)
      var found: [Day: LoopBackup.Mark.Kind] = [:]
      for entry in task.history ?? [] {
        switch (entry.completed, entry.isDue) {
        case (true?, _): found[day(entry.date)] = .done(1)
        // the next day's cron says the day before was due and not done
        case (false?, true?):
          let missed = day(entry.date).adding(days: -1)
          if found[missed] == nil { found[missed] = .failed }
        case (false?, _): break
        case (nil, _): unknown += 1
        }
      }
      // the cron's day before is not always the day missed (a cron after days away): a no on
      // a day the daily is not due is left out
      if let weekdays = habit.weekdays {
        let off = found.filter { $0.value == .failed && !weekdays.contains($0.key.weekday) }
        for day in off.keys { found[day] = nil }
        offDays += off.count
      }
      habit.marks = try marks(found, place)
      read.append(habit)
    }
    for (i, task) in habits.enumerated() {
      let place = "tasks.habits[\(i)]"
      let name = try named(task, place)
      let (up, down) = (task.up ?? true, task.down ?? true)
      guard up || down else {
        notes.append(
          "'\(VisibleText.escaped(name))' has neither a plus nor a minus in Habitica; left out")
        continue
      }
      var habit = LoopBackup.Habit(name: name, position: read.count + 1)
      var found: [Day: LoopBackup.Mark.Kind] = [:]
      if up {
        habit.isMeasurable = true
        habit.target = 1
        habit.unit = "times"
        if down {
          notes.append(
            "'\(VisibleText.escaped(name))' counts its plus clicks a day (1 a day to meet it); its minus clicks were left out"
          )
        }
        for entry in task.history ?? [] {
          guard let ups = entry.scoredUp else {
            unknown += 1
            continue
          }
          guard ups.isFinite, ups >= 0 else { throw InputError("\(place): a scoredUp is negative") }
          if ups > 0 {
            let d = day(entry.date)
            if case .done(let before)? = found[d] {
              found[d] = .done(before + ups)
            } else {
              found[d] = .done(ups)
            }
          }
        }
      } else {
        habit.quit = true
        for entry in task.history ?? [] {
          guard let downs = entry.scoredDown else {
            unknown += 1
            continue
          }
          if downs > 0 { found[day(entry.date)] = .failed }
        }
      }
      habit.marks = try marks(found, place)
      read.append(habit)
    }
    if unknown > 0 {
      notes.append(
        "\(unknown) history entr\(unknown == 1 ? "y is" : "ies are") from before Habitica kept what was done that day; left out"
      )
    }
    if offDays > 0 {
      notes.append(
        "\(offDays) missed day\(offDays == 1 ? " falls" : "s fall") on a day its daily is not due (Habitica's cron came days later); left out"
      )
    }
    let others = (tasks.todos?.count ?? 0) + (tasks.rewards?.count ?? 0)
    if others > 0 {
      notes.append("\(others) to-do\(others == 1 ? "" : "s") and rewards are no habits; left out")
    }
    if user.preferences?.timezoneOffset == nil {
      notes.append("the export does not say your time zone; its days are UTC's")
    }
    return Read(backup: LoopBackup(habits: read, source: "Habitica"), notes: notes)
  }

  /// A daily's frequency as Loop's numerator and denominator, or its weekdays.
  static func frequency(
    _ task: Task, name: String, into habit: inout LoopBackup.Habit, notes: inout [String]
  ) {
    let shown = VisibleText.escaped(name)
    // clamped while a Double: a hostile 1e300 does not trap the conversion
    let every = Int(max(1, min(365, task.everyX.map { $0.isFinite ? $0 : 1 } ?? 1)))
    switch task.frequency ?? "weekly" {
    case "daily":
      (habit.numerator, habit.denominator) = (1, every)
    case "weekly":
      let days = Set(
        weekdayKeys.indices.filter { task.repeatDays?[weekdayKeys[$0]] ?? true })
      if every > 1 {
        notes.append("'\(shown)' is every \(every) weeks in Habitica; Nudge keeps it every week")
      }
      if days.isEmpty {
        notes.append("'\(shown)' is on no weekday in Habitica; Nudge keeps it daily")
      } else if days.count < 7 {
        habit.weekdays = days
      }
    case "monthly":
      // on days of the month, or on weekdays of some weeks of it (Habitica writes both lists,
      // one empty)
      let days = task.daysOfMonth ?? []
      let weeks = task.weeksOfMonth ?? []
      let weekdays = weekdayKeys.filter { task.repeatDays?[$0] ?? false }.count
      let times = max(
        1, min(28, !days.isEmpty ? days.count : weeks.count * max(1, weekdays)))
      (habit.numerator, habit.denominator) = (times, 30)
      notes.append(
        "'\(shown)' is on set days of the month in Habitica; Nudge keeps it \(times)/month")
    default:
      (habit.numerator, habit.denominator) = (1, 365)
      notes.append("'\(shown)' is yearly in Habitica; Nudge keeps it every 365 days")
    }
  }

  /// A decoding error as one line naming where in the file it is.
  static func describe(_ error: DecodingError) -> String {
    // the keys are the file's: shown escaped
    func path(_ keys: [any CodingKey]) -> String {
      VisibleText.escaped(
        keys.reduce("") { text, key in
          if let index = key.intValue { return text + "[\(index)]" }
          return text.isEmpty ? key.stringValue : text + "." + key.stringValue
        })
    }
    switch error {
    case .typeMismatch(_, let context), .valueNotFound(_, let context):
      return
        "\(path(context.codingPath).isEmpty ? "the file" : path(context.codingPath)) is not what Habitica writes there"
    case .keyNotFound(let key, let context):
      return "\(path(context.codingPath + [key])) is missing"
    case .dataCorrupted(let context):
      return context.codingPath.isEmpty
        ? "is not JSON (Nudge reads Habitica's user data export, JSON)"
        : "\(path(context.codingPath)): \(VisibleText.escaped(context.debugDescription))"
    @unknown default:
      return "is not Habitica's user data"
    }
  }
}
