import ArgumentParser
import NudgeCore

/// `nudge checkin`: the end-of-day check-in on today's swap.
struct CheckinCommand: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "checkin",
    abstract: "End-of-day check-in: did the swap happen, how it felt, what got in the way.")

  @Option(help: "Did you follow your swap? yes|no")
  var followed: YesNo?

  @Option(help: "How you feel about it.")
  var feel: String?

  @Option(help: "What got in the way.")
  var blocker: String?

  @OptionGroup var options: FlowOptions

  func run(_ ctx: Context) throws {
    var followedAnswer = followed?.value
    var feelText = try flagText(feel, "--feel")
    var blockerText = try flagText(blocker, "--blocker")
    let interactive = try ctx.isInteractive(
      noInput: options.noInput,
      hasAnswers: followedAnswer != nil || feelText != nil || blockerText != nil,
      example: "nudge checkin --followed yes --feel proud --no-input")
    let db = try ctx.openDatabase()
    let flowDay = try ctx.flowDay(try db.settings(), options)
    let existing = try db.checkin(on: flowDay.day)
    if interactive {
      let style = ctx.style
      let ask = Prompter(ctx: ctx)
      ctx.line(style.bold("End-of-day check-in"))
      let focus = try db.review(on: flowDay.day)
      if let commitment = focus?.commitment {
        ctx.line("This morning: " + style.cyan(commitment))
      }
      if followedAnswer == nil {
        followedAnswer = try ask.yesNo("Did you follow your swap?", current: existing?.followed)
      }
      if feel == nil {
        feelText = try ask.text("How do you feel about it?", current: existing?.feel)
      }
      if blocker == nil {
        blockerText = try ask.text(
          followedAnswer == true ? "Anything that made it hard?" : "What got in the way?",
          current: existing?.blocker)
      }
    }
    try ctx.finish(
      db, flowDay, existing: existing, options: options,
      refusal:
        "nothing to save: a check-in counts with its answer. Add --followed yes or --followed no."
    ) { [followedAnswer, feelText, blockerText] (entry: inout CheckinEntry) in
      if let followedAnswer { entry.followed = followedAnswer }
      if interactive || feel != nil { entry.feel = feelText }
      if interactive || blocker != nil { entry.blocker = blockerText }
    } summary: { saved, verb in
      ctx.line(ctx.style.green("✓") + " Check-in \(verb).")
      switch saved.followed {
      case true?: ctx.line("You followed your swap today. That is how habits change.")
      case false?:
        ctx.line("Noticing what got in the way is progress too. Tomorrow is a fresh try.")
      case nil: break
      }
    }
  }
}
