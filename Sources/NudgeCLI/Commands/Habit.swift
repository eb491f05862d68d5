import ArgumentParser
import NudgeCore
import NudgeStore
import NudgeUseCases

/// `nudge habit`: the person's own habits — add one, mark a day done or skipped, list, show,
/// edit, archive and remove them.
struct HabitCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "habit", abstract: "Your own habits: add, done, skip, list, show, edit, remove.",
    discussion: """
      A habit is a name, how often you want it (--every: daily, weekdays, Mon,Wed,Fri, 3/week, \
      2/month, 'every 3 days') and, if you like, a reminder time (--at: 9pm, 'weekdays 7:30' or \
      a systemd calendar expression) whose notification offers Done, Snooze and Skip. \
      --target and --unit make it measurable (20 pages). A habit is named by its name, any \
      case, or a unique start of it. 'nudge undo' takes back a done, a skip, an edit or a \
      remove made today.
      """,
    subcommands: [
      Add.self, Done.self, Skip.self, List.self, Show.self, Edit.self, Archive.self,
      Unarchive.self, Remove.self, ImportLoop.self, Names.self,
    ],
    defaultSubcommand: List.self)

  /// The words a habit can't be named: `habit`'s own subcommands and nudge's commands.
  static var reservedNames: Set<String> {
    Set(configuration.subcommands.map { $0._commandName }).union(Nudge.commandWords)
  }

  /// `nudge habit add NAME`.
  struct Add: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "add", abstract: "Add a habit of your own.")

    @Argument(help: "Its name (one line, at most \(Habit.maxNameLength) characters).")
    var name: String

    @OptionGroup var fields: HabitFields

    func run(_ ctx: Context) throws {
      let db = try ctx.openDatabase()
      let today = ctx.today(try db.settings())
      var habit = try HabitInput.checked(
        Habit(name: name, since: today.day), name: name, every: fields.every ?? "daily",
        at: fields.at,
        target: try fields.target.map {
          try HabitInput.wholeNumber($0, option: "--target", from: 1)
        },
        unit: fields.unit, question: fields.question, ctx)
      habit = try db.addHabit(habit, madeOn: today.day, at: today.savedAt)
      try HabitReminders.update(ctx, db)
      ctx.line(
        ctx.style.green("✓") + " Added \(HabitText.name(habit)): "
          + HabitText.describe(habit, style: ctx.style))
      ctx.line(
        ctx.style.dim(
          "Mark a day: nudge habit done \(HabitText.argument(habit))"
            + (habit.isMeasurable ? " --value N" : "")))
    }
  }

  /// `nudge habit done NAME [--day DAY] [--value N]`.
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
      let check = HabitCheck(day: day, done: true, value: amount, savedAt: today.savedAt)
      let (_, settled) = try HabitChanges(db: db).record(
        check, habit: habit.id, madeOn: today.day, at: today.savedAt)
      let report = try HabitReport.of(habit, db, today: today.day)
      if json {
        ctx.line(try jsonText(report))
        return
      }
      let when = FlowDay.describe(day, today: today.day)
      if let amount, let target = habit.target {
        let unit = habit.unit.map { " " + VisibleText.escaped($0) } ?? ""
        let sum = soFar.map { " (\($0) + \(amount - $0))" } ?? ""
        ctx.line(
          check.meets(habit)
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
      // a celebration of random size, for a day done now (not one filled in, nor one again);
      // a day filled in says what it earned in one line
      if day == today.day && before?.meets(habit) != true && check.meets(habit) {
        try HabitCelebration.play(
          ctx, db, newAchievements: settled.newAchievements, noAnimation: noAnimation)
      } else if !settled.newAchievements.isEmpty {
        ctx.line("Earned: " + settled.newAchievements.map(\.title).joined(separator: ", ") + ".")
      }
    }
  }

  /// `nudge habit skip NAME [--day DAY]`.
  struct Skip: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "skip",
      abstract: "Skip a habit today (or on --day): a skipped day never breaks its streak.")

    @Argument(
      help: "The habit: its name, any case, or a unique start of it.",
      completion: .shellCommand("nudge habit names 2>/dev/null"))
    var name: String

    @Option(
      help: ArgumentHelp(
        "The day: yesterday, a weekday (the latest one) or YYYY-MM-DD.", valueName: "day"))
    var day: String?

    func run(_ ctx: Context) throws {
      let db = try ctx.openDatabase()
      let today = ctx.today(try db.settings())
      let habit = try HabitInput.find(name, in: try db.habits(), ctx)
      let day = try HabitInput.day(self.day, for: habit, today: today.day)
      let skip = HabitCheck(day: day, done: false, savedAt: today.savedAt)
      let (before, settled) = try HabitChanges(db: db).record(
        skip, habit: habit.id, madeOn: today.day, at: today.savedAt)
      ctx.line(
        "Skipped \(HabitText.name(habit)) \(FlowDay.describe(day, today: today.day)); its streak waits. "
          + ctx.style.dim("(nudge undo takes it back)"))
      if let replaced = HabitText.replaced(before, by: skip, habit) {
        ctx.line(ctx.style.dim(replaced))
      }
      HabitText.sayLost(settled, ctx)
    }
  }

  /// `nudge habit list [--json] [--all]`.
  struct List: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: "List your habits: today, streak, strength.")

    @Flag(help: "Print the habits as JSON.")
    var json = false

    @Flag(help: "Archived habits too.")
    var all = false

    func run(_ ctx: Context) throws {
      let db = try ctx.openDatabase()
      let today = ctx.today(try db.settings()).day
      let habits = try db.habits(includingArchived: all)
      let reports = try HabitReport.all(habits, db, today: today)
      if json {
        ctx.line(try jsonText(reports))
        return
      }
      guard !habits.isEmpty else {
        ctx.line("No habits yet. Add one: nudge habit add \"Stretch\" --at 9pm")
        return
      }
      let style = ctx.style
      let width = min(24, habits.map { VisibleText.escaped($0.name).count }.max() ?? 0)
      for (habit, report) in zip(habits, reports) {
        // ✓ done, - skipped, ○ to do today, · nothing wanted today
        let state =
          switch report.today {
          case .done: style.green("✓")
          case .skipped: style.blue("-")
          case .due: style.yellow("○")
          case .notDue: style.dim("·")
          }
        ctx.line(
          "\(state) \(style.bold(VisibleText.escaped(habit.name).fitted(to: width)))  "
            + "\(HabitText.streakLine(report))  "
            + style.dim(
              "strength \(report.strength)%  \(habit.every.description)"
                + (habit.at.map { ", reminder \(VisibleText.escaped(HabitText.time($0)))" } ?? "")
                + (habit.archived ? "  (archived)" : "")))
      }
    }
  }

  /// `nudge habit show NAME`.
  struct Show: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "show", abstract: "One habit: its heatmap, streaks, strength, last weeks.")

    @Argument(
      help: "The habit: its name, any case, or a unique start of it.",
      completion: .shellCommand("nudge habit names 2>/dev/null"))
    var name: String

    @Flag(help: "Print the habit as JSON.")
    var json = false

    func run(_ ctx: Context) throws {
      let db = try ctx.openDatabase()
      let today = ctx.today(try db.settings()).day
      let habit = try HabitInput.find(name, in: try db.habits(), ctx)
      let report = try HabitReport.of(habit, db, today: today)
      if json {
        ctx.line(try jsonText(report))
        return
      }
      let style = ctx.style
      ctx.line(style.bold(VisibleText.escaped(habit.name)) + (habit.archived ? " (archived)" : ""))
      ctx.line("  " + HabitText.describe(habit, style: style))
      ctx.line("  " + HabitText.streakLine(report) + ", best \(report.bestStreak)")
      ctx.line("  Strength: \(report.strength)%")
      ctx.line()
      try HabitHeatmap.draw(ctx, habit, db, today: today, weeks: Heatmap.defaultWeeks)
    }
  }

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

    func run(_ ctx: Context) throws {
      let db = try ctx.openDatabase()
      let today = ctx.today(try db.settings())
      let habit = try HabitInput.find(name, in: try db.habits(), ctx)
      guard rename != nil || !fields.isEmpty else {
        throw CLIError(
          "nothing to change: give --rename, --at, --every, --target, --unit or --question",
          code: .usage)
      }
      let edited = try HabitInput.checked(
        habit, name: rename ?? habit.name, every: fields.every ?? habit.every.description,
        at: fields.at == "off" ? nil : (fields.at ?? habit.at),
        target: try fields.target.map {
          try HabitInput.wholeNumber($0, option: "--target", from: 1)
        } ?? habit.target, unit: fields.unit ?? habit.unit,
        // a question that was the old name's default becomes the new name's
        question: fields.question
          ?? (habit.question == Habit.defaultQuestion(habit.name) ? nil : habit.question), ctx,
        renaming: rename != nil)
      guard edited != habit else {
        ctx.line("\(HabitText.name(habit)) is so already; nothing changed.")
        return
      }
      try db.updateHabit(edited, madeOn: today.day, at: today.savedAt)
      try HabitReminders.update(ctx, db)
      ctx.line(
        ctx.style.green("✓") + " \(HabitText.name(edited)): "
          + HabitText.describe(edited, style: ctx.style))
    }
  }

  /// `nudge habit archive NAME`.
  struct Archive: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "archive",
      abstract: "Set a habit aside: no reminder, not listed; its days are kept.")

    @Argument(
      help: "The habit: its name, any case, or a unique start of it.",
      completion: .shellCommand("nudge habit names 2>/dev/null"))
    var name: String

    func run(_ ctx: Context) throws { try HabitInput.archive(name, true, ctx) }
  }

  /// `nudge habit unarchive NAME`.
  struct Unarchive: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "unarchive", abstract: "Bring an archived habit back.")

    @Argument(
      help: "The habit: its name, any case, or a unique start of it.",
      completion: .shellCommand("nudge habit names 2>/dev/null"))
    var name: String

    func run(_ ctx: Context) throws { try HabitInput.archive(name, false, ctx) }
  }

  /// `nudge habit remove NAME [--yes]`.
  struct Remove: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "remove",
      abstract: "Remove a habit and its days ('nudge undo' today brings it back).")

    @Argument(
      help: "The habit: its name, any case, or a unique start of it.",
      completion: .shellCommand("nudge habit names 2>/dev/null"))
    var name: String

    @Flag(help: "Remove without asking (off a terminal, it is needed).")
    var yes = false

    func run(_ ctx: Context) throws {
      let db = try ctx.openDatabase()
      let today = ctx.today(try db.settings())
      let habit = try HabitInput.find(name, in: try db.habits(), ctx)
      let days = try db.habitChecks(habit.id).count
      if !yes {
        guard ctx.input.isTerminal else {
          throw CLIError(
            "stdin is not a terminal, so Nudge will not ask whether to remove \(HabitText.name(habit)) and its \(days) recorded day\(days == 1 ? "" : "s"); to remove it: nudge habit remove \(HabitText.argument(habit)) --yes",
            code: .usage)
        }
        ctx.output.write(
          "Remove \(HabitText.name(habit)) and its \(days) recorded day\(days == 1 ? "" : "s")? [y/N] "
        )
        guard let answer = ctx.input.readLine(), yesNoValue(answer.trimmingSpaces) == true else {
          ctx.line("Kept.")
          return
        }
      }
      let settled = try HabitChanges(db: db).remove(habit, madeOn: today.day, at: today.savedAt)
      try HabitReminders.update(ctx, db)
      ctx.line(
        "Removed \(HabitText.name(habit)) and its \(days) recorded day\(days == 1 ? "" : "s"). "
          + ctx.style.dim("(nudge undo brings it back, today)"))
      HabitText.sayLost(settled, ctx)
    }
  }

  /// `nudge habit import-loop FILE`: Loop Habit Tracker's full backup, all or nothing.
  struct ImportLoop: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "import-loop",
      abstract: "Bring your habits and their days from Loop Habit Tracker's full backup.",
      discussion: """
        In Loop: Settings, Export full backup; copy the .db file here. Names, questions, \
        frequencies, reminder times, targets and units come, and every check, amount and \
        skip. A habit already here by name is the same habit; the same file again changes \
        nothing. All or nothing: a file Nudge can't take changes nothing.
        """)

    @Argument(help: "The backup file (Loop's SQLite database).", completion: .file())
    var file: String

    func run(_ ctx: Context) throws {
      let db = try ctx.openDatabase()
      let today = ctx.today(try db.settings()).day
      // a file not there, or not readable: no input (66), as `import` says it
      guard ctx.platform.files.isReadable(file) else {
        throw CLIError(
          "cannot read \(VisibleText.escaped(file)): give the file Loop Habit Tracker writes with Settings, Export full backup",
          code: .noInput)
      }
      let backup: LoopBackup
      do throws(LoopBackupError) {
        backup = try LoopBackup.read(path: file, today: today)
      } catch {
        throw CLIError(error.message, code: .badData)
      }
      let mapped: LoopImport
      do throws(InputError) {
        mapped = try LoopImport.of(backup, today: today, reserved: HabitCommand.reservedNames)
      } catch {
        throw CLIError(error.message, code: .badData)
      }
      for habit in mapped.habits where habit.habit.at != nil {
        if let problem = ctx.planTimeProblem(habit.habit.at!) {
          throw CLIError(problem, code: .badData)
        }
      }
      let (count, settled) = try HabitChanges(db: db).importHabits(mapped.habits)
      try HabitReminders.update(ctx, db)
      let checks = mapped.habits.flatMap(\.checks)
      let skips = checks.filter { !$0.done }.count
      ctx.line(
        ctx.style.green("✓")
          + " From Loop: \(mapped.habits.count) habit\(mapped.habits.count == 1 ? "" : "s") (\(count.newHabits) new, \(count.sameHabits) here already), \(checks.count - skips) check\(checks.count - skips == 1 ? "" : "s") and \(skips) skip\(skips == 1 ? "" : "s"): \(count.newChecks) new, \(count.sameChecks) the same, \(count.keptChecks) kept as recorded here."
      )
      for note in mapped.notes { ctx.line(ctx.style.dim("  " + note + ".")) }
      ctx.line(ctx.style.dim("  (an import is not taken back by nudge undo)"))
      if !settled.newAchievements.isEmpty {
        ctx.line("Earned: " + settled.newAchievements.map(\.title).joined(separator: ", ") + ".")
      }
    }
  }

  /// `nudge habit names`: one name a line, for the shell completions. Hidden.
  struct Names: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "names", abstract: "The habits' names, for shell completion.",
      shouldDisplay: false)

    func run(_ ctx: Context) throws {
      for habit in try ctx.openDatabase().habits(includingArchived: true) {
        ctx.line(VisibleText.escaped(habit.name))
      }
    }
  }
}

