import ArgumentParser
import NudgeCore

/// `nudge habit`: the person's own habits — add one, mark a day done or skipped, list, show,
/// edit, archive and remove them.
struct HabitCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "habit",
    abstract: "Your own habits: add, done, skip, fail, note, list, show, edit, remove.",
    discussion: """
      A habit is a name, how often you want it (--every: daily, weekdays, Mon,Wed,Fri, 3/week, \
      2/month, 'every 3 days') and, if you like, a reminder time (--at: 9pm, 'weekdays 7:30' or \
      a systemd calendar expression) whose notification offers Done, Snooze, Skip and No. \
      --target and --unit make it measurable (20 pages). A habit is named by its name, any \
      case, or a unique start of it. A day is done, skipped (which excuses it) or failed (a no, \
      the miss it is); any of them can carry a note (--note). 'nudge undo' takes back a done, \
      a skip, a no, a note, an edit or a remove made today.
      """,
    subcommands: [
      Add.self, Done.self, Skip.self, Fail.self, Slip.self, Note.self, List.self, Show.self,
      Edit.self,
      Remind.self, Archive.self,
      Unarchive.self, Remove.self, ImportLoop.self, ImportHarsh.self, ImportHabitica.self,
      Export.self, Names.self,
      Tags.self,
    ],
    defaultSubcommand: List.self)

  /// The words a habit can't be named: `habit`'s own subcommands and nudge's commands.
  static var reservedNames: Set<String> {
    Set(configuration.subcommands.map { $0._commandName }).union(Nudge.commandWords)
  }

}
