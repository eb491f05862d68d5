import ArgumentParser
import FoundationEssentials
import Glibc
import NudgeCore
import NudgeStore

/// `nudge schedule`: reminder times as systemd calendar expressions.
struct ScheduleCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "schedule",
    abstract: "Show and change reminder times (systemd calendar expressions).",
    subcommands: [List.self, Set.self, On.self, Off.self, Normalize.self, Preview.self],
    defaultSubcommand: List.self)

  /// `nudge schedule`: each slot's time, state and next reminder.
  struct List: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: "Show each reminder slot.")

    @Flag(help: "Print the schedule as JSON.")
    var json = false

    struct Row: Encodable {
      var slot: Slot
      var expression: String
      var enabled: Bool
      @NullWhenAbsent var next: String?
    }

    func run(_ ctx: Context) throws {
      let db = try ctx.openDatabase()
      let local = ctx.timeZone
      let firing = SlotFiring(ctx: ctx, db: db, local: local)
      let now = ctx.now.seconds
      let rows = try db.schedules().map {
        schedule throws -> (Row, Int?) in
        let next = schedule.enabled ? firing.next(try firing.spec(schedule), after: now) : nil
        return (
          Row(
            slot: schedule.slot, expression: schedule.expression, enabled: schedule.enabled,
            next: next.map { local.iso($0) }),
          next
        )
      }
      if json {
        ctx.line(try jsonText(rows.map(\.0)))
        return
      }
      let style = ctx.style
      // the expression column fits the longest expression: never cut
      let width = max(24, rows.map(\.0.expression.count).max() ?? 0)
      for (row, next) in rows {
        let state = row.enabled ? style.green("on ") : style.dim("off")
        let expression = row.expression.padded(to: width)
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

  /// `nudge schedule set SLOT EXPR`.
  struct Set: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "set",
      abstract: "Change a slot's time: '12:15', 'Mon..Fri 07:00', any systemd calendar expression.")

    @Argument(help: "morning, midday or evening.")
    var slot: Slot

    @Argument(help: "A calendar expression.")
    var expression: String

    func run(_ ctx: Context) throws {
      let target = slot
      let local = ctx.timeZone
      let spec = try ctx.parseCalendar(expression, local: local)
      let db = try ctx.openDatabase()
      try change(ctx, db, target) { $0.expression = spec.normalized }
    }
  }

  /// `nudge schedule on SLOT`.
  struct On: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "on", abstract: "Turn a slot's reminder on.")

    @Argument(help: "morning, midday or evening.")
    var slot: Slot

    func run(_ ctx: Context) throws {
      try change(ctx, try ctx.openDatabase(), slot) { $0.enabled = true }
    }
  }

  /// `nudge schedule off SLOT`.
  struct Off: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "off", abstract: "Turn a slot's reminder off.")

    @Argument(help: "morning, midday or evening.")
    var slot: Slot

    func run(_ ctx: Context) throws {
      try change(ctx, try ctx.openDatabase(), slot) { $0.enabled = false }
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
      abstract: "Print the next elapses of a calendar expression, one a line.")

    @Argument(help: "A calendar expression, e.g. 'Mon..Fri 07:00'.")
    var expression: String

    @Option(help: "Start after this time (ISO 8601 with offset, or @EPOCH); default now.")
    var from: String?

    @Option(help: "The local time zone to use (default: TZ, else /etc/localtime).")
    var tz: String?

    @Option(help: "How many elapses (1-100000).")
    var count: Int = 5

    @Flag(help: "Print seconds since the epoch instead of ISO 8601.")
    var epoch = false

    func validate() throws {
      guard (1...100_000).contains(count) else {
        throw ValidationError("--count must be from 1 to 100000.")
      }
    }

    func run(_ ctx: Context) throws {
      if let tz, ctx.zones.zone(named: tz.hasPrefix(":") ? String(tz.dropFirst()) : tz) == nil,
        ZoneRules(posix: tz) == nil
      {
        throw CLIError(
          "--tz '\(tz)' is not an installed time zone (see /usr/share/zoneinfo).", code: .usage)
      }
      let local = ctx.zones.local(tz: tz ?? ctx.environment["TZ"])
      let spec = try ctx.parseCalendar(expression, local: local)
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
      out.reserveCapacity(count * 26)
      var usec = base * 1_000_000
      var memory = CalendarSpec.MktimeMemory()
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
        let seconds = next / 1_000_000
        if epoch {
          out += String(seconds).utf8
        } else {
          InstantFormat.append(Instant(seconds: seconds), in: local, to: &out)
        }
        out.append(10)  // newline
      }
      ctx.output.write(String(decoding: out, as: UTF8.self))
      if out.isEmpty {
        ctx.output.writeError(
          "nudge: '\(expression)' has no elapse after \(local.iso(base)) (systemd: \"Next elapse: never\").\n"
        )
      }
    }
  }
}

/// Saves a slot's changed schedule, updates installed units, and shows the result.
func change(
  _ ctx: Context, _ db: AppDatabase, _ slot: Slot, _ edit: (inout SlotSchedule) -> Void
) throws {
  var all = try db.schedules()
  let index = all.firstIndex { $0.slot == slot }!
  edit(&all[index])
  let updated = all[index]
  try db.saveSchedule(updated)
  try UserUnits(ctx: ctx, dryRun: false).update(all)
  var list = ScheduleCommand.List()
  list.json = false
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
  /// Parses a calendar expression, or fails with exit 65 naming the bad part.
  func parseCalendar(_ expression: String, local: ZoneRules) throws -> CalendarSpec {
    do {
      return try CalendarSpec.parse(expression, localZone: local, zoneExists: zones.exists)
    } catch {
      throw CLIError(
        "'\(expression)' is not a calendar expression systemd accepts: \(error.message). See systemd.time(7), e.g. 'Mon..Fri 07:00' or '*-*-* 21:30'.",
        code: .badData)
    }
  }
}