/// What `habit add` and `habit edit` both take: the habit's time, frequency, target, unit
/// and question (each left as it is by an edit that does not name it).
struct HabitFields: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "When its reminder comes: 9pm, 'weekdays 7:30' or a calendar expression ('off' in edit: none).",
      valueName: "time"))
  var at: String?

  @Option(
    help: ArgumentHelp(
      "How often: daily (add's default), weekdays, Mon,Wed,Fri, 3/week, 2/month, 'every 3 days'.",
      valueName: "spec"))
  var every: String?

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "The amount a day that meets it (measurable; a whole number, with --unit).", valueName: "n"))
  var target: String?

  @Option(help: ArgumentHelp("The target's unit: pages, minutes, glasses.", valueName: "unit"))
  var unit: String?

  @Option(help: ArgumentHelp("What its reminder asks.", valueName: "text"))
  var question: String?

  /// Whether none was given.
  var isEmpty: Bool {
    at == nil && every == nil && target == nil && unit == nil && question == nil
  }
}

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
        : "there is no habit named '\(VisibleText.escaped(name))' (\(names.joined(separator: ", "))).\(Suggestion.hint(for: name, among: names)) See 'nudge habit list --all'.",
      code: .usage)
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
    _ base: Habit, name: String, every: String, at: String?, target: Int?, unit: String?,
    question: String?, _ ctx: Context, renaming: Bool = true
  ) throws -> Habit {
    var habit = base
    do throws(InputError) {
      if renaming { habit.name = try Habit.checkedName(name, reserved: HabitCommand.reservedNames) }
      habit.every = try HabitFrequency.parse(every)
      // what is kept as it was (an imported unit or question, say) is not checked again
      habit.target = try target.map(Habit.checkedTarget)
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
        "--target and --unit go together: a measurable habit has a target a day in a unit (--target 20 --unit pages)",
        code: .usage)
    }
    if let at {
      if let problem = ctx.planTimeProblem(at) { throw CLIError(problem, code: .usage) }
      habit.at = at.trimmingSpaces
    } else {
      habit.at = nil
    }
    return habit
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
    try db.updateHabit(habit, madeOn: today.day, at: today.savedAt)
    try HabitReminders.update(ctx, db)
    ctx.line(
      archived
        ? "Archived \(HabitText.name(habit)): no reminder, not listed; its days are kept (nudge habit unarchive brings it back)."
        : "\(HabitText.name(habit)) is back.")
  }
}

