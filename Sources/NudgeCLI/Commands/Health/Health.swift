import ArgumentParser
import NudgeCore
import NudgeLinux
import NudgeStore
import NudgeUseCases

/// `nudge health`: last night from a watch, against its baselines; the imports and folders
/// it reads from; and `forget`, which removes it all.
struct HealthCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "health",
    abstract: "Last night from your watch or phone: sleep, recovery signals, the day's activity.",
    discussion: """
      Reads an Apple Health export (export.zip, or its export.xml) or Gadgetbridge's \
      exported database, locally: nothing leaves \
      this computer. 'nudge health import FILE' takes one in; 'nudge health source add DIR' \
      names a folder (the one your phone's sync fills) whose new exports are taken in by \
      'nudge health' and by the morning reminder. 'nudge health --json' prints version 1 of \
      a documented contract; 'nudge health brief' three lines; 'nudge health forget' \
      removes every health record Nudge keeps.
      """,
    subcommands: [
      Show.self, Import.self, Brief.self, Source.self, Prefer.self, Forget.self,
    ],
    defaultSubcommand: Show.self)

  /// What `nudge health` says when it holds nothing yet.
  static let explanation = [
    "Nudge holds no health data yet.",
    "It reads what your watch and phone already measured: an Apple Health export (on the iPhone: Health → your picture → Export All Health Data, which makes export.zip), or Gadgetbridge's database (Amazfit and Mi Band watches on Android: Data management → Export database).",
    "Take one in with: nudge health import ~/Downloads/export.zip",
    "Or name the folder your phone's sync fills, and new exports are taken in by themselves: nudge health source add DIR",
    "It keeps each night's sleep, HRV, resting heart rate, breathing rate and wrist temperature, and each day's steps, active energy and workouts, in a file of its own beside your database (mode 0600). Nothing leaves this computer; 'nudge health forget' removes it all.",
  ]
}

extension HealthCommand {
  /// `--day`'s help, the same for the view and the brief.
  static let dayHelp = ArgumentHelp(
    "The morning to read: today (the default), yesterday, a weekday or YYYY-MM-DD.")

  /// `health [show] [--day DAY] [--json]` and `health brief [--day DAY]`, read without the
  /// argument parser when their words are plain (its first use is most of such a start: the
  /// health subcommands' reflection); anything else is left to it.
  static func quickParse(_ arguments: [String]) -> (any ParsableCommand)? {
    guard arguments.first == "health" else { return nil }
    var rest = arguments.dropFirst()
    let brief = rest.first == "brief"
    if brief || rest.first == "show" { rest = rest.dropFirst() }
    guard let words = PlainWords(rest, options: ["--day"], flags: brief ? [] : ["--json"]),
      words.positionals.isEmpty
    else { return nil }
    if brief {
      var command = Brief()
      command.day = words.options["--day"]
      return command
    }
    var command = Show()
    command.day = words.options["--day"]
    command.json = words.flags.contains("--json")
    return command
  }
}

extension Context {
  /// The calendar day of the command's now, in the person's zone (a morning is a date).
  func calendarToday() -> Day {
    let now = clock.started.seconds
    return Day(ordinal: floorDiv(now + timeZone.localType(at: now).offset, 86400))
  }

  /// The health store: opened (made when `create`), or nil when there is none yet.
  func healthStore(create: Bool) throws -> HealthDatabase? {
    try HealthDatabase.at(HealthDatabase.path(environment: environment), create: create)
  }

  /// Takes in the source folders' new exports, saying each on stderr; the refusals too.
  func takeInHealthSources(_ store: HealthDatabase) throws {
    let (files, refusals) = try HealthImporting.pending(store, files: platform.files)
    for refusal in refusals { output.writeError("nudge: " + refusal + "\n") }
    for file in files {
      let path = file.path
      do {
        let read = try HealthImporting.read(
          path, partial: false, zone: timeZone, preferring: store.preferredSources())
        let result = try TakeHealthExport.run(read.batch, into: store)
        output.writeError(
          "nudge: took in \(VisibleText.escaped(path)): \(read.batch.nights.count) nights, \(result.written) rows new or changed.\n"
        )
        // what an import says besides, said here too (once: the file is not read again)
        for note in read.notes { output.writeError("nudge: " + note + "\n") }
        for (why, count) in read.batch.skipped.sorted(by: { $0.key < $1.key }) {
          output.writeError("nudge: skipped \(count) record\(count == 1 ? "" : "s") with \(why).\n")
        }
      } catch let error as CLIError {
        // said once: the file, as it was seen, is not tried again until it changes (a copy
        // finished)
        output.writeError("nudge: " + error.message + "\n")
        try TakeHealthExport.refused(file, in: store)
      }
    }
  }

