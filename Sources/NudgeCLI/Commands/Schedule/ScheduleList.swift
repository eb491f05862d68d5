import ArgumentParser
import FoundationEssentials
import NudgeCore
import NudgeStore

extension ScheduleCommand {
  /// `nudge schedule`: each slot's time, state and next reminder.
  struct List: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: "Show each reminder slot.")

    @Flag(help: "Print the schedule as JSON.")
    var json = false

    @Flag(help: "Show each time as the systemd calendar expression the timer uses.")
    var verbose = false

    /// Set after a change has been shown: the table is not offered for editing again.
    @Flag(help: .hidden)
    var noPrompt = false

    struct Row: Encodable {
      var slot: ReminderSource
      var expression: String
      /// The time in plain words ("weekdays 07:00"), or the expression.
      var plain: String
      var enabled: Bool
      @NullWhenAbsent var next: String?
      /// Whose reminder a plan's or a habit's slot is ("Walk time (the walking plan)", "habit
      /// 'Read'"); null for a built-in slot.
      @NullWhenAbsent var of: String?
    }

    func run(_ ctx: Context) throws {
      let db = try ctx.openDatabase()
      let local = ctx.timeZone
      let calendar = SlotCalendar(ctx: ctx, local: local)
      let now = ctx.clock.started.seconds
      let settings = try db.settings()
      let pause = try db.pause(covering: ctx.today(settings).day)
      let pauses = try db.pauses().filter { $0.lastDay >= ctx.today(settings).day }
      let schedules = try db.schedules()
      let plans = try ctx.plans(db)
      let habits = try db.habits(includingArchived: false)
      // every reminder `install` writes a timer for: the built-in slots, the plans' own, and
      // the habits'
      let all = try ctx.allSchedules(db, plans: plans)
      func owner(_ slot: ReminderSource) -> String? {
        if let id = slot.habitID {
          return habits.first { $0.id == id }.map { "habit '\(VisibleText.escaped($0.name))'" }
        }
        guard let title = plans.title(of: slot) else { return nil }
        return "\(title) (the \(slot.rawValue.split(separator: ".").first ?? "") plan)"
      }
      let rows = try all.map {
        schedule throws -> (Row, Int?, refused: Bool) in
        // a time no longer taken (an older Nudge's '*:*:*') is listed, with no next elapse
        let spec = try? calendar.spec(schedule)
        var next = schedule.enabled ? spec.flatMap { calendar.next($0, after: now) } : nil
        // a pause (today's, or one planned ahead) holds every reminder on its days
        if !pauses.isEmpty {
          var steps = 0
          while let at = next, steps < 1000,
            case let day = settings.dayRule.day(of: Instant(seconds: at), in: local),
            pauses.contains(where: { $0.contains(day) })
          {
            next = spec.flatMap { calendar.next($0, after: at) }
            steps += 1
          }
        }
        return (
          Row(
            slot: schedule.slot, expression: schedule.expression,
            plain: PlainTime.describe(schedule.expression) ?? schedule.expression,
            enabled: schedule.enabled, next: next.map { local.iso($0) },
            of: owner(schedule.slot)),
          next, spec == nil
        )
      }
      // next times in UTC for a TZ that names no zone: said once, on stderr (JSON too)
      if !noPrompt { ctx.noteUnknownTZ() }
      try ctx.render(rows.map(\.0), json: json) {
        let style = ctx.style
        // a schedule reminds nobody by itself: say so when nothing will fire it
        if let sentence = RemindersState.current(ctx, schedules, checkTimers: true).sentence {
          ctx.wrappedLine(sentence, style: style.yellow)
        }
        if let pause {
          ctx.wrappedLine(
            "Paused until \(pause.lastDay.short(from: ctx.today(settings).day)): no reminder fires until then (nudge resume).",
            style: style.cyan)
        }
        // the time column fits the longest time: never cut
        let shown = rows.map { verbose ? $0.0.expression : $0.0.plain }
        let width = max(verbose ? 24 : 16, shown.map(\.count).max() ?? 0)
        let slotWidth = max(8, rows.map(\.0.slot.rawValue.count).max() ?? 0)
        for ((row, next, refused), time) in zip(rows, shown) {
          let state = row.enabled ? style.green("on ") : style.dim("off")
          let expression = time.padded(to: width)
          var line =
            "\(style.bold(row.slot.rawValue.padded(to: slotWidth))) \(state)  \(expression)"
          if let next {
            line +=
              " next \(Self.friendly(next, local)) " + style.dim("(in \(Self.until(next - now)))")
          } else if row.enabled, refused {
            line += style.yellow(
              " fires too often to remind: nudge schedule set \(row.slot.rawValue) TIME")
          } else if row.enabled {
            line += style.dim(" never again (no future elapse)")
          }
          if let of = row.of { line += style.dim(" · " + of) }
          ctx.line(line)
        }
        if rows.contains(where: { $0.0.of != nil }) {
          ctx.wrappedLine(
            "A plan's reminder keeps its time in its plan file, a habit's in the habit (nudge habit edit NAME --at TIME).",
            style: style.dim)
        }
        if !noPrompt && ctx.input.isTerminal && ctx.output.isTerminal {
          // only the built-in slots' times are set here
          try offerChanges(ctx, rows.map(\.0).filter { $0.of == nil })
        }
      }
    }

    /// On a terminal: each slot in turn, Enter keeps it; a time, on or off changes it.
    func offerChanges(_ ctx: Context, _ rows: [Row]) throws {
      ctx.line()
      ctx.line(
        ctx.style.dim(
          "Change a reminder? Type a time ('9pm', 'weekdays 7:30'), on or off; Enter keeps it."))
      let ask = Prompter(ctx: ctx)
      for row in rows {
        while true {
          let current = "\(row.plain), \(row.enabled ? "on" : "off")"
          guard let answer = try ask.text("  \(row.slot.rawValue) [\(current)]:") else { break }
          do {
            switch answer.lowercased() {
            case "on": try On.parse([row.slot.rawValue]).run(ctx)
            case "off": try Off.parse([row.slot.rawValue]).run(ctx)
            default: try Set.parse([row.slot.rawValue, answer]).run(ctx)
            }
            break
          } catch let failure as CLIError {
            ctx.line(ctx.style.yellow(failure.message))
          }
        }
      }
    }

    static func friendly(_ t: Int, _ zone: ZoneRules) -> String {
      let local = BrokenDown(t + zone.localType(at: t).offset)
      return "\(local.day.short) \(zeroPadded(local.hour, 2) + ":" + zeroPadded(local.minute, 2))"
    }

    static func until(_ seconds: Int) -> String {
      let minutes = (seconds + 59) / 60
      if minutes < 60 { return "\(minutes)m" }
      let hours = minutes / 60
      if hours < 48 { return "\(hours)h \(minutes % 60)m" }
      return "\(hours / 24)d \(hours % 24)h"
    }
  }
}
