import ArgumentParser
import FoundationEssentials
import NudgeCore
import NudgeStore

/// `nudge schedule`: reminder times as systemd calendar expressions.
struct ScheduleCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "schedule",
    abstract:
      "Show and change reminder times ('9pm', 'weekdays 7:30', or systemd calendar expressions).",
    subcommands: [List.self, Set.self, On.self, Off.self, Normalize.self, Preview.self],
    defaultSubcommand: List.self)

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
      var slot: Slot
      var expression: String
      /// The time in plain words ("weekdays 07:00"), or the expression.
      var plain: String
      var enabled: Bool
      @NullWhenAbsent var next: String?
    }

    func run(_ ctx: Context) throws {
      let db = try ctx.openDatabase()
      let local = ctx.timeZone
      let calendar = SlotCalendar(ctx: ctx, local: local)
      let now = ctx.now.seconds
      let settings = try db.settings()
      let pause = try db.pause(covering: ctx.today(settings).day)
      let schedules = try db.schedules()
      let rows = try schedules.map {
        schedule throws -> (Row, Int?) in
        let spec = try calendar.spec(schedule)
        var next = schedule.enabled ? calendar.next(spec, after: now) : nil
        // a pause holds every reminder until its last day is over
        if let pause {
          var steps = 0
          while let at = next, steps < 1000,
            settings.dayRule.day(of: Instant(seconds: at), in: local) <= pause.lastDay
          {
            next = calendar.next(spec, after: at)
            steps += 1
          }
        }
        return (
          Row(
            slot: schedule.slot, expression: schedule.expression,
            plain: PlainTime.describe(schedule.expression) ?? schedule.expression,
            enabled: schedule.enabled, next: next.map { local.iso($0) }),
          next
        )
      }
      if json {
        ctx.line(try jsonText(rows.map(\.0)))
        return
      }
      let style = ctx.style
      // a schedule reminds nobody by itself: say so when nothing will fire it
      if let sentence = RemindersState.current(ctx, schedules, checkTimers: true).sentence {
        ctx.wrappedLine(sentence, style: style.yellow)
      }
      if let pause {
        ctx.wrappedLine(
          "Paused until \(pause.lastDay.short): no reminder fires until then (nudge resume).",
          style: style.cyan)
      }
      // the time column fits the longest time: never cut
      let shown = rows.map { verbose ? $0.0.expression : $0.0.plain }
      let width = max(verbose ? 24 : 16, shown.map(\.count).max() ?? 0)
      for ((row, next), time) in zip(rows, shown) {
        let state = row.enabled ? style.green("on ") : style.dim("off")
        let expression = time.padded(to: width)
        var line =
          "\(style.bold(row.slot.rawValue.padded(to: 8))) \(state)  \(expression)"
        if let next {
          line +=
            " next \(Self.friendly(next, local)) " + style.dim("(in \(Self.until(next - now)))")
        } else if row.enabled {
          line += style.dim(" never again (no future elapse)")
        }
        ctx.line(line)
      }
      if !noPrompt && ctx.input.isTerminal && ctx.output.isTerminal {
        try offerChanges(ctx, rows.map(\.0))
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

  /// `nudge schedule set SLOT TIME`.
  struct Set: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "set",
      abstract:
        "Change a slot's time: '7' (07:00), '9pm', '7:30 am', 'weekdays 7:30', 'weekends 9am', 'Mon,Wed,Fri 18:00', or any systemd calendar expression."
    )

    @Argument(help: "morning, midday, evening or weekly.")
    var slot: Slot

    @Argument(help: "A time in plain words, or a systemd calendar expression.")
    var expression: String

    @Flag(help: "Keep a time far outside the slot's part of the day without asking.")
    var yes = false

    func run(_ ctx: Context) throws {
      let target = slot
      let local = ctx.timeZone
      let db = try ctx.openDatabase()
      let current = try db.schedules().first { $0.slot == target }!.expression
      let words = PlainTime.expression(expression, for: target, current: current)
      let spec = try ctx.parseCalendar(words ?? expression, local: local, asTyped: expression)
      let normalized = spec.normalized
      let plain = PlainTime.describe(normalized)
      // a slip worth a question: plain words or a shorthand ("daily"), not an expression spelt
      // out with systemd's wildcards
      if !expression.contains("*"), let hour = PlainTime.hour(of: normalized),
        !target.usualHours.contains(hour), !yes
      {
        let at = plain ?? normalized
        guard ctx.input.isTerminal else {
          throw CLIError(
            "\(at) is far outside the \(target.rawValue) reminder's part of the day (\(zeroPadded(target.usualHours.lowerBound, 2)):00-\(zeroPadded(target.usualHours.upperBound, 2)):59); to keep it: nudge schedule set \(target.rawValue) '\(expression)' --yes",
            code: .usage)
        }
        guard
          try Prompter(ctx: ctx).yesNo(
            "\(target.partOfDay.prefix(1).uppercased() + target.partOfDay.dropFirst()) reminder at \(at)?",
            current: false)
        else {
          ctx.line("Nothing changed.")
          return
        }
      }
      let calendar = SlotCalendar(ctx: ctx, local: local)
      let next = calendar.next(spec, after: ctx.now.seconds)
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

  /// `nudge schedule on SLOT|all`.
  struct On: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "on", abstract: "Turn a slot's reminder on (or all of them).")

    @Argument(help: "morning, midday, evening, weekly or all.")
    var slot: SlotChoice

    func run(_ ctx: Context) throws {
      try change(ctx, try ctx.openDatabase(), slot.slots) { $0.enabled = true }
    }
  }

  /// `nudge schedule off SLOT|all`.
  struct Off: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "off", abstract: "Turn a slot's reminder off (or all of them).")

    @Argument(help: "morning, midday, evening, weekly or all.")
    var slot: SlotChoice

    func run(_ ctx: Context) throws {
      try change(ctx, try ctx.openDatabase(), slot.slots) { $0.enabled = false }
    }
  }

  /// `nudge schedule normalize EXPR`: systemd's normalised form.
  struct Normalize: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "normalize",
      abstract: "Print the normalised form of a calendar expression, as systemd does.")

    @Argument(help: "A calendar expression, e.g. 'Mon..Fri 07:00'.")
    var expression: String

    func run(_ ctx: Context) throws {
      let local = ctx.timeZone
      ctx.line(try ctx.parseCalendar(expression, local: local).normalized)
    }
  }

  /// `nudge schedule preview EXPR`: the next elapses.
  struct Preview: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "preview",
      abstract: "Print the next elapses of a calendar expression, one a line.",
      discussion:
        "Several expressions (as systemd-analyze calendar takes them) print one block each, in order, separated by an empty line."
    )

    @Argument(help: "A calendar expression, e.g. 'Mon..Fri 07:00'; or several.")
    var expressions: [String]

    func validate() throws {
      guard (1...100_000).contains(count) else {
        throw ValidationError("--count must be from 1 to 100000.")
      }
      guard !expressions.isEmpty else {
        throw ValidationError("give a calendar expression, e.g. 'Mon..Fri 07:00'.")
      }
    }

    @Option(
      help: ArgumentHelp(
        "Start after this time (ISO 8601 with offset, or @EPOCH); default now.", valueName: "time"))
    var from: String?

    @Option(
      help: ArgumentHelp(
        "The local time zone to use (default: TZ, else /etc/localtime).", valueName: "zone"))
    var tz: String?

    @Option(help: ArgumentHelp("How many elapses (1-100000).", valueName: "n"))
    var count: Int = 5

    @Flag(help: "Print seconds since the epoch instead of ISO 8601.")
    var epoch = false

    func run(_ ctx: Context) throws {
      if let tz, ctx.zones.zone(named: tz.hasPrefix(":") ? String(tz.dropFirst()) : tz) == nil,
        ZoneRules(posix: tz) == nil
      {
        throw CLIError(
          "--tz '\(tz)' is not an installed time zone (see /usr/share/zoneinfo).", code: .usage)
      }
      let local = ctx.zones.local(tz: tz ?? ctx.environment["TZ"])
      // every expression checked before anything is printed
      let specs = try expressions.map { try ctx.parseCalendar($0, local: local) }
      var base = ctx.now.seconds
      if let from {
        guard let parsed = InstantFormat.parse(from) else {
          throw CLIError(
            "--from '\(from)' is not a time: use ISO 8601 with an offset or @EPOCH.", code: .usage)
        }
        base = parsed.seconds
      }
      let (count, epoch) = (count, epoch)  // read once: each read of a wrapper is a lookup
      var out: [UInt8] = []
      out.reserveCapacity(count * 26 * specs.count)
      // one process for all of them, as systemd-analyze calendar: the C library's memory
      // carries from one expression to the next
      var memory = CalendarSpec.MktimeMemory()
      memory.freshProcess = true
      for (index, (spec, expression)) in zip(specs, expressions).enumerated() {
        if index > 0 { out.append(10) }  // an empty line between blocks
        var usec = base * 1_000_000
        var printed = false
        for _ in 0..<count {
          let step = spec.elapse(
            afterMicroseconds: usec, localZone: local, zoneFor: ctx.zones.zone(named:),
            memory: &memory)
          if case .outOfRange = step {
            throw CLIError(
              "systemd computes no elapse after 9999-12-30 23:59:59 UTC; choose an earlier --from.",
              code: .badData)
          }
          if case .unresolvable = step {
            throw CLIError(
              "systemd cannot compute the elapse after \(local.iso(usec / 1_000_000)) for '\(expression)' (its calculation gives up at this DST change); choose another time of day.",
              code: .badData)
          }
          guard case .at(let next) = step else { break }
          usec = next
          printed = true
          let seconds = next / 1_000_000
          if epoch {
            out += String(seconds).utf8
          } else {
            InstantFormat.append(Instant(seconds: seconds), in: local, to: &out)
          }
          out.append(10)  // newline
        }
        if !printed {
          ctx.output.writeError(
            "nudge: '\(expression)' has no elapse after \(local.iso(base)) (systemd: \"Next elapse: never\").\n"
          )
        }
      }
      ctx.output.write(String(decoding: out, as: UTF8.self))
    }
  }
}

