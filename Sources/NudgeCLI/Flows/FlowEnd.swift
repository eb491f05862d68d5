import ArgumentParser
import NudgeCore
import NudgeStore
import NudgeUseCases

/// The flags every flow takes.
struct FlowOptions: ParsableArguments {
  @Flag(help: "Do not ask; save only what the flags say.")
  var noInput = false

  @Flag(help: "Print one line instead of the celebration animation.")
  var noAnimation = false

  @Flag(help: "Print the saved entry as JSON.")
  var json = false

  @Option(
    help: ArgumentHelp(
      "Fill in a past day you forgot: yesterday, a weekday (monday to sunday: the latest one) or YYYY-MM-DD, at most 7 days back.",
      valueName: "day"),
    completion: .list(["yesterday", "today"]))
  var day: String?

  /// Set by `nudge edit`: any past day that has an entry may be changed.
  @Flag(help: .hidden)
  var editing = false
}

/// The day a flow saves to and when: today, or a past day filled in with `--day`.
struct FlowDay {
  var day: Day
  /// When it is saved, ISO 8601 with the offset in effect now.
  var savedAt: String
  /// The day it is now (after the rollover hour): the day the change is made on.
  var today: Day
  /// A change of an entry through `nudge edit`.
  var editing = false

  /// A past day filled in: it earns what it earns, but no celebration.
  var isPast: Bool { day < today }

  /// "today", "yesterday" or "Wednesday 18 November": the day a prompt or message is about.
  var name: String {
    day == today ? "today" : day == today.adding(days: -1) ? "yesterday" : day.long
  }

  /// "Today" / "Yesterday" / "On Wednesday 18 November", to start a sentence.
  var sentenceStart: String {
    day == today ? "Today" : day == today.adding(days: -1) ? "Yesterday" : "On \(day.long)"
  }

  /// An example command (`nudge FLOW … --no-input`) for this day, as it works when pasted:
  /// with `--day` for a past day, through `nudge edit` for an edit.
  func pasteable(_ example: String) -> String {
    let words = example.split(separator: " ", maxSplits: 2).map(String.init)
    if editing && words.count == 3 { return "nudge edit \(day) \(words[1]) \(words[2])" }
    guard isPast else { return example }
    return example.replacing(" --no-input", with: " --day \(day) --no-input")
  }

  /// The command that runs `flow` again for this day (and so resumes its draft): `nudge
  /// edit DAY FLOW` for an edit, `--day` for a past day (`--day yesterday` for yesterday).
  func resumeCommand(_ flow: Flow) -> String {
    let command = "nudge \(flow.rawValue)"
    if editing { return "nudge edit \(day) \(flow.rawValue)" }
    guard isPast else { return command }
    return command + " --day " + (day == today.adding(days: -1) ? "yesterday" : day.description)
  }

  /// What a flow on a past day is doing there: "editing" or "filling in".
  var activity: String { editing ? "editing \(day.long)" : "filling in \(day.long)" }

  /// "This morning" / "That morning" (a past day's flow names its day once, in its heading).
  var morning: String { isPast ? "That morning" : "This morning" }
}

extension Context {
  /// The reward draw of this run (`NUDGE_SEED`, else random per run).
  var reward: RewardDraw { RewardDraw(seed: rewardSeed) }

  /// The day `at` belongs to (after the rollover hour) and the time stamp of a save then.
  func today(_ settings: Settings, at instant: Instant? = nil) -> (day: Day, savedAt: String) {
    let at = instant ?? clock.started
    return (settings.dayRule.day(of: at, in: timeZone), InstantFormat.format(at, in: timeZone))
  }

  /// The day a flow saves to: today, or `--day` (yesterday or YYYY-MM-DD, at most 7 days back;
  /// `nudge edit` reaches further back, to a day that already counts).
  func flowDay(_ db: AppDatabase, _ options: FlowOptions) throws -> FlowDay {
    let (today, savedAt) = self.today(try db.settings())
    guard let given = options.day else {
      return FlowDay(day: today, savedAt: savedAt, today: today, editing: options.editing)
    }
    let first = today.adding(days: -FlowDay.backfillDays)
    let day = Day.named(given, today: today, toward: .past)
    guard let day, day <= today else {
      throw CLIError(
        "'\(given)' is not a day from \(first) to \(today): use today, yesterday, a weekday (monday…sunday) or YYYY-MM-DD."
          + (day == nil ? Suggestion.hint(for: given, among: Day.dayWords) : ""),
        code: .usage)
    }
    let editable = options.editing ? try db.doneDays().contains(day) : false
    if day < first && !editable {
      throw CLIError(
        "\(day.long) \(day.year) is more than \(FlowDay.backfillDays) days back: a day can be filled in back to \(first); an older day's entries can be changed with 'nudge edit DAY FLOW' when it has them.",
        code: .usage)
    }
    return FlowDay(day: day, savedAt: savedAt, today: today, editing: options.editing)
  }

