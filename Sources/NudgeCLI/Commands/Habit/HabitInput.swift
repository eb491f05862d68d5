import NudgeCore
import NudgeUseCases

/// Reading and checking what a person typed about a habit.
enum HabitInput {
  /// The habit `name` names: exactly (any case), else by a unique start; an error lists them.
  static func find(_ name: String, in habits: [Habit], _ ctx: Context, exact: Bool = false)
    throws -> Habit
  {
    let wanted = name.trimmingSpaces.lowercased()
    if let found = habits.first(where: { $0.name.lowercased() == wanted }) { return found }
    let starting = habits.filter {
      !exact && !wanted.isEmpty && $0.name.lowercased().hasPrefix(wanted)
    }
    if starting.count == 1 { return starting[0] }
    let names = habits.map { VisibleText.escaped($0.name) }
    if starting.count > 1 {
      throw CLIError(
        "'\(VisibleText.escaped(name))' names several habits (\(starting.map { VisibleText.escaped($0.name) }.joined(separator: ", "))); type more of the name",
        code: .usage)
    }
    throw CLIError(
      habits.isEmpty
        ? "there is no habit named '\(VisibleText.escaped(name))': you have none yet; add one: nudge habit add NAME"
        : "there is no habit named '\(VisibleText.escaped(name))' (your habits: \(names.joined(separator: ", "))).\(Suggestion.hint(for: name, among: names)) See 'nudge habit list --all'.",
      code: .usage)
  }

  /// `tags` as a habit's tags (`--tag`), checked, repeats dropped; an error (exit 64) says
  /// what a tag can be.
  static func tags(_ tags: [String]) throws -> [String] {
    do throws(InputError) { return try Habit.checkedTags(tags) } catch {
      throw CLIError("--tag: " + error.message, code: .usage)
    }
  }

  /// `text` as a day's note (`--note`), checked; an error (exit 64) says what a note can be.
  static func note(_ text: String?) throws -> String? {
    guard let text else { return nil }
    do throws(InputError) { return try Habit.checkedNote(text) } catch {
      throw CLIError("--note: " + error.message, code: .usage)
    }
  }

  /// The day `word` names for a check of `habit` (today when nil): not in the future, not
  /// before the habit began.
  static func day(_ word: String?, for habit: Habit, today: Day) throws -> Day {
    guard let word else { return today }
    guard let day = Day.named(word, today: today, toward: .past) else {
      throw CLIError(
        "--day takes \(Day.wordsHint), not '\(VisibleText.escaped(word))'", code: .usage)
    }
    guard day <= today else {
      throw CLIError(
        "\(day) is in the future: a habit can be marked for today or a day before", code: .usage)
    }
    guard day >= habit.since else {
      throw CLIError(
        "\(day) is before \(HabitText.name(habit)) began (\(habit.since)); mark a day from \(habit.since) to today",
        code: .usage)
    }
    return day
  }

  /// `base` with what was given, each checked; an error (exit 64) says what is allowed.
  static func checked(
    _ base: Habit, name: String, every: String, at: [String], target: Int?, unit: String?,
    question: String?, _ ctx: Context, renaming: Bool = true
  ) throws -> Habit {
    var habit = base
    do throws(InputError) {
      if renaming { habit.name = try Habit.checkedName(name, reserved: HabitCommand.reservedNames) }
      habit.every = try HabitFrequency.parse(every)
      // what is kept as it was (an imported unit or question, say) is not checked again
      habit.target = try target.map(base.atMost ? Habit.checkedLimit : Habit.checkedTarget)
      if let unit {
        habit.unit = unit == base.unit ? unit : try Habit.checkedUnit(unit)
      } else {
        habit.unit = nil
      }
      if let question {
        habit.question = question == base.question ? question : try Habit.checkedQuestion(question)
      } else {
        habit.question = Habit.defaultQuestion(habit.name)
      }
    } catch {
      throw CLIError.usage(error)
    }
    if (habit.unit == nil) != (habit.target == nil) {
      throw CLIError(
        base.atMost
          ? "--at-most and --unit go together: a limit is an amount a day in a unit (--at-most 2 --unit coffees)"
          : "--target and --unit go together: a measurable habit has a target a day in a unit (--target 20 --unit pages)",
        code: .usage)
    }
    habit.reminderTimes = try reminderTimes(at, ctx)
    return habit
  }

