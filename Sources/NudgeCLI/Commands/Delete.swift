import ArgumentParser
import NudgeCore
import NudgeStore
import NudgeUseCases

/// `nudge delete DAY FLOW` / `nudge delete help ID`: removes one entry after a confirmation.
struct DeleteCommand: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "delete",
    abstract: "Delete one entry: a day's prep, review or check-in, or one craving note.",
    discussion: """
      nudge delete DAY prep|review|checkin, or nudge delete help ID (ids are in 'nudge show \
      DAY'). Asks first; --yes for scripts. Streaks and achievements are recomputed; 'nudge \
      undo' brings it back.
      """)

  @Argument(help: ArgumentHelp("DAY FLOW, or help ID.", valueName: "words"))
  var words: [String] = []

  @Flag(help: "Delete without asking.")
  var yes = false

  @Flag(help: "Print what was deleted as JSON.")
  var json = false

  func run(_ ctx: Context) throws {
    guard words.count == 2 else {
      throw CLIError(
        "name one entry: nudge delete DAY prep|review|checkin, or nudge delete help ID.",
        code: .usage)
    }
    var words = words
    // the flow may come first too: nudge delete review yesterday
    let dayFlows = ["prep", "review", "checkin"] + ctx.definedFlowWords.sorted()
    if dayFlows.contains(words[0]) { words.swapAt(0, 1) }
    let db = try ctx.openDatabase()
    let today = ctx.today(try db.settings()).day
    let flow: Flow
    let key: String
    if words[0] == "help" || words[0] == "need-help" {
      flow = .needHelp
      key = try HelpNoteID.find(words[1], db).id
    } else {
      let day = try Day.named(words[0], today: today)
      guard let named = Flow(rawValue: words[1]), dayFlows.contains(named.rawValue) else {
        throw CLIError(
          words[1] == "need-help" || words[1] == "help"
            ? "craving notes are deleted one at a time: nudge delete help ID (ids are in 'nudge show \(day)')."
            : "'\(words[1])' is not a flow: nudge delete DAY \(dayFlows.joined(separator: "|")).\(Suggestion.hint(for: words[1], among: dayFlows))",
          code: .usage)
      }
      flow = named
      key = day.description
    }
    guard let entry = try Self.entry(db, flow, key) else {
      throw CLIError("there is no \(flow.title) on \(key) to delete.", code: .failure)
    }
    let what = EntryText.describe(entry, in: ctx.timeZone)
    if !yes {
      if ctx.input.isTerminal { ctx.line("This deletes \(what).") }
      guard
        try ctx.confirm(
          "Delete it?", current: false,
          offTerminal:
            "stdin is not a terminal, so Nudge will not ask; add --yes to delete \(what).")
      else {
        ctx.line("Nothing was deleted.")
        return
      }
    }
    let at = InstantFormat.format(ctx.clock.started, in: ctx.timeZone)
    guard let removed = try DeleteEntry(db: db)(flow, key: key, madeOn: today, at: at) else {
      throw CLIError("there is no \(flow.title) on \(key) to delete.", code: .failure)
    }
    let streak = try ctx.streak(db, today: today)
    try ctx.render(
      ChangeReport(
        kind: "deleted", entry: removed.change.before, newAchievements: [],
        lostAchievements: removed.lostAchievements, streak: streak), json: json
    ) {
      ctx.line(ctx.style.green("✓") + " Deleted \(what).")
      EntryText.sayEffects(ctx, new: [], lost: removed.lostAchievements, streak: streak)
      ctx.line(ctx.style.dim("Changed your mind? 'nudge undo' brings it back."))
    }
  }

  static func entry(_ db: AppDatabase, _ flow: Flow, _ key: String) throws -> FlowEntry? {
    if flow == .needHelp { return try db.helpNote(id: key)?.flowEntry }
    return try db.entry(flow, on: Day(key)!)
  }
}