  /// The end prep, review and check-in share: `apply` merged into the day's entry must count
  /// (else `refusal`, exit 64, nothing saved; asked interactively, `interactiveRefusal` is
  /// said instead and the run ends without a save); the save, its awards and its celebration
  /// are one write; then `--json` prints the entry, or `summary` says what was saved (its
  /// argument: "saved", "updated" or "edited") and the celebration plays.
  func finish<Entry: DayRecord>(
    _ db: AppDatabase, _ flowDay: FlowDay, existing: Entry?, options: FlowOptions,
    interactive: Bool, refusal: String, interactiveRefusal: String? = nil,
    _ apply: (inout Entry) -> Void,
    summary: (Entry, _ verb: String) -> Void
  ) throws {
    var preview = existing ?? .blank(day: flowDay.day, savedAt: flowDay.savedAt)
    apply(&preview)
    guard preview.counts else {
      if let interactiveRefusal {
        try Drafts(db: db).remove(Entry.flow, on: flowDay.day)
        line(interactiveRefusal)
        return
      }
      throw CLIError(refusal, code: .usage)
    }
    let freezesBefore = options.json ? nil : try freezesHeld(db, flowDay)
    let completed = try FinishFlow(db: db)(
      day: flowDay.day, savedAt: flowDay.savedAt, madeOn: flowDay.today,
      editing: flowDay.editing, removingDraft: interactive, reward: reward(flowDay, options), apply)
    if let replaced = db.takeReplacedNotice() { output.writeError("nudge: \(replaced)\n") }
    try render(completed.entry, json: options.json) {
      let verb = flowDay.editing ? "edited" : completed.updated ? "updated" : "saved"
      summary(completed.entry, verb)
      try finished(db, completed, flowDay, options, freezesBefore: freezesBefore)
    }
  }

  /// Streak freezes held as of the flow's day (before a save, to see whether it earned one).
  func freezesHeld(_ db: AppDatabase, _ flowDay: FlowDay) throws -> Int {
    try streak(db, today: flowDay.today).freezesHeld
  }

  /// The streak as of `today`, days off (`nudge pause`) included.
  func streak(_ db: AppDatabase, today: Day) throws -> StreakSummary {
    try db.streakDays(today: today).summary(today: today)
  }

  /// What every finished flow says after its summary: which day a save before the rollover
  /// hour counts for, a streak freeze it earned, achievements it took away, then the
  /// celebration.
  func finished<Entry>(
    _ db: AppDatabase, _ completed: FinishFlow.Finished<Entry>, _ flowDay: FlowDay,
    _ options: FlowOptions, freezesBefore: Int?
  ) throws {
    let style = self.style
    let settings = try db.settings()
    let local = LocalTime(clock.started, in: timeZone)
    if !flowDay.isPast && local.hour < settings.rolloverHour {
      line(
        style.dim(
          "It counts for \(flowDay.day.long): until \(zeroPadded(settings.rolloverHour, 2)):00 a day still belongs to the evening before."
        ))
    }
    if let freezesBefore {
      let held = try freezesHeld(db, flowDay)
      if held > freezesBefore {
        // a day filled in can also give back a freeze that had covered it
        line(
          flowDay.isPast
            ? "❄ Streak freezes held now: \(held)/\(StreakRule.maxFreezes)."
            : "❄ You earned a streak freeze (\(held)/\(StreakRule.maxFreezes) held): it covers a missed day, so one day off will not break your streak."
        )
      }
    }
    for lost in completed.lostAchievements {
      line(
        style.yellow(
          "Achievement removed: \(achievementTitle(lost)) (its condition no longer holds)."))
    }
    try celebrate(completed, flowDay, options)
  }

  /// The draw a flow's save asks for: none for `--json`, a past day filled in or an edit.
  func reward(_ flowDay: FlowDay, _ options: FlowOptions) -> RewardDraw? {
    options.json || flowDay.isPast || flowDay.editing ? nil : reward
  }

  /// Plays what a finished flow earned; a day filled in afterwards gets no celebration, only
  /// what it earned, in one plain line.
  func celebrate<Entry>(
    _ completed: FinishFlow.Finished<Entry>, _ flowDay: FlowDay, _ options: FlowOptions
  ) throws {
    if flowDay.isPast || flowDay.editing {
      let titles = completed.newAchievements.map(achievementTitle).joined(separator: ", ")
      let what =
        flowDay.editing
        ? "Edited \(flowDay.name)"
        : completed.updated ? "Updated \(flowDay.day.long)" : "Filled in \(flowDay.day.long)"
      line(
        "\(what); your streak and achievements are recomputed."
          + (titles.isEmpty ? "" : " Earned: \(titles)."))
      return
    }
    guard let drawn = completed.celebration else { return }
    try CelebrationView(ctx: self, noAnimation: options.noAnimation).play(
      drawn.celebration, seed: reward.animationSeed(drawn.number))
  }
}

extension FlowDay {
  /// How far back a day can be filled in (a new done day).
  static let backfillDays = 7
}
