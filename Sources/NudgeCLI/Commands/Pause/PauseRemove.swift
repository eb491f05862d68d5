import ArgumentParser
import NudgeCore
import NudgeUseCases

extension PauseCommand {
  /// `nudge pause remove N`: takes a pause back whole.
  struct Remove: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "remove",
      abstract: "Take a pause back whole: its days count as any others again.",
      discussion:
        "N is the number 'nudge pause list' shows (1: the latest), or a day the pause covers (YYYY-MM-DD). The streak and achievements are worked out again without it; 'nudge undo' puts it back."
    )

    @Argument(help: ArgumentHelp("The pause's number in 'nudge pause list', or a day it covers."))
    var pause: String

    @Flag(help: "Print what was removed as JSON.")
    var json = false

    struct Report: Encodable {
      var removed: Pause
      var newAchievements: [Achievement]
      var lostAchievements: [Achievement]
    }

    func run(_ ctx: Context) throws {
      let db = try ctx.openDatabase()
      let today = ctx.today(try db.settings()).day
      let pauses = try PauseCommand.numbered(db)
      let word = pause.trimmingSpaces
      let chosen: Pause
      if word.count <= 6, word.allSatisfy({ ("0"..."9").contains($0) }), let n = Int(word) {
        guard (1...max(pauses.count, 1)).contains(n), !pauses.isEmpty else {
          throw CLIError(
            pauses.isEmpty
              ? "there is no pause to remove."
              : "there is no pause \(n): 'nudge pause list' numbers them 1 to \(pauses.count).",
            code: .failure)
        }
        chosen = pauses[n - 1]
      } else if let day = Day.named(word, today: today, toward: .past),
        word.contains("-") || ["today", "yesterday", "tomorrow"].contains(word.lowercased())
      {
        guard let covering = pauses.first(where: { $0.contains(day) }) else {
          throw CLIError("no pause covers \(day): see them with nudge pause list.", code: .failure)
        }
        chosen = covering
      } else {
        throw CLIError(
          "'\(VisibleText.escaped(pause))' is not a pause: give its number in 'nudge pause list' or a day it covers (YYYY-MM-DD).",
          code: .usage)
      }
      let at = InstantFormat.format(ctx.clock.started, in: ctx.timeZone)
      guard let settled = try PauseDays(db: db).remove(chosen, today: today, at: at) else {
        throw CLIError("that pause changed meanwhile: see nudge pause list.", code: .failure)
      }
      try ctx.render(
        Report(
          removed: chosen, newAchievements: settled.new, lostAchievements: settled.lost), json: json
      ) {
        ctx.line(
          ctx.style.green("✓")
            + " Removed the pause \(PauseCommand.range(chosen.firstDay, chosen.lastDay)): those days count as any others again."
        )
        PauseCommand.sayAchievements(ctx, settled, streak: try ctx.streak(db, today: today))
        ctx.line(ctx.style.dim("A mistake? 'nudge undo' puts it back."))
      }
    }
  }
}
