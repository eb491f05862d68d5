import ArgumentParser
import NudgeCore

/// `nudge` / `nudge today`: the phase-aware today view.
struct TodayCommand: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "today", abstract: "What matters now: the morning focus or tonight's prep.")

  func run(_ ctx: Context) throws {
    let db = try ctx.openDatabase()
    let settings = try db.settings()
    let today = ctx.today(settings).day
    let local = LocalTime(ctx.now, in: ctx.timeZone)
    let phase = DayPhase.of(local, rolloverHour: settings.rolloverHour)
    let (days, done) = (
      try db.history(from: today.adding(days: -1), through: today), try db.doneDays()
    )
    let (yesterday, now) = (days[0], days[1])
    let streak = StreakRule.evaluate(doneDays: done, today: today)
    let style = ctx.style
    let greeting =
      local.hour >= 18 || local.hour < settings.rolloverHour
      ? "Good evening" : local.hour >= 12 ? "Good afternoon" : "Good morning"
    ctx.line(style.bold("\(greeting) · \(today.long)"))
    ctx.line(streakLine(streak, style, today: today))
    ctx.line()
    switch phase {
    case .morning:
      if let prep = yesterday.prep {
        let items = PrepItem.allCases.filter { prep[$0] }.map { $0.label.lowercased() }
        ctx.line(
          "Last night's prep: \(prep.doneCount)/\(PrepItem.allCases.count)"
            + (items.isEmpty ? "" : style.dim(" (\(items.joined(separator: ", ")))")))
      } else {
        ctx.line(style.dim("No prep from last night."))
      }
      if let review = now.review {
        ctx.line(
          style.green("✓") + " Morning Focus done" + (review.commitment.map { ": \($0)" } ?? "."))
      } else {
        ctx.line("→ Morning Focus: " + style.cyan("nudge review"))
      }
    case .evening:
      if let commitment = now.review?.commitment {
        ctx.line("Today's focus: \(commitment)")
      }
      if let checkin = now.checkin {
        ctx.line(
          style.green("✓") + " Check-in done"
            + (checkin.followed == true ? ": swap followed." : "."))
      } else {
        ctx.line("→ End-of-day check-in: " + style.cyan("nudge checkin"))
      }
      if let prep = now.prep {
        ctx.line(
          style.green("✓") + " Prepped for tomorrow: \(prep.doneCount)/\(PrepItem.allCases.count)")
      } else {
        ctx.line("→ Prep tonight (for tomorrow): " + style.cyan("nudge prep"))
      }
    }
    ctx.line(style.dim("A craving? 'nudge need-help' · the week: 'nudge history'"))
  }

  private func streakLine(_ s: StreakSummary, _ style: Style, today: Day) -> String {
    if s.current == 0 {
      return s.longest > 0
        ? "Streak: 0 days (longest \(s.longest)). Any flow today starts a new one."
        : "Streak: none yet. Any flow today starts one."
    }
    let days = s.current == 1 ? "1 day" : "\(s.current) days"
    let state = s.todayDone ? style.green("today done") : style.yellow("today pending")
    let frozen =
      s.frozen.contains(today.adding(days: -1)) ? " · yesterday frozen (streak kept)" : ""
    return "🔥 Streak: \(days) · \(state) · \(s.weekDone)/7 this week\(frozen)"
  }
}
