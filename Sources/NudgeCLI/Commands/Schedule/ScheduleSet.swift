import ArgumentParser
import FoundationEssentials
import NudgeCore
import NudgeStore

extension ScheduleCommand {
  /// `nudge schedule set SLOT TIME`.
  struct Set: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "set",
      abstract:
        "Change a slot's time: '7' (07:00), '9pm', '7:30 am', 'weekdays 7:30', 'weekends 9am', 'Mon,Wed,Fri 18:00', or any systemd calendar expression."
    )

    @Argument(help: "morning, midday, evening or weekly.")
    var slot: ReminderSource

    @Argument(help: "A time in plain words, or a systemd calendar expression.")
    var expression: String

    @Flag(
      help:
        "Keep a time far outside the slot's part of the day, or one that fires more than once a day, without asking."
    )
    var yes = false

    func run(_ ctx: Context) throws {
      let target = slot
      let local = ctx.timeZone
      let db = try ctx.openDatabase()
      // a plan's own reminder (PLAN.SLOT) or a habit's keeps its time in its plan or habit
      guard let current = try db.schedules().first(where: { $0.slot == target })?.expression
      else {
        throw CLIError(
          "'\(VisibleText.escaped(target.rawValue))' is not one of the slots schedule sets (morning, midday, evening, weekly); a plan's own reminder takes its time from its plan file's [[slot]] 'at', a habit's from 'nudge habit edit NAME --at TIME'.",
          code: .usage)
      }
      let words = PlainTime.expression(expression, for: target, current: current)
      let spec = try ctx.reminderCalendar(words ?? expression, local: local, asTyped: expression)
      let normalized = spec.normalized
      let plain = PlainTime.describe(normalized)
      // a reminder is once a day: one that fires more often (every second: '*:*:*') is asked
      // about, whatever the words
      let times = spec.timesADay
      if times > 1, !yes {
        guard
          try ctx.confirm(
            "\(normalized) fires the \(target.rawValue) reminder \(times) times a day; keep it?",
            current: false,
            offTerminal:
              "'\(expression)' (\(normalized)) fires the \(target.rawValue) reminder \(times) times a day; to keep it, add --yes: nudge schedule set \(target.rawValue) '\(expression)' --yes"
          )
        else {
          ctx.line("Nothing changed.")
          return
        }
      }
      // a slip worth a question: plain words or a shorthand ("daily"), not an expression spelt
      // out with systemd's wildcards
      if times <= 1, !expression.contains("*"), let hour = PlainTime.hour(of: normalized),
        !target.usualHours.contains(hour), !yes
      {
        let at = plain ?? normalized
        guard
          try ctx.confirm(
            "\(target.partOfDay.prefix(1).uppercased() + target.partOfDay.dropFirst()) reminder at \(at)?",
            current: false,
            offTerminal:
              "\(at) is far outside the \(target.rawValue) reminder's part of the day (\(zeroPadded(target.usualHours.lowerBound, 2)):00-\(zeroPadded(target.usualHours.upperBound, 2)):59); to keep it: nudge schedule set \(target.rawValue) '\(expression)' --yes"
          )
        else {
          ctx.line("Nothing changed.")
          return
        }
      }
      let calendar = SlotCalendar(ctx: ctx, local: local)
      let next = calendar.next(spec, after: ctx.clock.started.seconds)
      // what Nudge understood, in words and as the timer will have it
      ctx.line(
        "\(target.rawValue): \(plain.map { Self.spoken($0) } ?? normalized)"
          + (plain == nil ? "" : " — \(normalized)")
          + (next.map { "; next \(List.friendly($0, local))" } ?? ""))
      try change(ctx, db, target) { $0.expression = normalized }
    }

    /// "weekdays at 07:00", "every day at 21:30".
    static func spoken(_ plain: String) -> String {
      let parts = plain.split(separator: " ")
      return parts.count == 1 ? "every day at \(plain)" : "\(parts[0]) at \(parts[1])"
    }
  }
}
