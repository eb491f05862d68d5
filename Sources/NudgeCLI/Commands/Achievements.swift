import ArgumentParser
import NudgeCore

/// `nudge achievements`: earned with dates, locked with what they take.
struct AchievementsCommand: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "achievements", abstract: "Earned achievements with dates, and what the rest take."
  )

  @Flag(help: "Print every achievement as JSON.")
  var json = false

  struct Row: Encodable {
    var key: String
    var title: String
    @NullWhenAbsent var earnedOn: Day?
  }

  func run(_ ctx: Context) throws {
    let db = try ctx.openDatabase()
    let earned = try db.achievements()
    let plans = try ctx.plans(db)
    // the coach's; the sleep plan's and each defined flow's first while its plan is on, or
    // once earned
    let sleepOn = plans.catalogue.plan(named: "sleep").map { plans.isOn($0.plan) } ?? false
    // the habits' own once a habit is there
    let hasHabits = !(try db.habits()).isEmpty
    let listed =
      Achievement.allCases.filter {
        (!Achievement.sleepPlans.contains($0) || sleepOn || earned[$0] != nil)
          && (!Achievement.habitOnes.contains($0) || hasHabits || earned[$0] != nil)
      }
      + Set(plans.flowsOn.map { Achievement.firstOf($0.word) }).union(
        earned.keys.filter { if case .firstOf = $0 { true } else { false } }
      ).sorted { $0.rawValue < $1.rawValue }
    func title(_ a: Achievement) -> String {
      guard case .firstOf(let word) = a, let flow = plans.flow(word)?.flow else { return a.title }
      return VisibleText.escaped(flow.first)
    }
    try ctx.render(
      listed.map { Row(key: $0.rawValue, title: title($0), earnedOn: earned[$0]) }, json: json
    ) {
      let style = ctx.style
      let got = listed.filter { earned[$0] != nil }
      ctx.line(style.bold("Earned (\(got.count) of \(listed.count))"))
      if got.isEmpty { ctx.line(style.dim("  None yet. Finish any flow to earn your first.")) }
      // the titles' column fits the longest (a plan's own may be longer than the built-in ones)
      let width = max(22, listed.map { TerminalText.columns(title($0)) }.max() ?? 0)
      for a in got.sorted(by: { (earned[$0]?.ordinal ?? 0) < (earned[$1]?.ordinal ?? 0) }) {
        ctx.line(
          "  🏆 \(title(a).padded(to: width)) \(style.dim(earned[a]?.description ?? ""))  \(style.dim("nudge celebrate \(a.rawValue)"))"
        )
      }
      let locked = listed.filter { earned[$0] == nil }
      if !locked.isEmpty {
        ctx.line()
        ctx.line(style.bold("Locked"))
        for a in locked {
          ctx.line(
            "  🔒 \(title(a).padded(to: width)) \(style.dim(a.requirement + " (\(a.rawValue))"))"
          )
        }
      }
    }
  }
}
