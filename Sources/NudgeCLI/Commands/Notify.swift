import ArgumentParser
import FoundationEssentials
import NudgeCore
import NudgeLinux
import NudgeStore

extension NotifyCommand {
  /// What `nudge notify` posts: a slot's reminder, or the demo.
  enum Target: ExpressibleByArgument, Equatable {
    case slot(ReminderSource)
    /// The reminder for this part of the day, now.
    case demo

    init?(argument: String) {
      if argument == "demo" {
        self = .demo
      } else if let slot = ReminderSource(rawValue: argument) {
        self = .slot(slot)
      } else {
        return nil
      }
    }

    static var allValueStrings: [String] { ReminderSource.allCases.map(\.rawValue) + ["demo"] }
  }
}

/// `nudge notify SLOT`: posts a reminder now, or with `--scheduled` applies the firing rules.
struct NotifyCommand: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "notify", abstract: "Post the reminder for a slot (what the timers run).",
    discussion: """
      The reminder stays clickable while it is relevant: until it is clicked or dismissed, its \
      flow is done elsewhere, or the slot's staleness window ends; then (or on SIGTERM, SIGINT, \
      SIGHUP) it is taken off the screen. Exit status: 0 shown or skipped, 69 no notification \
      server (the reminder was printed), 64 usage.
      """)

  @Argument(
    help: "morning, midday, evening, weekly, or demo (the reminder for this time of day, now).",
    completion: .list(NotifyCommand.Target.allValueStrings))
  var slot: NotifyCommand.Target

  @Flag(
    help: "Apply the schedule's rules: latest elapse, once per elapse, skip when done or stale.")
  var scheduled = false

  @Flag(help: "Post the slot's stored snooze when it is due (what a snooze timer runs).")
  var snoozed = false

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Seconds to wait for a click (default: until the slot's staleness window ends; demo 600). 0 posts it without buttons, leaves it on the screen and returns at once.",
      valueName: "seconds"))
  var wait: Double?

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Seconds to wait for a notification server that is not there yet (default: 120 with --scheduled or --snoozed, else 0).",
      valueName: "seconds"))
  var serverWait: Double?

  @Option(parsing: .unconditional, help: .hidden)
  var snoozeSeconds: Int?

  @Flag(help: "Print what happened as JSON.")
  var json = false

  func validate() throws {
    if let wait, !(0...Self.longestWait).contains(wait) {
      throw outOfRange(
        "--wait", wait, 0...Self.longestWait, unit: "seconds", note: "0: post it and do not wait")
    }
    if let snoozeSeconds, !(1...43200).contains(snoozeSeconds) {
      throw outOfRange("--snooze-seconds", snoozeSeconds, 1...43200, note: "12 hours")
    }
    if let serverWait, !(0...Self.longestWait).contains(serverWait) {
      throw outOfRange("--server-wait", serverWait, 0...Self.longestWait, unit: "seconds")
    }
    if slot == .demo && (scheduled || snoozed) {
      throw ValidationError("'demo' posts now; it takes no --scheduled or --snoozed.")
    }
    if scheduled && snoozed { throw ValidationError("use --scheduled or --snoozed, not both.") }
  }

  /// `nudge notify TARGET …` read without the argument parser (what every timer runs, and the
  /// posting the benches hold against notify-send): the target, `--scheduled`, `--snoozed`,
  /// `--json`, `--wait`, `--server-wait`, `--snooze-seconds` (`PlainWords`). Anything else,
  /// or what `validate` refuses, is nil: the parser reads it and says what is wrong.
  static func quickParse(_ arguments: [String]) -> Self? {
    guard arguments.first == "notify",
      let words = PlainWords(
        arguments.dropFirst(), options: ["--wait", "--server-wait", "--snooze-seconds"],
        flags: ["--scheduled", "--snoozed", "--json"],
        unconditional: ["--wait", "--server-wait", "--snooze-seconds"]),
      words.positionals.count == 1, let target = Target(argument: words.positionals[0]),
      let wait = words.number("--wait", Double.self),
      let serverWait = words.number("--server-wait", Double.self),
      let snoozeSeconds = words.number("--snooze-seconds", Int.self)
    else { return nil }
    var command = Self()
    command.slot = target
    command.scheduled = words.flags.contains("--scheduled")
    command.snoozed = words.flags.contains("--snoozed")
    command.json = words.flags.contains("--json")
    command.wait = wait
    command.serverWait = serverWait
    command.snoozeSeconds = snoozeSeconds
    guard (try? command.validate()) != nil else { return nil }
    return command
  }

  /// The longest wait a flag may ask for: a day (a reminder's window is at most that).
  static let longestWait: Double = 86400

  /// What the flags ask for.
  var request: Reminder.Request {
    switch slot {
    case .demo: .demo
    case .slot(let slot): scheduled ? .scheduled(slot) : snoozed ? .snoozed(slot) : .now(slot)
    }
  }

  func run(_ ctx: Context) throws {
    let options = Reminder.Options(
      wait: wait, serverWait: serverWait ?? (scheduled || snoozed ? 120 : 0),
      snoozeSeconds: snoozeSeconds, json: json)
    let db = try ctx.openDatabase()
    // a plan's own slot is one a plan file has (a timer left by a plan since removed says so)
    if case .slot(let named) = slot, named.hasOwnTimer,
      try !ctx.allSchedules(db).contains(where: { $0.slot == named })
    {
      throw CLIError(
        named.habitID != nil
          ? "no habit has the reminder '\(named.rawValue)' now (see 'nudge habit list'); 'nudge install' removes the timers of reminders no longer there."
          : "no plan has the reminder time '\(named.rawValue)' (see 'nudge plan list'); 'nudge install' removes the timers of plans no longer there.",
        code: .usage)
    }
    let session = Reminder.Session(ctx: ctx, db: db, request: request, options: options)
    let report = try session.run()
    if report.printsOutcome { try print(report, ctx) }
    if let failure = report.failure { throw failure }
  }

  func print(_ report: Reminder.RunReport, _ ctx: Context) throws {
    let elapse = report.elapse.map { ctx.timeZone.iso($0) }
    try ctx.render(
      NotifyCommand.JSONReport(
        slot: report.slot, elapse: elapse, outcome: (report.outcome?.rawValue ?? "nothing-due")),
      json: json
    ) {
      ctx.line(
        "\(report.slot.rawValue): \((report.outcome?.rawValue ?? "nothing-due"))"
          + (elapse.map { " (elapse \($0))" } ?? "")
      )
    }
  }
}

extension NotifyCommand {
  /// What `nudge notify --json` prints.
  struct JSONReport: Encodable {
    /// The slot's name, or "demo".
    var slot: Reminder.LoggedSlot
    @NullWhenAbsent var elapse: String?
    var outcome: String
  }
}
