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
    let db = try ctx.openDatabase()
    let flowDay = try ctx.flowDay(try db.settings(), options)
    let existing = try db.prep(on: flowDay.day)
    var allPrepped = false
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
            allPrepped = true
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
    try ctx.finish(
      db, flowDay, existing: existing, options: options,
      refusal:
        "nothing to save: no item is ready and nothing else was prepped. Mark what is (e.g. --item water=yes) or add --other; a night off is fine."
    ) { [allPrepped] (entry: inout PrepEntry) in
      if allPrepped { entry.markAllReady() }
      for (item, value) in answers { entry[item] = value }
      if interactive || other != nil { entry.other = otherText }
    } summary: { saved, verb in
      let style = ctx.style
      let done = PrepItem.allCases.filter { saved[$0] }.map(\.label)
      ctx.line(
        style.green("✓")
          + " Prep \(verb) for tomorrow: \(saved.doneCount)/\(PrepItem.allCases.count) ready"
          + (done.isEmpty ? "." : " (\(done.joined(separator: ", "))).")
      )
      if saved.doneCount < PrepItem.allCases.count {
        ctx.line(style.dim("Anything left can wait; whatever you did tonight counts."))
      }
    }
  }
}
