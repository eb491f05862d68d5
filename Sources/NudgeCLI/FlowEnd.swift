import ArgumentParser
import NudgeCore
import NudgeStore

/// The flags every flow takes.
struct FlowOptions: ParsableArguments {
  @Flag(help: "Do not ask; save only what the flags say.")
  var noInput = false

  @Flag(help: "Print one line instead of the celebration animation.")
  var noAnimation = false

  @Flag(help: "Print the saved entry as JSON.")
  var json = false

  @Option(
    help: "Fill in a past day you forgot: yesterday or YYYY-MM-DD, at most 7 days back.",
    completion: .list(["yesterday"]))
  var day: String?
}

/// The day a flow saves to and when: today, or a past day filled in with `--day`.
struct FlowDay {
  var day: Day
  /// When it is saved, ISO 8601 with the offset in effect now.
  var savedAt: String
  /// A past day filled in: it earns what it earns, but no celebration.
  var isPast: Bool
}

extension Context {
  /// The reward draw of this run (`NUDGE_SEED`, else random per run).
  var reward: RewardDraw { RewardDraw(seed: rewardSeed) }

  /// The day `at` belongs to (after the rollover hour) and the time stamp of a save then.
  func today(_ settings: Settings, at instant: Instant? = nil) -> (day: Day, savedAt: String) {
    let at = instant ?? now
    return (settings.dayRule.day(of: at, in: timeZone), InstantFormat.format(at, in: timeZone))
  }

  /// The day a flow saves to: today, or `--day` (yesterday or YYYY-MM-DD, at most 7 days back).
  func flowDay(_ settings: Settings, _ options: FlowOptions) throws -> FlowDay {
    let (today, savedAt) = self.today(settings)
    guard let given = options.day else {
      return FlowDay(day: today, savedAt: savedAt, isPast: false)
    }
    let first = today.adding(days: -7)
    let day: Day? =
      switch given.lowercased() {
      case "today": today
      case "yesterday": today.adding(days: -1)
      default: Day(given)
      }
    guard let day, day >= first, day <= today else {
      throw CLIError(
        "--day '\(given)' is not a day from \(first) to \(today): use yesterday or YYYY-MM-DD, at most 7 days back.",
        code: .usage)
    }
    return FlowDay(day: day, savedAt: savedAt, isPast: day < today)
  }

  /// The end prep, review and check-in share: `apply` merged into the day's entry must count
  /// (else `refusal`, exit 64, nothing saved); the save, its awards and its celebration are one
  /// write; then `--json` prints the entry, or `summary` says what was saved (its argument:
  /// "saved" or "updated") and the celebration plays.
  func finish<Entry: DayRecord>(
    _ db: AppDatabase, _ flowDay: FlowDay, existing: Entry?, options: FlowOptions,
    refusal: String, _ apply: (inout Entry) -> Void, summary: (Entry, _ verb: String) -> Void
  ) throws {
    var preview = existing ?? .blank(day: flowDay.day, savedAt: flowDay.savedAt)
    apply(&preview)
    guard preview.counts else { throw CLIError(refusal, code: .usage) }
    let completed = try db.complete(
      day: flowDay.day, savedAt: flowDay.savedAt, reward: reward(flowDay, options), apply)
    if options.json {
      line(try jsonText(completed.entry))
      return
    }
    summary(completed.entry, completed.updated ? "updated" : "saved")
    celebrate(completed, flowDay, options)
  }

  /// The draw a flow's save asks for: none for `--json` or a past day filled in.
  func reward(_ flowDay: FlowDay, _ options: FlowOptions) -> RewardDraw? {
    options.json || flowDay.isPast ? nil : reward
  }

  /// Plays what a finished flow earned; a day filled in afterwards gets no celebration, only
  /// what it earned, in one plain line.
  func celebrate<Entry>(
    _ completed: AppDatabase.Completed<Entry>, _ flowDay: FlowDay, _ options: FlowOptions
  ) {
    if flowDay.isPast {
      let titles = completed.newAchievements.map(\.title).joined(separator: ", ")
      line(
        "Filled in \(flowDay.day.long); your streak and achievements are recomputed."
          + (titles.isEmpty ? "" : " Earned: \(titles)."))
      return
    }
    guard let drawn = completed.celebration else { return }
    CelebrationView(ctx: self, noAnimation: options.noAnimation).play(
      drawn.celebration, seed: reward.animationSeed(drawn.number))
  }
}
