import ArgumentParser
import NudgeCore
import NudgeStore
import NudgeUseCases

/// `nudge pause`: days off for a holiday or sick days, planned ahead, from today or past;
/// listed and taken back.
struct PauseCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "pause",
    abstract: "Take days off: no reminders, and your streak waits (it neither grows nor breaks).",
    discussion: """
      'nudge pause --for 5d' starts today; --from plans one ahead (a holiday: --from friday is \
      the next Friday) or marks days already past (ill for three days? --from 'last monday', \
      up to 7 days back). A pause ends by itself after its last day; 'nudge resume' ends \
      today's early. 'nudge pause list' shows them all, 'nudge pause remove N' takes one back \
      whole (the streak and achievements follow), and so does 'nudge undo' right after.
      """,
    subcommands: [Add.self, List.self, Remove.self],
    defaultSubcommand: Add.self)
}

extension PauseCommand {
  /// "Mon 7 Dec", "Mon 7 – Wed 9 Dec", "Mon 30 Nov – Wed 2 Dec".
  static func range(_ first: Day, _ last: Day) -> String {
    if first == last { return first.short }
    let start = first.month == last.month ? "\(first.weekdayName) \(first.day)" : first.short
    return "\(start) – \(last.short)"
  }

  /// The pauses as `pause list` numbers them: the latest first (one planned ahead before the
  /// one of today, before those past), from 1.
  static func numbered(_ db: AppDatabase) throws -> [Pause] {
    try db.pauses().sorted { $0.firstDay > $1.firstDay }
  }

  /// Where `pause` stands as of `today`: ahead, now, or past.
  static func when(_ pause: Pause, today: Day) -> String {
    if pause.isAhead(of: today) { return "ahead" }
    return pause.contains(today) ? "now" : "past"
  }

  /// The streak after a change of the days off, and what it gave or took back, said plainly.
  static func sayAchievements(_ ctx: Context, _ settled: PauseDays.Settled, streak: StreakSummary) {
    let days = streak.current == 1 ? "1 day" : "\(streak.current) days"
    ctx.line("Streak: \(days) (longest \(streak.longest)).")
    ctx.sayAchievements(
      lost: settled.lost, new: settled.new, lostBecause: "without those days off it was not reached"
    )
  }
}
