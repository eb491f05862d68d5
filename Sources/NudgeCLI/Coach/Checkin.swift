import ArgumentParser
import NudgeCore

/// `nudge checkin`: the end-of-day check-in on today's swap.
struct CheckinCommand: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "checkin",
    abstract: "End-of-day check-in: did the swap happen, how it felt, what got in the way.")

  @Option(help: ArgumentHelp("Did you follow your swap? yes|no", valueName: "yes|no"))
  var followed: YesNo?

  @Option(help: ArgumentHelp("How you feel about it.", valueName: "text"))
  var feel: String?

  @Option(help: ArgumentHelp("What got in the way.", valueName: "text"))
  var blocker: String?

  @OptionGroup var options: FlowOptions

  func run(_ ctx: Context) throws {
    var followedAnswer = followed?.value
    var feelText = try flagText(feel, "--feel")
    var blockerText = try flagText(blocker, "--blocker")
    // off a terminal, before the database is opened (or made): the example that works on any
    // day, since `--followed` is taken only on a day with a swap
    let interactive = try ctx.isInteractive(
      noInput: options.noInput,
      hasAnswers: followedAnswer != nil || feelText != nil || blockerText != nil,
      example: Self.exampleWithoutSwap)
    let db = try ctx.openDatabase()
    let flowDay = try ctx.flowDay(db, options)
    let existing = try db.checkin(on: flowDay.day)
    let focus = try db.review(on: flowDay.day)
    // the swap is asked about only when one was set that day, and can't be answered otherwise
    let hasSwap = focus?.swap != nil || focus?.commitTo != nil
    let example = hasSwap ? Self.example : Self.exampleWithoutSwap
    if followedAnswer != nil && !hasSwap {
      throw CLIError(Self.noSwapToFollow(flowDay, focus: focus != nil), code: .usage)
    }
    if interactive {
      let style = ctx.style
      let kept = try DraftAnswers.start(ctx, db, .checkin, flowDay)
      let ask = kept.prompter
      // a past day is named once, here; the rest says "that morning", "that day"
      ctx.wrappedLine([
        ("End-of-day check-in", style.bold),
        (flowDay.isPast ? "  (\(flowDay.activity))" : "", style.dim),
      ])
      if let commitment = focus?.shown.commitment(on: flowDay, saying: "I will") {
        ctx.wrappedLine([("\(flowDay.morning): ", { $0 }), (commitment, style.cyan)])
      } else if let swap = focus?.shown.swap {
        ctx.wrappedLine([("\(flowDay.morning): your swap was ", { $0 }), (swap, style.cyan)])
      }
      if hasSwap {
        if followedAnswer == nil {
          let question = CoachPlan.ask(.checkin, "followed", pastDay: flowDay.isPast)
          followedAnswer = try kept.yesNo("followed", question) {
            try ask.yesNo(question, current: existing?.followed)
          }
        }
        if feel == nil {
          let question = CoachPlan.ask(
            .checkin, "feel", after: Self.answered(followedAnswer), pastDay: flowDay.isPast)
          feelText = try kept.text("feel", question) {
            try ask.text(question, current: existing?.feel)
          }
        }
      } else if feel == nil {
        ctx.wrappedLine(
          "No Morning Focus \(flowDay.isPast ? "that day" : "today"), so there is no swap to check.",
          style: style.dim)
        let question = CoachPlan.ask(.checkin, "feel", pastDay: flowDay.isPast)
        feelText = try kept.text("feel", question) {
          try ask.text(question, current: existing?.feel, required: existing?.feel == nil)
        }
      }
      if blocker == nil {
        let question = CoachPlan.ask(
          .checkin, "blocker", after: Self.answered(followedAnswer), pastDay: flowDay.isPast)
        blockerText = try kept.text("blocker", question) {
          try ask.text(question, current: existing?.blocker)
        }
      }
    }
    try ctx.finish(
      db, flowDay, existing: existing, options: options, interactive: interactive,
      refusal:
        "nothing to save: a check-in counts with an answer, e.g. \(flowDay.pasteable(example))"
        + (hasSwap ? " (or --feel TEXT alone)." : ".")
    ) { [followedAnswer, feelText, blockerText] (entry: inout CheckinEntry) in
      if let followedAnswer { entry.followed = followedAnswer }
      if interactive || feel != nil { entry.feel = feelText }
      if interactive || blocker != nil { entry.blocker = blockerText }
    } summary: { saved, verb in
      ctx.line(
        ctx.style.green("✓") + " Check-in \(verb)"
          + (flowDay.isPast ? " for \(flowDay.day.long)." : "."))
      let when = flowDay.isPast ? "that day" : "today"
      switch saved.followed {
      case true?: ctx.line("You followed your swap \(when). That is how habits change.")
      case false?:
        ctx.line(
          "Noticing what got in the way is progress too."
            + (flowDay.isPast ? "" : " Tomorrow is a fresh try."))
      case nil: ctx.line("Thanks for checking in. Noticing how a day went is how change starts.")
      }
    }
  }

  /// Why `--followed` is refused on a day without a swap, and what to do instead.
  static func noSwapToFollow(_ flowDay: FlowDay, focus: Bool) -> String {
    let when = flowDay.isPast ? "on \(flowDay.day.long)" : "today"
    // a day past the backfill window takes a Morning Focus only through an edit of one it has
    let late = flowDay.day < flowDay.today.adding(days: -FlowDay.backfillDays)
    let review =
      late
      ? (focus ? "nudge edit \(flowDay.day) review" : nil)
      : flowDay.isPast ? "nudge review --day \(flowDay.day)" : "nudge review"
    let why =
      focus ? "the Morning Focus \(when) set no swap" : "no Morning Focus \(when)"
    return
      "\(why), so there is no swap to follow: answer the other questions (--feel, --blocker)"
      + (review.map { ", or do '\($0)' first." } ?? ".")
  }

  /// What Nudge prints as a working example on a day with a swap.
  /// The answers so far the check-in's later questions are worded by: whether the swap was
  /// followed.
  static func answered(_ followed: Bool?) -> [String: String] {
    followed.map { ["followed": $0 ? "yes" : "no"] } ?? [:]
  }

  static let example = "nudge checkin --followed yes --feel proud --no-input"

  /// The working example on a day without a swap (`--followed` is refused there).
  static let exampleWithoutSwap = "nudge checkin --feel proud --no-input"
}
