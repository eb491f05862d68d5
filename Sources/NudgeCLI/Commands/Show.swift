import ArgumentParser
import NudgeCore

/// `nudge show [DAY]`: one day in full, in the person's own words.
struct ShowCommand: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "show",
    abstract: "A day in full: prep, Morning Focus, check-in and every craving note, in your words.")

  @Argument(help: "today (the default), yesterday, a weekday (monday to sunday) or YYYY-MM-DD.")
  var day: String?

  @Flag(help: "Print the day as JSON (as one day of 'history --json').")
  var json = false

  func run(_ ctx: Context) throws {
    let db = try ctx.openDatabase()
    let today = ctx.today(try db.settings()).day
    let date = try Day.named(day ?? "today", today: today)
    let entry = try db.history(from: date, through: date)[0]
    let plans = try ctx.plans(db)
    let habits = try HabitDays.read(db, from: date, through: date)[date] ?? []
    try ctx.render(
      HabitDays.Dated(day: AnsweredView(plans: plans).withChallenges(entry), habits: habits),
      json: json
    ) {
      DayView(ctx: ctx, today: today, plans: plans).full(entry)
      for notice in try ctx.conflictNotices(db, plans: { plans }, days: [date]) {
        ctx.wrappedLine(notice, indent: 2, style: ctx.style.yellow)
      }
      if !habits.isEmpty { ctx.wrappedLine("Habits: " + HabitDays.list(habits)) }
    }
  }
}