/// How a habit is written for a person.
enum HabitText {
  /// Its name, escaped, in quotes.
  static func name(_ habit: Habit) -> String { "'\(VisibleText.escaped(habit.name))'" }

  /// Its name as a shell argument: quoted when it has spaces or quotes.
  static func argument(_ habit: Habit) -> String { offer(habit, streak: 0).argument }

  /// What its reminder offers.
  static func offer(_ habit: Habit, streak: Int) -> Reminder.HabitOffer {
    Reminder.HabitOffer(
      id: habit.id, name: habit.name, question: habit.question, isMeasurable: habit.isMeasurable,
      streak: streak, streakUnit: habit.every.streakUnit)
  }

  /// What a check replaced, when it was recorded otherwise ("It replaces what was recorded:
  /// 12 pages."); nil when there was nothing, or the same.
  static func replaced(_ before: HabitCheck?, by check: HabitCheck, _ habit: Habit) -> String? {
    guard let before, before.done != check.done || before.value != check.value else {
      return nil
    }
    let what =
      !before.done
      ? "skipped"
      : before.value.map { "\($0) \(habit.unit.map(VisibleText.escaped) ?? "")" } ?? "done"
    return "It replaces what was recorded for that day: \(what). (nudge undo takes it back)"
  }

  /// A reminder time as a person reads it: "weekdays 7:30" as typed, "Mon,Wed,Fri 07:30" for
  /// the calendar expression of one.
  static func time(_ at: String) -> String {
    let words = at.split(separator: " ")
    if words.count == 3, words[1] == "*-*-*" {
      let clock = words[2].split(separator: ":")
      return words[0] + " " + clock.prefix(2).joined(separator: ":")
    }
    if words.count == 2, words[0] == "*-*-*" {
      return words[1].split(separator: ":").prefix(2).joined(separator: ":")
    }
    return at
  }

