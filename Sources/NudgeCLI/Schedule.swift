import ArgumentParser
import Foundation
import NudgeCore

/// `nudge schedule`: reminder times as systemd calendar expressions.
struct ScheduleCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "schedule",
    abstract: "Show and change reminder times (systemd calendar expressions).",
    subcommands: [Normalize.self, Preview.self])

  /// `nudge schedule normalize EXPR`: systemd's normalised form.
  struct Normalize: ContextCommand {
    static let configuration = CommandConfiguration(
      abstract: "Print the normalised form of a calendar expression, as systemd does.")

    @Argument(help: "A calendar expression, e.g. 'Mon..Fri 07:00'.")
    var expression: String

    func run(_ ctx: Context) throws(CLIError) {
      let local = ctx.zones.local(tz: ctx.environment["TZ"])
      ctx.line(try ctx.parseCalendar(expression, local: local).normalized)
    }
  }

  /// `nudge schedule preview EXPR`: the next elapses.
  struct Preview: ContextCommand {
    static let configuration = CommandConfiguration(
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

    func run(_ ctx: Context) throws(CLIError) {
      if let tz, ctx.zones.zone(named: tz.hasPrefix(":") ? String(tz.dropFirst()) : tz) == nil,
        ZoneRules(posix: tz) == nil
      {
        throw CLIError(
          "--tz '\(tz)' is not an installed time zone (see /usr/share/zoneinfo).", code: .usage)
      }
      let local = ctx.zones.local(tz: tz ?? ctx.environment["TZ"])
      let spec = try ctx.parseCalendar(expression, local: local)
      var base = Int(ctx.now.timeIntervalSince1970.rounded(.down))
      if let from {
        guard let parsed = InstantFormat.parse(from) else {
          throw CLIError(
            "--from '\(from)' is not a time: use ISO 8601 with an offset or @EPOCH.", code: .usage)
        }
        base = Int(parsed.timeIntervalSince1970)
      }
      var out = ""
      var usec = base * 1_000_000
      for _ in 0..<count {
        let step = spec.elapse(
          afterMicroseconds: usec, localZone: local, zoneFor: ctx.zones.zone(named:))
        if case .unresolvable = step {
          throw CLIError(
            "systemd cannot compute the elapse after \(local.iso(usec / 1_000_000)) for '\(expression)' (its calculation gives up at this DST change); choose another time of day.",
            code: .badData)
        }
        guard case .at(let next) = step else { break }
        usec = next
        let seconds = next / 1_000_000
        out += epoch ? "\(seconds)\n" : local.iso(seconds) + "\n"
      }
      ctx.output.write(out)
    }
  }
}

extension Context {
  /// Parses a calendar expression, or fails with exit 65 naming the bad part.
  func parseCalendar(_ expression: String, local: ZoneRules) throws(CLIError) -> CalendarSpec {
    do {
      return try CalendarSpec.parse(expression, localZone: local, zoneExists: zones.exists)
    } catch {
      throw CLIError(
        "'\(expression)' is not a calendar expression systemd accepts: \(error.message). See systemd.time(7), e.g. 'Mon..Fri 07:00' or '*-*-* 21:30'.",
        code: .badData)
    }
  }
}