/// A slot named on the command line, or `all` of them.
struct SlotChoice: ExpressibleByArgument {
  var slots: [Slot]

  init?(argument: String) {
    if argument == "all" {
      slots = Slot.allCases
    } else if let slot = Slot(rawValue: argument) {
      slots = [slot]
    } else {
      return nil
    }
  }

  static var allValueStrings: [String] { Slot.allCases.map(\.rawValue) + ["all"] }
}

/// Saves a slot's changed schedule, updates installed units, and shows the result.
func change(
  _ ctx: Context, _ db: AppDatabase, _ slot: Slot, _ edit: (inout SlotSchedule) -> Void
) throws {
  try change(ctx, db, [slot], edit)
}

/// Saves the changed schedules of `slots`, updates installed units, and shows the result.
func change(
  _ ctx: Context, _ db: AppDatabase, _ slots: [Slot], _ edit: (inout SlotSchedule) -> Void
) throws {
  var all = try db.schedules()
  for slot in slots {
    let index = all.firstIndex { $0.slot == slot }!
    edit(&all[index])
    try db.saveSchedule(all[index])
  }
  try UserUnits(ctx: ctx, dryRun: false).update(all, db: db)
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
  /// Parses a calendar expression, or fails with exit 65 naming the bad part. `asTyped`: the
  /// words the person gave for a slot's time (`schedule set`): a bad one is a bad value, 64.
  func parseCalendar(_ expression: String, local: ZoneRules, asTyped: String? = nil) throws
    -> CalendarSpec
  {
    do {
      return try CalendarSpec.parse(expression, localZone: local, zoneExists: zones.exists)
    } catch {
      if let asTyped {
        throw CLIError(
          "'\(asTyped)' is not a time Nudge understands (\(error.message)): write it like '7' (07:00), '9pm', '7:30 am', 'weekdays 7:30', 'weekends 9am', 'Mon,Wed,Fri 18:00', or as a systemd calendar expression (systemd.time(7)).",
          code: .usage)
      }
      throw CLIError(
        "'\(expression)' is not a calendar expression systemd accepts: \(error.message). See systemd.time(7), e.g. 'Mon..Fri 07:00' or '*-*-* 21:30'.",
        code: .badData)
    }
  }
}
