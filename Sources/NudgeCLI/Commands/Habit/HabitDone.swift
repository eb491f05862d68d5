import ArgumentParser
import NudgeCore
import NudgeUseCases

extension HabitCommand {
  /// `nudge habit done NAME [--day DAY] [--value N] [--note TEXT]`.
  struct Done: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "done", abstract: "Mark a habit done today (or on --day).")

    @Argument(
      help: "The habit: its name, any case, or a unique start of it.",
      completion: .shellCommand("nudge habit names 2>/dev/null"))
    var name: String

    @Option(
      help: ArgumentHelp(
        "The day: yesterday, a weekday (the latest one) or YYYY-MM-DD.", valueName: "day"))
    var day: String?

    // taken as text (and '-3' too) so that any amount not a whole number gets one clear line
    @Option(
      parsing: .unconditional,
      help: ArgumentHelp("The amount, for a measurable habit (a whole number).", valueName: "n"))
    var value: String?

    @Option(
      help: ArgumentHelp(
        "A note on the day (one line; 'nudge habit note' changes it).", valueName: "text"))
    var note: String?

    @Flag(help: "Print the habit as JSON afterwards (no celebration).")
    var json = false

    @Flag(help: "No animation in the celebration.")
    var noAnimation = false

    @Flag(
      name: .customLong("set"),
      help: "Make --value the day's amount, instead of adding it to what the day has.")
    var replacing = false

    // a link's (nudge://habit?name=): the whole name, never a start of it
    @Flag(help: .hidden)
    var exact = false

    func run(_ ctx: Context) throws {
      let db = try ctx.openDatabase()
      let settings = try db.settings()
      let today = ctx.today(settings)
      let habit = try HabitInput.find(name, in: try db.habits(), ctx, exact: exact)
      let day = try HabitInput.day(self.day, for: habit, today: today.day)
      if let value, !habit.isMeasurable {
        throw CLIError(
          "\(HabitText.name(habit)) is a yes/no habit: it takes no --value (given \(VisibleText.escaped(value))); run: nudge habit done \(HabitText.argument(habit))",
          code: .usage)
      }
      if replacing && !habit.isMeasurable {
        throw CLIError(
          "--set replaces a measurable habit's amount; \(HabitText.name(habit)) is a yes/no habit.",
          code: .usage)
      }
      var amount = try value.map { try HabitInput.wholeNumber($0, option: "--value", from: 0) }
      let note = try HabitInput.note(self.note)
      let before = try db.habitChecks(habit.id, from: day).first { $0.day == day }
      // amounts add up, as sessions do (a second 10 pages after 12 is 22); --set replaces
      let soFar = replacing ? nil : before.flatMap { $0.done ? $0.value : nil }
      if habit.isMeasurable && amount == nil {
        amount = try HabitInput.askValue(habit, ctx, soFar: soFar)
      }
      if let added = amount, let soFar {
        guard soFar <= Habit.maxAmount - added else {
          throw CLIError(
            "\(soFar) + \(added) is more than \(Habit.maxAmount), the largest amount a day holds; to set the day's amount: nudge habit done \(HabitText.argument(habit)) --value N --set",
            code: .usage)
        }
        amount = soFar + added
      }
      // the day's note stays unless a new one is given
      let check = HabitCheck(
        day: day, .done, value: amount, note: note ?? before?.note, savedAt: today.savedAt)
      // a day done now (not one filled in, nor one again) draws a celebration of random size
      let (_, settled, celebration) = try HabitChanges(db: db).record(
        check, of: habit, madeOn: today.day, at: today.savedAt, reward: json ? nil : ctx.reward)
      let report = try HabitReport.of(
        habit, db, today: today.day, weekStart: ctx.weekStart(try db.settings()))
      try ctx.render(report, json: json) {
        let when = FlowDay.describe(day, today: today.day)
        if let amount, let target = habit.target {
          let unit = habit.unit.map { " " + VisibleText.escaped($0) } ?? ""
          let sum = soFar.map { " (\($0) + \(amount - $0))" } ?? ""
          ctx.line(
            habit.atMost
              ? (check.meets(habit) ? ctx.style.green("✓") + " " : "")
                + "\(HabitText.name(habit)) \(when): \(amount)\(unit)\(sum), "
                + (check.meets(habit)
                  ? "within the limit of \(target). "
                  : "over the limit of \(target); the day does not count. ")
                + HabitText.streakLine(report)
              : check.meets(habit)
                ? ctx.style.green("✓")
                  + " \(HabitText.name(habit)) done \(when): \(amount)\(unit)\(sum). "
                  + HabitText.streakLine(report)
                : "\(HabitText.name(habit)) \(when): \(amount) of \(target)\(unit) so far\(sum); the day counts once it reaches \(target). "
                  + HabitText.streakLine(report))
        } else {
          ctx.line(
            ctx.style.green("✓") + " \(HabitText.name(habit)) done \(when). "
              + HabitText.streakLine(report))
        }
        if replacing || !habit.isMeasurable,
          let replaced = HabitText.replaced(before, by: check, habit)
        {
          ctx.line(ctx.style.dim(replaced))
        }
        HabitText.sayLost(settled, ctx)
        // a day filled in says what it earned in one line
        if let celebration {
          try CelebrationView(ctx: ctx, noAnimation: noAnimation).play(
            celebration.celebration, seed: ctx.reward.animationSeed(celebration.number))
        } else if !settled.newAchievements.isEmpty {
          ctx.line("Earned: " + settled.newAchievements.map(\.title).joined(separator: ", ") + ".")
        }
      }
    }
  }
}
