import ArgumentParser
import FoundationEssentials
import NudgeCore
import NudgeStore
import NudgeUseCases

/// `nudge schedule`: reminder times as systemd calendar expressions.
struct ScheduleCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "schedule",
    abstract:
      "Show and change reminder times ('9pm', 'weekdays 7:30', or systemd calendar expressions).",
    subcommands: [List.self, Set.self, On.self, Off.self, Normalize.self, Preview.self],
    defaultSubcommand: List.self)

}

/// A slot named on the command line, or `all` of them.
struct SlotChoice: ExpressibleByArgument {
  var slots: [ReminderSource]

  init?(argument: String) {
    if argument == "all" {
      slots = ReminderSource.allCases
    } else if let slot = ReminderSource.allCases.first(where: { $0.rawValue == argument }) {
      // (a plan's own reminder time is set in its plan file)
      slots = [slot]
    } else {
      return nil
    }
  }

  static var allValueStrings: [String] { ReminderSource.allCases.map(\.rawValue) + ["all"] }
}

/// Saves a slot's changed schedule, updates installed units, and shows the result.
func change(
  _ ctx: Context, _ db: AppDatabase, _ slot: ReminderSource, _ edit: (inout SlotSchedule) -> Void
) throws {
  try change(ctx, db, [slot], edit)
}

/// Saves the changed schedules of `slots`, updates installed units, and shows the result.
func change(
  _ ctx: Context, _ db: AppDatabase, _ slots: [ReminderSource], _ edit: (inout SlotSchedule) -> Void
) throws {
  let all = try ChangeSchedule(db: db)(
    slots, madeOn: ctx.today(try db.settings()).day,
    at: InstantFormat.format(ctx.clock.started, in: ctx.timeZone), edit)
  try UserUnits(ctx: ctx, dryRun: false).update(
    all + ctx.allSchedules(db).filter(\.slot.hasOwnTimer), db: db)
  var list = ScheduleCommand.List()
  list.json = false
  list.verbose = false
  list.noPrompt = true
  try list.run(ctx)
}

/// Local wall-clock fields of naive seconds.
struct BrokenDown {
  let day: Day
  let hour: Int
  let minute: Int

  init(_ naive: Int) {
    let days = naive >= 0 ? naive / 86400 : (naive - 86399) / 86400
    day = Day(ordinal: days)
    let rest = naive - days * 86400
    hour = rest / 3600
    minute = rest % 3600 / 60
  }
}

extension Context {
  /// Parses a reminder's calendar expression: `parseCalendar`, then refused (with the same
  /// exit code) when it fires more often than once a minute (`CalendarSpec.reminderProblem`).
  func reminderCalendar(_ expression: String, local: ZoneRules, asTyped: String? = nil) throws
    -> CalendarSpec
  {
    let spec = try parseCalendar(expression, local: local, asTyped: asTyped)
    if let problem = spec.reminderProblem {
      throw CLIError(
        "'\(VisibleText.escaped(asTyped ?? expression))' is no reminder time: \(problem); give one second, as in 07:30 or 07:30:00.",
        code: asTyped == nil ? .badData : .usage)
    }
    return spec
  }

  /// Parses a calendar expression, or fails with exit 65 naming the bad part. `asTyped`: the
  /// words the person gave for a slot's time (`schedule set`): a bad one is a bad value, 64.
  func parseCalendar(_ expression: String, local: ZoneRules, asTyped: String? = nil) throws
    -> CalendarSpec
  {
    do {
      return try CalendarSpec.parse(expression, localZone: local, zoneExists: zones.exists)
    } catch {
      if let asTyped {
        // day words before a number that is no time: that number is what is wrong
        let reason =
          PlainTime.badTimeWord(asTyped).map {
            "'\($0)' is not a time of day: hours 0-23, or 1-12 with am or pm, and minutes 00-59"
          } ?? error.message
        throw CLIError(
          "'\(asTyped)' is not a time Nudge understands (\(reason)): write it like '7' (07:00), '9pm', '7:30 am', 'weekdays 7:30', 'weekends 9am', 'Mon,Wed,Fri 18:00', or as a systemd calendar expression (systemd.time(7)).",
          code: .usage)
      }
      throw CLIError(
        "'\(expression)' is not a calendar expression systemd accepts: \(error.message). See systemd.time(7), e.g. 'Mon..Fri 07:00' or '*-*-* 21:30'.",
        code: .badData)
    }
  }
}
