import ArgumentParser
import FoundationEssentials
import NudgeCore
import NudgeStore

extension ScheduleCommand {
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

    func validate() throws { try request.validate() }

    @Option(
      help: ArgumentHelp(
        "Start after this time (ISO 8601 with offset, or @EPOCH); default now.", valueName: "time"))
    var from: String?

    @Option(
      help: ArgumentHelp(
        "The local time zone to use (default: TZ, else /etc/localtime).", valueName: "zone"))
    var tz: String?

    @Option(
      parsing: .unconditional, help: ArgumentHelp("How many elapses (1-100000).", valueName: "n"))
    var count: Int = 5

    @Flag(help: "Print seconds since the epoch instead of ISO 8601.")
    var epoch = false

    /// What it asks for, as plain values.
    var request: PreviewRequest {
      PreviewRequest(expressions: expressions, from: from, tz: tz, count: count, epoch: epoch)
    }

    func run(_ ctx: Context) throws { try request.run(ctx) }
  }
}

/// A calendar preview as asked for: the parsed command's values, or `quickParse`'s reading of
/// plain words (without the parser's property wrappers, whose first use was a tenth of a
/// preview).
struct PreviewRequest: Equatable {
  var expressions: [String]
  var from: String? = nil
  var tz: String? = nil
  var count = 5
  var epoch = false

  func validate() throws {
    guard (1...100_000).contains(count) else {
      throw outOfRange("--count", count, 1...100_000, unit: "elapses")
    }
    guard !expressions.isEmpty else {
      throw ValidationError("give a calendar expression, e.g. 'Mon..Fri 07:00'.")
    }
  }

  func run(_ ctx: Context) throws {
    if let tz, ctx.zones.zone(named: tz.hasPrefix(":") ? String(tz.dropFirst()) : tz) == nil,
      ZoneRules(posix: tz) == nil
    {
      throw CLIError(
        "--tz '\(tz)' is not an installed time zone (see /usr/share/zoneinfo).", code: .usage)
    }
    if tz == nil { ctx.noteUnknownTZ() }
    let local = ctx.zones.local(tz: tz ?? ctx.environment["TZ"])
    // every expression checked before anything is printed; plain words ('fri-mon 9pm') are
    // what `schedule set` reads, not systemd: the refusal names the expression they become
    let specs = try expressions.map { text in
      do {
        return try ctx.parseCalendar(text, local: local)
      } catch let refusal as CLIError {
        guard let words = PlainTime.expression(text) else { throw refusal }
        throw CLIError(
          "'\(text)' is plain words, which 'nudge schedule set' reads, not a calendar expression; they stand for '\(words)': nudge schedule preview '\(words)'",
          code: refusal.code)
      }
    }
    var base = ctx.clock.started.seconds
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

extension PreviewRequest {
  /// `nudge schedule preview …` read without the argument parser, whose first use (the
  /// reflection of the command tree) was a third of a preview's time: expressions,
  /// `--count`, `--from`, `--tz` and `--epoch` (`PlainWords`). Anything else, or a count out
  /// of range, is nil: the parser reads it and says what is wrong. `QuickParseTests` hold it
  /// to the parser's reading.
  static func quickParse(_ arguments: [String]) -> PreviewRequest? {
    guard arguments.count > 2, arguments[0] == "schedule", arguments[1] == "preview",
      let words = PlainWords(
        arguments.dropFirst(2), options: ["--count", "--from", "--tz"], flags: ["--epoch"],
        unconditional: ["--count"])
    else { return nil }
    guard let count = words.number("--count", Int.self) else { return nil }
    let preview = PreviewRequest(
      expressions: words.positionals, from: words.options["--from"], tz: words.options["--tz"],
      count: count ?? 5, epoch: words.flags.contains("--epoch"))
    guard (try? preview.validate()) != nil else { return nil }
    return preview
  }
}
