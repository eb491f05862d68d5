import ArgumentParser
import NudgeCore
import NudgeUseCases

extension HabitCommand {
  /// `nudge habit edit NAME …`.
  struct Edit: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "edit", abstract: "Change a habit's name, time, frequency, target or question.")

    @Argument(
      help: "The habit: its name, any case, or a unique start of it.",
      completion: .shellCommand("nudge habit names 2>/dev/null"))
    var name: String

    @Option(help: ArgumentHelp("A new name.", valueName: "name"))
    var rename: String?

    @OptionGroup var fields: HabitFields

    @Option(
      name: .customLong("untag"),
      help: ArgumentHelp("A tag to remove; again for more.", valueName: "tag"),
      completion: .shellCommand("nudge habit tags 2>/dev/null"))
    var untags: [String] = []

    func run(_ ctx: Context) throws {
      let db = try ctx.openDatabase()
      let today = ctx.today(try db.settings())
      let habit = try HabitInput.find(name, in: try db.habits(), ctx)
      guard rename != nil || !fields.isEmpty || !untags.isEmpty else {
        throw CLIError(
          "nothing to change: give --rename, --at, --every, --target, --unit, --question, --tag or --untag",
          code: .usage)
      }
      if habit.quit
        && (fields.target != nil || fields.atMost != nil || fields.unit != nil
          || fields.every.map { (try? HabitFrequency.parse($0)) != .daily } == true)
      {
        throw CLIError(
          "\(HabitText.name(habit)) is a habit to quit: daily and yes or no; it takes no --target, --at-most, --unit or --every but daily",
          code: .usage)
      }
      let (amount, atMost) = try fields.amount()
      var base = habit
      base.atMost = atMost ?? habit.atMost
      var edited = try HabitInput.checked(
        base, name: rename ?? habit.name, every: fields.every ?? habit.every.description,
        at: fields.at == ["off"] ? [] : (fields.at.isEmpty ? habit.reminderTimes : fields.at),
        target: amount ?? habit.target, unit: fields.unit ?? habit.unit,
        // a question that was the old name's default becomes the new name's
        question: fields.question
          ?? (habit.question == Habit.defaultQuestion(habit.name) ? nil : habit.question), ctx,
        renaming: rename != nil)
      let removing = Set(untags.map { $0.trimmingSpaces.lowercased() })
      edited.tags = try HabitInput.tags(
        habit.tags.filter { !removing.contains($0.lowercased()) } + fields.tags)
      guard edited != habit else {
        ctx.line("\(HabitText.name(habit)) is so already; nothing changed.")
        return
      }
      let settled = try HabitChanges(db: db).update(edited, madeOn: today.day, at: today.savedAt)
      try HabitReminders.update(ctx, db)
      ctx.line(
        ctx.style.green("✓") + " \(HabitText.name(edited)): "
          + HabitText.describe(edited, style: ctx.style))
      HabitText.sayLost(settled, ctx)
      if !settled.newAchievements.isEmpty {
        ctx.line("Earned: " + settled.newAchievements.map(\.title).joined(separator: ", ") + ".")
      }
    }
  }
}
