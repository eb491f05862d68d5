import ArgumentParser
import FoundationEssentials
import NudgeCore
import NudgeUseCases

/// `nudge need-help`: pick what kind of craving it is, get a mini-coach, save a tagged note.
struct NeedHelpCommand: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "need-help",
    abstract:
      "A craving right now? A short mini-coach (stress: a 2-minute breathing timer), then a note for later."
  )

  @Option(
    help: ArgumentHelp(
      "What kind of craving it is.",
      valueName: HelpCategory.allCases.map(\.rawValue).joined(separator: "|")),
  )
  var category: HelpCategory?

  @Option(help: ArgumentHelp("A note to keep with it.", valueName: "text"))
  var note: String?

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Seconds of guided breathing (stress); the timer can be skipped with Enter.",
      valueName: "seconds"))
  var breathingSeconds: Int = 120

  @OptionGroup var options: FlowOptions

  func validate() throws {
    guard (5...600).contains(breathingSeconds) else {
      throw outOfRange("--breathing-seconds", breathingSeconds, 5...600, unit: "seconds")
    }
  }

  func run(_ ctx: Context) throws {
    var picked = category
    var noteText = try flagText(note, "--note")
    let interactive = try ctx.isInteractive(
      noInput: options.noInput, hasAnswers: picked != nil || noteText != nil,
      example: Self.example)
    if !interactive && picked == nil {
      let names = HelpCategory.allCases.map(\.rawValue).joined(separator: "|")
      throw CLIError(
        "--category \(names) is needed without prompts, e.g. \(Self.example)", code: .usage)
    }
    let db = try ctx.openDatabase()
    let flowDay = try ctx.flowDay(db, options)
    var coach: String? = nil
    if interactive {
      let kept = try DraftAnswers.start(ctx, db, .needHelp, flowDay)
      let ask = kept.prompter
      ctx.line(
        ctx.style.bold("I need help") + ctx.style.dim("  (asking is a win)")
          + (flowDay.isPast ? ctx.style.dim("  (noting it for \(flowDay.day.long))") : ""))
      let chosen: HelpCategory
      if let picked {
        chosen = picked
      } else {
        let question = CoachPlan.ask(.needHelp, "category", pastDay: flowDay.isPast)
        chosen = try kept.choice("category", question, title: \.label) {
          try ask.choose(
            question, options: HelpCategory.allCases, key: \.rawValue, label: \.label)
        }
      }
      picked = chosen
      let coached = try MiniCoach(
        ctx: ctx, kept: kept, breathingSeconds: breathingSeconds, pastDay: flowDay.isPast
      ).run(
        chosen, note: noteText)
      coach = coached.coach
      noteText = coached.note
    }
    let note = HelpNote(
      id: ctx.makeID(), day: flowDay.day, category: picked!, note: noteText, coach: coach,
      at: flowDay.savedAt)
    // the first capture of a day is celebrated; later ones get a quiet acknowledgement
    let firstToday = !(try db.isDone(.needHelp, on: flowDay.day))
    let freezesBefore = options.json ? nil : try ctx.freezesHeld(db, flowDay)
    let completed = try FinishFlow(db: db)(
      note, madeOn: flowDay.today, removingDraft: interactive,
      reward: firstToday ? ctx.reward(flowDay, options) : nil)
    try ctx.render(note, json: options.json) {
      let week = try db.helpNotes(from: flowDay.day.adding(days: -6), through: flowDay.day)
      ctx.line(
        ctx.style.green("✓")
          + " Noted (\(note.category.label.lowercased()))"
          + (flowDay.isPast ? " for \(flowDay.day.long)." : ". Asking for help counts."))
      if let pattern = HelpPattern.line(notes: week, today: flowDay.day, latest: note.category) {
        ctx.line(ctx.style.dim(pattern))
      }
      try ctx.finished(db, completed, flowDay, options, freezesBefore: freezesBefore)
    }
  }

  /// What Nudge prints as a working example.
  static let example = "nudge need-help --category stress --note 'long meeting' --no-input"
}
