import ArgumentParser
import NudgeCore

/// `nudge prep`: Prep Tonight, the checklist for tomorrow.
struct PrepCommand: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "prep",
    abstract: "Prep tonight (for tomorrow): a 30-second checklist.",
    discussion: "Items: \(PrepItem.allCases.map(\.rawValue).joined(separator: ", ")).")

  @Option(
    name: .customLong("item"), help: "An item and whether it is done: ITEM=yes|no.")
  var items: [PrepAnswer] = []

  @Option(help: "Anything else you prepped.")
  var other: String?

  @OptionGroup var options: FlowOptions

  func run(_ ctx: Context) throws {
    var answers = Dictionary(items.map { ($0.item, $0.ready) }) { _, last in last }
    var otherText = try flagText(other, "--other")
    let interactive = try ctx.isInteractive(
      noInput: options.noInput, hasAnswers: !answers.isEmpty || otherText != nil,
      example: "nudge prep --item water=yes --no-input")
    let db = try ctx.database()
    let settings = try db.settings()
    let (day, savedAt, isPast) = try ctx.flowDay(settings, options)
    let existing = try db.prep(on: day)
    if interactive {
      let ask = Prompter(ctx: ctx)
      let style = ctx.style
      ctx.line(style.bold("Prep tonight (for tomorrow)"))
      ctx.line(
        style.dim("30 seconds now makes tomorrow easier. Enter keeps the answer in brackets."))
      var first = answers.isEmpty
      if first { ctx.line(style.dim("  (a: all prepped, every item ready)")) }
      for item in PrepItem.allCases where answers[item] == nil {
        if first {
          first = false
          guard let answer = try ask.yesNoOrAll("  \(item.label)?", current: existing?[item]) else {
            for every in PrepItem.allCases { answers[every] = true }
            break
          }
          answers[item] = answer
        } else {
          answers[item] = try ask.yesNo("  \(item.label)?", current: existing?[item])
        }
      }
      if other == nil {
        otherText = try ask.text("  Anything else?", current: existing?.other)
      }
    }
    let apply = { (entry: inout PrepEntry) in
      for (item, value) in answers { entry[item] = value }
      if interactive || other != nil { entry.other = otherText }
    }
    // a prep counts with something prepped: one item ready, or a line of something else
    var preview = existing ?? PrepEntry(day: day, savedAt: savedAt)
    apply(&preview)
    guard preview.doneCount > 0 || preview.other != nil else {
      throw CLIError(
        "nothing to save: no item is ready and nothing else was prepped. Mark what is (e.g. --item water=yes) or add --other; a night off is fine.",
        code: .usage)
    }
    let result = try db.savePrep(day: day, savedAt: savedAt, apply)
    let saved = result.entry
    if options.json {
      ctx.line(try jsonText(saved))
      return
    }
    let style = ctx.style
    let done = PrepItem.allCases.filter { saved[$0] }.map(\.label)
    let verb = existing == nil ? "saved" : "updated"
    ctx.line(
      style.green("✓")
        + " Prep \(verb) for tomorrow: \(saved.doneCount)/\(PrepItem.allCases.count) ready"
        + (done.isEmpty ? "." : " (\(done.joined(separator: ", ")))."))
    if saved.doneCount < PrepItem.allCases.count {
      ctx.line(style.dim("Anything left can wait; whatever you did tonight counts."))
    }
    try ctx.celebrate(
      db, newAchievements: result.newAchievements, noAnimation: options.noAnimation,
      filledIn: isPast ? day : nil, updated: existing != nil)
  }
}
