import ArgumentParser
import NudgeCore

/// `nudge prep`: Prep Tonight, the checklist for tomorrow.
struct PrepCommand: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "prep",
    abstract: "Prep tonight (for tomorrow): a 30-second checklist.",
    discussion: "Items: \(PrepItem.allCases.map(\.rawValue).joined(separator: ", ")).")

  @Option(
    name: .customLong("item"),
    help: ArgumentHelp("An item and whether it is done: ITEM=yes|no.", valueName: "item=yes|no"))
  var items: [PrepAnswer] = []

  @Option(help: ArgumentHelp("Anything else you prepped.", valueName: "text"))
  var other: String?

  @OptionGroup var options: FlowOptions

  func run(_ ctx: Context) throws {
    var answers = Dictionary(items.map { ($0.item, $0.ready) }) { _, last in last }
    var otherText = try flagText(other, "--other")
    let interactive = try ctx.isInteractive(
      noInput: options.noInput, hasAnswers: !answers.isEmpty || otherText != nil,
      example: Self.example)
    let db = try ctx.openDatabase()
    let flowDay = try ctx.flowDay(db, options)
    let existing = try db.prep(on: flowDay.day)
    var allPrepped = false
    if interactive {
      let kept = try DraftAnswers.start(ctx, db, .prep, flowDay)
      let ask = kept.prompter
      let style = ctx.style
      ctx.line(
        style.bold(
          flowDay.isPast
            ? "Prep on the evening of \(flowDay.day.long)" : "Prep tonight (for tomorrow)"))
      ctx.line(
        style.dim(
          (flowDay.isPast
            ? "What was ready that evening?" : "30 seconds now makes tomorrow easier.")
            // brackets only show a saved answer: said only when there is one
            + (existing == nil
              ? ""
              : flowDay.editing
                ? " Enter keeps each answer (yours are in brackets, or on the line to edit)."
                : " Enter keeps the answer in brackets.")))
      var first = answers.isEmpty
      if first { ctx.line(style.dim("  (a: all prepped, every item ready)")) }
      for item in PrepItem.allCases where answers[item] == nil {
        let question = "  " + CoachPlan.ask(.prep, item.rawValue)
        if first {
          first = false
          let choice = try kept.text(item.rawValue, question) {
            switch try ask.yesNoOrAll(question, current: existing?[item]) {
            case true?: "yes"
            case false?: "no"
            case nil: "all"
            }
          }
          guard let choice, choice != "all" else {
            allPrepped = true
            break
          }
          answers[item] = choice == "yes"
        } else {
          answers[item] = try kept.yesNo(item.rawValue, question) {
            try ask.yesNo(question, current: existing?[item])
          }
        }
      }
      if other == nil {
        let question = "  " + CoachPlan.ask(.prep, "other")
        otherText = try kept.text("other", question) {
          try ask.text(question, current: existing?.other)
        }
      }
    }
    try ctx.finish(
      db, flowDay, existing: existing, options: options, interactive: interactive,
      refusal:
        "nothing to save: no item is ready and nothing else was prepped. Mark what is, e.g. \(flowDay.pasteable(Self.example)) (a night off is fine).",
      interactiveRefusal: interactive
        ? "Nothing was ready \(flowDay.isPast ? "that evening" : "tonight"), so nothing was saved. A night off is fine."
        : nil
    ) { [allPrepped] (entry: inout PrepEntry) in
      if allPrepped { entry.markAllReady() }
      for (item, value) in answers { entry[item] = value }
      if interactive || other != nil { entry.other = otherText }
    } summary: { saved, verb in
      let style = ctx.style
      let done = PrepItem.allCases.filter { saved[$0] }.map(\.label)
      let forDay = flowDay.isPast ? "for the evening of \(flowDay.day.long)" : "for tomorrow"
      ctx.line(
        style.green("✓")
          + " Prep \(verb) \(forDay): \(saved.doneCount)/\(PrepItem.allCases.count) ready"
          + (done.isEmpty ? "." : " (\(done.joined(separator: ", "))).")
      )
      // the "other" line is part of what was saved: said back too
      if let other = saved.other, !other.isEmpty {
        ctx.wrappedLine("  Also: \(other)")
      }
      if saved.doneCount < PrepItem.allCases.count && !flowDay.isPast {
        ctx.line(style.dim("Anything left can wait; whatever you did tonight counts."))
      }
    }
  }

  /// What Nudge prints as a working example.
  static let example = "nudge prep --item water=yes --no-input"
}