  /// Says the achievements a change took back (its days no longer earn them).
  static func sayLost(_ settled: HabitChanges.Settled, _ ctx: Context) {
    for lost in settled.lostAchievements {
      ctx.line(
        ctx.style.yellow("Achievement removed: \(lost.title) (its condition no longer holds)."))
    }
  }

  /// "daily at 9pm, 20 pages a day".
  static func describe(_ habit: Habit, style: Style) -> String {
    var text = habit.every.description
    if let at = habit.at { text += ", reminder \(VisibleText.escaped(time(at)))" }
    if let target = habit.target {
      text += ", \(target) \(habit.unit.map(VisibleText.escaped) ?? "") a day"
    }
    return text
  }

  /// "streak 4 days".
  /// "streak 3 days"; "streak 1 week · 2 of 3 this week" for a habit of so many times a week
  /// or a month.
  static func streakLine(_ report: HabitReport) -> String {
    let unit = report.streak == 1 ? String(report.streakUnit.dropLast()) : report.streakUnit
    let period =
      ["weeks", "months"].contains(report.streakUnit)
      ? " · \(report.periodDone) of \(report.periodWants) this \(report.streakUnit.dropLast())"
      : ""
    return "streak \(report.streak) \(unit)\(period)"
  }
}

extension FlowDay {
  /// "today", "yesterday", or the day.
  static func describe(_ day: Day, today: Day) -> String {
    day == today ? "today" : day == today.adding(days: -1) ? "yesterday" : "on \(day.long)"
  }
}
