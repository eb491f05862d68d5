import ArgumentParser
import NudgeCore

/// `nudge streak`: current and longest streak, freezes, the week ring and a 12-week heatmap.
struct StreakCommand: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "streak", abstract: "Your streak, this week's ring and a 12-week heatmap.")

  @Flag(help: "Print the streak as JSON.")
  var json = false

  /// The stable JSON shape of DESIGN §7.
  struct Report: Encodable {
    struct Week: Encodable {
      var done: Int
      var of = 7
    }
    var current: Int
    var longest: Int
    var todayDone: Bool
    var frozen: [Day]
    var freezesHeld: Int
    var week: Week
    /// The last day of the pause in effect today (`nudge pause`), else null.
    @NullWhenAbsent var pausedUntil: Day?
  }

  func run(_ ctx: Context) throws {
    let db = try ctx.openDatabase()
    let settings = try db.settings()
    let today = ctx.today(settings).day
    let (done, paused) = try db.streakDays()
    let s = StreakRule.evaluate(doneDays: done, today: today, paused: paused)
    if json {
      ctx.line(
        try jsonText(
          Report(
            current: s.current, longest: s.longest, todayDone: s.todayDone, frozen: s.frozen,
            freezesHeld: s.freezesHeld, week: .init(done: s.weekDone),
            pausedUntil: try db.pauses().first { $0.contains(today) }?.lastDay)))
      return
    }
    let style = ctx.style
    let days = { (n: Int) in n == 1 ? "1 day" : "\(n) days" }
    ctx.line(
      style.bold("🔥 Current streak: \(days(s.current))")
        + (s.todayDone ? style.green("  today done") : style.yellow("  today pending")))
    ctx.line("   Longest streak: \(days(s.longest))")
    let freezes = String(repeating: "❄ ", count: s.freezesHeld)
    ctx.line(
      "   Freezes held: \(s.freezesHeld)/\(StreakRule.maxFreezes) \(freezes)"
        + style.dim(
          "(one for every 7 days in a row; each covers one missed day, days in a row too)"))
    if !s.frozen.isEmpty {
      ctx.line("   Frozen days: " + s.frozen.suffix(5).map(\.description).joined(separator: ", "))
    }
    // "this week" is the last 7 days, here and in the today view; the heatmap shows calendar
    // weeks, Monday to Sunday, under the date each starts
    let frozen = Set(s.frozen)
    let ring = Heatmap.lastSevenDays(today: today, doneDays: done, frozen: frozen)
    let letters = (0..<7).reversed().map { String(today.adding(days: -$0).weekdayName.prefix(1)) }
    ctx.line(
      "   This week:  " + ring.map { mark($0, style) }.joined(separator: " ") + "  \(s.weekDone)/7")
    ctx.line(
      "               " + style.dim(letters.joined(separator: " "))
        + style.dim("  (the last 7 days)"))
    ctx.line()
    let mondays = Heatmap.mondays(12, today: today)
    var labels = ""
    for (w, monday) in mondays.enumerated() where w % 4 == 0 {
      labels += String(repeating: " ", count: max(0, w * 2 - labels.count)) + monday.dayMonth
    }
    ctx.line("       " + style.dim(labels))
    let weeks = Heatmap.weeks(12, today: today, doneDays: done, frozen: frozen)
    let names = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    for (d, name) in names.enumerated() {
      ctx.line("   \(style.dim(name)) " + weeks.map { mark($0[d], style) }.joined(separator: " "))
    }
    ctx.line(
      "       " + style.dim("█ done  * frozen (streak kept)  · missed  ○ today, in progress"))
  }
}

/// One day of the ring or the heatmap: done, frozen, missed, in progress, or blank.
func mark(_ cell: Heatmap.Cell, _ style: Style) -> String {
  switch cell {
  case .done: style.green("█")
  case .frozen: style.cyan("*")
  case .missed: style.dim("·")
  case .inProgress: style.yellow("○")
  case .beforeFirstUse, .future: " "
  }
}

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
    let listed =
      Achievement.allCases.filter {
        !Achievement.sleepPlans.contains($0) || sleepOn || earned[$0] != nil
      }
      + Set(plans.flowsOn.map { Achievement.firstOf($0.word) }).union(
        earned.keys.filter { if case .firstOf = $0 { true } else { false } }
      ).sorted { $0.rawValue < $1.rawValue }
    func title(_ a: Achievement) -> String {
      guard case .firstOf(let word) = a, let flow = plans.flow(word)?.flow else { return a.title }
      return VisibleText.escaped(flow.first)
    }
    if json {
      ctx.line(
        try jsonText(listed.map { Row(key: $0.rawValue, title: title($0), earnedOn: earned[$0]) }))
      return
    }
    let style = ctx.style
    let got = listed.filter { earned[$0] != nil }
    ctx.line(style.bold("Earned (\(got.count) of \(listed.count))"))
    if got.isEmpty { ctx.line(style.dim("  None yet. Finish any flow to earn your first.")) }
    for a in got.sorted(by: { earned[$0]! < earned[$1]! }) {
      ctx.line(
        "  🏆 \(title(a).padded(to: 22)) \(style.dim(earned[a]!.description))  \(style.dim("nudge celebrate \(a.rawValue)"))"
      )
    }
    let locked = listed.filter { earned[$0] == nil }
    if !locked.isEmpty {
      ctx.line()
      ctx.line(style.bold("Locked"))
      for a in locked {
        ctx.line(
          "  🔒 \(title(a).padded(to: 22)) \(style.dim(a.requirement + " (\(a.rawValue))"))"
        )
      }
    }
  }
}
