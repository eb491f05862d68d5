import NudgeCore
import NudgeStore

/// Tonight's challenge a flow with a `challenge` question offers: chosen by the plan's rules
/// (`SleepCoach`) over the flow's last seven entries, never yesterday's when another will do.
/// A night a watch measured gives its bedtime and wake in place of the ones typed (how rested
/// stays what was answered, or 3 of 5 — neither rested nor tired — when nothing was).
struct ChallengeOffer {
  let plan: Plan
  /// The flow's challenge question; nil for a flow that only shows the one taken today.
  let question: Question?
  let nights: [SleepCoach.Night]
  let yesterday: String?
  /// The challenge taken today by another of the plan's flows (the evening's, say): its name.
  let taken: String?

  /// The offer of `flow` on `day`; nil when its plan has no challenges. A flow without a
  /// challenge question of its own still learns the one taken today.
  init?(
    plan: Plan, flow: FlowDefinition, db: AppDatabase, day: Day,
    measured: [Day: (bedtime: Int, wake: Int)] = [:]
  ) throws {
    guard !plan.challenges.isEmpty else { return nil }
    let asking = flow.challengeQuestion
    let takenID = try db.answeredEntries(from: day, through: day).lazy.compactMap { entry in
      plan.flows.first { $0.word == entry.flow && $0.word != flow.word }?
        .takenChallenge(in: entry.answers)
    }.first
    let recent = try db.answeredEntries(
      flow: flow.word, from: day.adding(days: -7), through: day.adding(days: -1))
    var byDay: [Day: SleepCoach.Night] = [:]
    for entry in recent { byDay[entry.day] = SleepCoach.Night(answers: entry.answers) }
    for (morning, times) in measured where morning < day && morning >= day.adding(days: -7) {
      byDay[morning] = SleepCoach.Night(
        bedtime: times.bedtime, wake: times.wake, rested: byDay[morning]?.rested ?? 3)
    }
    let nights = byDay.keys.sorted().map { byDay[$0]! }
    self.nights = nights
    taken = takenID.flatMap { id in plan.challenges.first { $0.id == id } }.map {
      VisibleText.escaped(
        $0.name.replacing("{bedtime}", with: SleepCoach.suggestedBedtime(nights)))
    }
    guard asking != nil || taken != nil else { return nil }
    self.plan = plan
    question = asking
    yesterday = asking.flatMap { asking in
      recent.last { $0.day == day.adding(days: -1) }?.answers[asking.id]
    }
  }

  /// The rules' choice, `declining` those asked to be passed over.
  func pick(declining: Set<String>) -> SleepCoach.Pick? {
    guard question != nil else { return nil }
    return SleepCoach.pick(
      nights: nights, catalogue: plan.challenges, yesterday: yesterday, declined: declining)
  }

  /// The first choice, as a set to decline (`--another`).
  var firstPick: Set<String> { pick(declining: []).map { [$0.challenge.id] } ?? [] }

  func show(_ pick: SleepCoach.Pick, _ ctx: Context) {
    ctx.wrappedLine(
      "Tonight's challenge: " + ctx.style.cyan(VisibleText.escaped(pick.challenge.name)) + " — "
        + VisibleText.escaped(pick.reason))
    ctx.wrappedLine(
      "  " + VisibleText.escaped(pick.challenge.about), indent: 2, style: ctx.style.dim)
  }
}