  /// `times` as a habit's reminder times, trimmed, in order: each one `schedule set` takes, at
  /// most `Habit.maxReminders`, no two at the same times; or one line saying which is wrong.
  static func reminderTimes(_ times: [String], _ ctx: Context) throws -> [String] {
    guard times.count <= Habit.maxReminders else {
      throw CLIError(
        "a habit has at most \(Habit.maxReminders) reminders, not \(times.count)", code: .usage)
    }
    var seen: [String: String] = [:]
    return try times.map { time in
      let trimmed = time.trimmingSpaces
      if let problem = Habit.reminderTimeProblem(trimmed) ?? ctx.planTimeProblem(trimmed) {
        throw CLIError(problem, code: .usage)
      }
      let expression = (try? ctx.planSlotSpec(trimmed).normalized) ?? trimmed
      if let earlier = seen[expression] {
        throw CLIError(
          "'\(VisibleText.escaped(trimmed))' comes at the same times as '\(VisibleText.escaped(earlier))': one reminder is enough",
          code: .usage)
      }
      seen[expression] = trimmed
      return trimmed
    }
  }

  /// Asks a measurable habit's amount on a terminal; off one, an error says to give --value.
  /// `text` as a whole number from `low` to the largest amount, or one line saying so.
  static func wholeNumber(_ text: String, option: String, from low: Int) throws -> Int {
    guard let n = Int(text.trimmingSpaces), (low...Habit.maxAmount).contains(n) else {
      throw CLIError(
        "\(option) takes a whole number from \(low) to \(Habit.maxAmount), not '\(VisibleText.escaped(text))'",
        code: .usage)
    }
    return n
  }

  static func askValue(_ habit: Habit, _ ctx: Context, soFar: Int? = nil) throws -> Int {
    let unit = habit.unit.map(VisibleText.escaped) ?? "of it"
    guard ctx.input.isTerminal else {
      throw CLIError(
        "\(HabitText.name(habit)) is measured (\(habit.target ?? 0) \(unit) a day): give the amount, e.g. nudge habit done \(HabitText.argument(habit)) --value \(habit.target ?? 1)",
        code: .usage)
    }
    ctx.input.catchInterrupts()
    while true {
      ctx.output.write(
        "How many \(unit)? "
          + ctx.style.dim(
            "(your target: \(habit.target ?? 0)"
              + (soFar.map { "; so far: \($0), this adds to it" } ?? "")
              + ") "))
      guard let line = ctx.input.readLine(), !ctx.input.wasInterrupted else {
        // Ctrl-D (exit 1) or Ctrl-C (130): nothing recorded, said on a line of its own
        ctx.line()
        throw CLIError(
          "nothing recorded: no amount was given",
          code: ctx.input.wasInterrupted ? .interrupted : .failure)
      }
      if let n = Int(line.trimmingSpaces), (0...Habit.maxAmount).contains(n) { return n }
      ctx.line(ctx.style.yellow("A whole number from 0 to \(Habit.maxAmount), please."))
    }
  }

  static func archive(_ name: String, _ archived: Bool, _ ctx: Context) throws {
    let db = try ctx.openDatabase()
    let today = ctx.today(try db.settings())
    var habit = try find(name, in: try db.habits(includingArchived: true), ctx)
    guard habit.archived != archived else {
      ctx.line(
        archived
          ? "\(HabitText.name(habit)) is archived already."
          : "\(HabitText.name(habit)) is not archived: nothing to bring back.")
      return
    }
    habit.archived = archived
    try HabitChanges(db: db).update(habit, madeOn: today.day, at: today.savedAt)
    try HabitReminders.update(ctx, db)
    ctx.line(
      archived
        ? "Archived \(HabitText.name(habit)): no reminder, not listed; its days are kept (nudge habit unarchive brings it back)."
        : "\(HabitText.name(habit)) is back.")
  }
}