  /// The store (nil without one) and the report of the morning `--day` names, the source
  /// folders taken in first: what `nudge health` and its brief read.
  func healthMorning(_ given: String?) throws -> (HealthDatabase?, HealthReport) {
    let day = try healthDay(given)
    let store = try healthStore(create: false)
    if let store { try takeInHealthSources(store) }
    let report =
      try store.map { try healthReport($0, day: day) }
      ?? HealthReport(day: day, nights: [], activity: nil, workouts: [])
    return (store, report)
  }

  /// The report of morning `day` from the store.
  func healthReport(_ store: HealthDatabase, day: Day) throws -> HealthReport {
    let nights = try store.nights(from: day.adding(days: -30), through: day)
    // the day's activity is the last whole day's: the morning's own has barely begun
    let activity = try store.activity(from: day.adding(days: -1), through: day.adding(days: -1))
      .first
    let tonight = nights.first { $0.night.day == day }?.night
    // without a night: the day's noon on this computer's clock
    let noon = day.ordinal * 86400 + 12 * 3600
    let until = tonight?.wake ?? Instant(seconds: noon - timeZone.localType(at: noon).offset)
    let workouts = try store.workouts(
      from: Instant(microseconds: until.microseconds - 86_400_000_000), until: until)
    return HealthReport(day: day, nights: nights, activity: activity, workouts: workouts)
  }

  /// The first line of this morning's brief when last night is known, the source folders
  /// taken in first; nil without a night (or a health store), and nil, said on stderr, when
  /// the store cannot be read: a reminder never fails over health data.
  func morningReadiness() -> String? {
    do {
      guard let store = try healthStore(create: false) else { return nil }
      try takeInHealthSources(store)
      let report = try healthReport(store, day: calendarToday())
      return report.night == nil ? nil : HealthBrief(report).lines[0]
    } catch {
      output.writeError(
        "nudge: last night's health data was not read: \(CLIError.from(error)?.message ?? "\(error)")\n"
      )
      return nil
    }
  }

  /// This morning's brief for the today view: its three lines when last night is known, none
  /// without a health store or a night (nothing taken in: the today view only reads).
  func lastNightBrief() -> [String] {
    guard let store = try? healthStore(create: false),
      let report = try? healthReport(store, day: calendarToday()), report.night != nil
    else { return [] }
    return HealthBrief(report).lines
  }

  /// The nights a watch measured, by morning, as minutes after midnight on the clock each was
  /// recorded with (the sleep plan's challenge reads them); none without a health store.
  func measuredNights(from: Day, through: Day) -> [Day: (bedtime: Int, wake: Int)] {
    guard let store = try? healthStore(create: false),
      let nights = try? store.nights(from: from, through: through)
    else { return [:] }
    func minutes(_ instant: Instant, _ offset: Int) -> Int {
      let local = instant.seconds + offset
      return (local - floorDiv(local, 86400) * 86400) / 60
    }
    var byDay: [Day: (bedtime: Int, wake: Int)] = [:]
    for entry in nights {
      let night = entry.night
      byDay[night.day] = (
        minutes(night.sleepStart, night.sleepStartOffset), minutes(night.wake, night.wakeOffset)
      )
    }
    return byDay
  }

  /// The night a watch measured before the morning of `day`, as HH:MM on the clock it was
  /// recorded with; nil without one (the sleep plan then asks the journal).
  func measuredNight(endingOn day: Day) -> (bedtime: String, wake: String)? {
    guard let store = try? healthStore(create: false),
      let night = try? store.nights(from: day, through: day).first?.night
    else { return nil }
    return (
      HealthJSON.clock(night.sleepStart, offset: night.sleepStartOffset),
      HealthJSON.clock(night.wake, offset: night.wakeOffset)
    )
  }

