import ArgumentParser
import NudgeCore
import NudgeUseCases

extension HabitCommand {
  /// `nudge habit remind NAME [add|remove TIME]`: a habit's reminder times, listed, one added
  /// or one removed (each is a timer of its own; `habit edit --at` replaces them all).
  struct Remind: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "remind",
      abstract: "List, add or remove a habit's reminder times.",
      discussion: """
        A habit has up to \(Habit.maxReminders) reminders, each its own timer; once the day is \
        done (or skipped, or said no), the rest of that day's reminders stay quiet. \
        'nudge undo' takes a change back.
        """)

    /// What to do with the habit's reminders.
    enum Change: String, ExpressibleByArgument, CaseIterable {
      case add, remove
    }

    @Argument(
      help: "The habit: its name, any case, or a unique start of it.",
      completion: .shellCommand("nudge habit names 2>/dev/null"))
    var name: String

    @Argument(help: "add or remove (without it: list them).")
    var change: Change?

    @Argument(
      help: ArgumentHelp(
        "The time: 9pm, 'weekdays 7:30' or a calendar expression (remove: as listed, or 'all').",
        valueName: "time"))
    var time: String?

    func run(_ ctx: Context) throws {
      guard (change == nil) == (time == nil) else {
        throw CLIError(
          change == nil
            ? "say what to do with that time: nudge habit remind NAME add|remove TIME"
            : "give the time: nudge habit remind NAME \(change!.rawValue) TIME (e.g. 8:00)",
          code: .usage)
      }
      let db = try ctx.openDatabase()
      let today = ctx.today(try db.settings())
      let habit = try HabitInput.find(name, in: try db.habits(), ctx)
      guard let change, let time else {
        ctx.line(said(habit))
        return
      }
      var edited = habit
      switch change {
      case .add:
        edited.reminderTimes = try HabitInput.reminderTimes(habit.reminderTimes + [time], ctx)
      case .remove:
        edited.reminderTimes =
          time.trimmingSpaces.lowercased() == "all"
          ? [] : habit.reminderTimes.filter { !same($0, time, ctx) }
        guard edited.reminderTimes != habit.reminderTimes else {
          throw CLIError(
            "\(HabitText.name(habit)) has no reminder at '\(VisibleText.escaped(time))'"
              + (habit.reminderTimes.isEmpty
                ? "; it has none" : "; its reminders: \(listed(habit))"),
            code: .usage)
        }
      }
      _ = try HabitChanges(db: db).update(edited, madeOn: today.day, at: today.savedAt)
      try HabitReminders.update(ctx, db)
      ctx.line(ctx.style.green("✓") + " " + said(edited))
    }

    /// Whether `time` names the reminder `kept`: as written, or at the same times.
    private func same(_ kept: String, _ time: String, _ ctx: Context) -> Bool {
      let typed = time.trimmingSpaces
      if kept == typed || HabitText.time(kept) == typed { return true }
      guard let a = try? ctx.planSlotSpec(kept).normalized,
        let b = try? ctx.planSlotSpec(typed).normalized
      else { return false }
      return a == b
    }

    private func listed(_ habit: Habit) -> String {
      habit.reminderTimes.map { VisibleText.escaped(HabitText.time($0)) }.joined(
        separator: ", ")
    }

    /// "'Water': reminders 8:00, 20:00", or that it has none and how to add one.
    private func said(_ habit: Habit) -> String {
      guard !habit.reminderTimes.isEmpty else {
        return
          "\(HabitText.name(habit)) has no reminder; add one: nudge habit remind \(HabitText.argument(habit)) add 9pm"
      }
      return "\(HabitText.name(habit)): "
        + (habit.reminderTimes.count == 1 ? "reminder " : "reminders ") + listed(habit)
    }
  }
}
