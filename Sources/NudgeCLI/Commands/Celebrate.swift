import ArgumentParser
import FoundationEssentials
import NudgeCore
import NudgeStore

/// `nudge celebrate [KEY]`: replays a celebration (the notification's deep link uses it).
struct CelebrateCommand: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "celebrate", abstract: "Replay a celebration, or an earned achievement's.")

  @Argument(
    help:
      "An earned achievement, by key or title (see 'nudge achievements'). Without one, the latest celebration is replayed.",
  )
  var achievement: Achievement?

  @Option(
    help: ArgumentHelp(
      "The size of the celebration.",
      valueName: CelebrationTier.allCases.map(\.rawValue).joined(separator: "|")),
  )
  var tier: CelebrationTier?

  @Flag(help: "Print one line instead of the animation.")
  var noAnimation = false

  @Option(
    help: ArgumentHelp(
      "Replay the stored celebration with this number (a celebration notification's).",
      valueName: "number"))
  var replay: UInt64?

  /// A stored celebration as it is true now: an achievement taken back since (`undo`,
  /// `delete`) is not announced again.
  static func asTrueNow(_ celebration: Celebration, _ db: AppDatabase) throws -> Celebration {
    var replayed = celebration
    let earned = try db.achievements()
    replayed.achievements = celebration.achievements.filter { earned[$0] != nil }
    return replayed
  }

  func run(_ ctx: Context) throws {
    if replay == nil && tier == nil {
      let db = try ctx.openDatabase()
      if !(try db.settings().celebrationsOn) {
        ctx.line(
          "Celebrations are off, so there is nothing to replay. Turn them on with: nudge config set celebrations on"
        )
        return
      }
    }
    if let replay {
      let db = try ctx.openDatabase()
      guard let stored = try db.lastCelebration(), stored.number == replay
      else {
        throw CLIError(
          "celebration \(replay) is no longer stored (only the latest is kept); run 'nudge celebrate' for a new one.",
          code: .failure)
      }
      try CelebrationView(ctx: ctx, noAnimation: noAnimation).play(
        try Self.asTrueNow(stored.celebration, db), seed: ctx.reward.animationSeed(stored.number))
      return
    }
    let chosenTier = tier
    var earnedOn: Day? = nil
    if let achievement {
      let db = try ctx.openDatabase()
      if case .firstOf(let word) = achievement, case let plans = try ctx.plans(db),
        plans.flow(word) == nil
      {
        let firsts = plans.catalogue.entries.flatMap(\.plan.flows)
          .filter { !Nudge.commandWords.contains($0.word) }.map { "first-" + $0.word }
        throw CLIError(
          "'\(achievement.rawValue)' is the first of no flow a plan defines; the plans' firsts are \(firsts.joined(separator: ", ")) (see 'nudge achievements').",
          code: .usage)
      }
      guard let day = try db.achievements()[achievement] else {
        ctx.line(
          "\(ctx.achievementTitle(achievement)) is not earned yet: \(achievement.requirement)")
        throw CLIError(
          "'\(achievement.rawValue)' is locked; nothing to replay yet.", code: .failure)
      }
      earnedOn = day
    } else if chosenTier == nil {
      // plain `nudge celebrate`: the latest celebration, as it was drawn
      let db = try ctx.openDatabase()
      guard let stored = try db.lastCelebration() else {
        ctx.line(
          "Nothing to celebrate yet: finish a flow first ('nudge prep', 'nudge review', 'nudge checkin' or 'nudge need-help')."
        )
        return
      }
      try CelebrationView(ctx: ctx, noAnimation: noAnimation).play(
        try Self.asTrueNow(stored.celebration, db), seed: ctx.reward.animationSeed(stored.number))
      return
    }
    var rng = SplitMix64(seed: ctx.rewardSeed)
    var celebration = RewardPicker.draw(
      using: &rng, newAchievements: achievement.map { [$0] } ?? [])
    if let chosenTier {
      celebration.tier = chosenTier
      celebration.message =
        chosenTier.messages[Int.random(in: 0..<chosenTier.messages.count, using: &rng)]
    }
    try CelebrationView(ctx: ctx, noAnimation: noAnimation).play(
      celebration, seed: ctx.rewardSeed, earnedOn: earnedOn)
  }
}