  /// The morning `--day` names (today by default, never ahead).
  func healthDay(_ given: String?) throws -> Day {
    let today = calendarToday()
    guard let given else { return today }
    guard let day = Day.named(given, today: today, toward: .past), day <= today else {
      throw CLIError(
        "'\(given)' is not a morning up to today: use today, yesterday, a weekday (monday…sunday) or YYYY-MM-DD.",
        code: .usage)
    }
    return day
  }
}

extension HealthCommand {
  /// `nudge health [--day DAY] [--json]`.
  struct Show: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "show", abstract: "Last night and the day, against your baselines (the default)."
    )

    @Option(help: HealthCommand.dayHelp) var day: String?

    @Flag(help: "Print version 1 of the health contract (schemas/health-report.v1.schema.json).")
    var json = false

    func run(_ ctx: Context) throws {
      let (store, report) = try ctx.healthMorning(day)
      let now = ctx.clock.started
      let meta = HealthJSON.Meta(
        generatedAt: now, zone: ctx.timeZone.name,
        offset: ctx.timeZone.localType(at: now.seconds).offset, nudgeVersion: Nudge.version)
      try ctx.render(document: HealthJSON.text(HealthJSON.value(report, meta: meta)), json: json) {
        // (what the store holds is counted only for the text: --json is read by programs)
        guard let holdings = try store?.holdings(), holdings.nights + holdings.days > 0 else {
          for line in HealthCommand.explanation { ctx.wrappedLine(line) }
          return
        }
        HealthView(ctx: ctx).show(report)
      }
    }
  }

  /// `nudge health brief [--day DAY]`: the three lines.
  struct Brief: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "brief", abstract: "Three lines: readiness, the largest changes, a suggestion.")

    @Option(help: HealthCommand.dayHelp) var day: String?

    func run(_ ctx: Context) throws {
      let (_, report) = try ctx.healthMorning(day)
      for line in HealthBrief(report).lines { ctx.line(line) }
    }
  }

  /// `nudge health import FILE [--partial]`.
  struct Import: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "import",
      abstract: "Take in an Apple Health export.zip or export.xml, or Gadgetbridge's database.")

    @Argument(
      help:
        "The export: export.zip as the iPhone makes it, its export.xml, or Gadgetbridge's exported database."
    )
    var file: String

    @Flag(help: "Take the whole records before the point where a file cut short ends.")
    var partial = false

    func run(_ ctx: Context) throws {
      // the same file again is known by its size and modification time, before a byte is parsed
      let store = try ctx.healthStore(create: false)
      if let store, try store.alreadyTaken(try HealthImporting.identity(file)) {
        ctx.line(
          "\(VisibleText.escaped(file)) was taken in already, as it is; nothing was written.")
        return
      }
      // read before the store is made: a refused first import leaves no empty store behind
      let read = try HealthImporting.read(
        file, partial: partial, zone: ctx.timeZone,
        preferring: store?.preferredSources() ?? [])
      guard let target = try store ?? ctx.healthStore(create: true) else { return }
      let result = try TakeHealthExport.run(read.batch, into: target)
      let batch = read.batch
      let span = batch.span.map { " from \($0.lowerBound) to \($0.upperBound)" } ?? ""
      ctx.line(
        "Took in \(VisibleText.escaped(file)): \(read.records) records, \(batch.nights.count) nights and \(batch.days.count) days\(span), \(batch.workouts.count) workout\(batch.workouts.count == 1 ? "" : "s") (\(result.written) rows new or changed, \(result.removed) removed)."
      )
      if let cut = read.cutAt {
        ctx.line(
          "The file ends early, at byte \(cut): only the whole records before it were taken (--partial), and only where Nudge held nothing yet."
        )
      }
      for note in read.notes { ctx.wrappedLine(note) }
      for (why, count) in batch.skipped.sorted(by: { $0.key < $1.key }) {
        ctx.line("Skipped \(count) record\(count == 1 ? "" : "s") with \(why).")
      }
    }
  }

  /// `nudge health forget`: the health store removed whole.
  struct Forget: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "forget", abstract: "Remove every health record Nudge keeps (the file whole).")

    func run(_ ctx: Context) throws {
      let path = HealthDatabase.path(environment: ctx.environment)
      if HealthDatabase.forget(path: path) {
        ctx.line("Removed \(path): Nudge keeps no health data now.")
      } else {
        ctx.line("Nudge keeps no health data (there is no \(path)).")
      }
    }
  }
}
