import ArgumentParser
import FoundationEssentials
import NudgeCore
import NudgeLinux
import NudgeStore

/// `nudge log`: the reminder log.
struct LogCommand: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "log", abstract: "What happened to each reminder (shown, skipped, clicked...).")

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp("How many entries, newest last (1-100000).", valueName: "n"))
  var limit: Int = 50

  @Flag(help: "Print the log as JSON.")
  var json = false

  func validate() throws {
    guard (1...100_000).contains(limit) else {
      throw outOfRange("--limit", limit, 1...100_000, unit: "entries")
    }
  }

  struct Row: Encodable {
    /// The slot's name, or "demo" (`nudge notify demo`, whichever reminder it showed).
    var slot: Reminder.LoggedSlot
    @NullWhenAbsent var elapse: String?
    var outcome: Reminder.Outcome
    var at: String
    /// Why, for an outcome that has a reason (`open-failed`).
    @NullWhenAbsent var detail: String?
  }

  func run(_ ctx: Context) throws {
    let db = try ctx.openDatabase()
    let local = ctx.timeZone
    // in the order things happened (a catch-up or a changed clock logs an older time later),
    // ties in the order they were logged
    let entries = try db.reminderLog(limit: max(1, limit)).enumerated().map {
      (key: (InstantFormat.parse($0.element.at)?.microseconds ?? 0, $0.offset), entry: $0.element)
    }.sorted { $0.key < $1.key }.map(\.entry)
    try ctx.render(
      entries.map {
        Row(
          slot: $0.slot, elapse: $0.elapse.map { local.iso($0) }, outcome: $0.outcome,
          at: $0.at, detail: $0.detail)
      }, json: json
    ) {
      if entries.isEmpty { ctx.line(ctx.style.dim("No reminders yet.")) }
      // one line a reminder, in local time, its outcomes in order: "shown → clicked"
      var lines: [(slot: Reminder.LoggedSlot, elapse: Int?, time: Int, outcomes: [String])] = []
      for entry in entries {
        // an outcome with a reason says it: "open-failed (konsole exited 1)"
        let outcome =
          entry.outcome.rawValue + (entry.detail.map { " (\(VisibleText.escaped($0)))" } ?? "")
        if let elapse = entry.elapse,
          let index = lines.lastIndex(where: { $0.slot == entry.slot && $0.elapse == elapse })
        {
          lines[index].outcomes.append(outcome)
          continue
        }
        let time = entry.elapse ?? InstantFormat.parse(entry.at)?.seconds ?? 0
        lines.append((entry.slot, entry.elapse, time, [outcome]))
      }
      // each line at the time it shows (the elapse a reminder was for), oldest first
      let ordered = lines.enumerated().sorted {
        $0.element.time == $1.element.time
          ? $0.offset < $1.offset : $0.element.time < $1.element.time
      }.map(\.element)
      // (a plan's own slot, PLAN.SLOT, widens the column rather than being cut)
      let width = max(8, ordered.map(\.slot.rawValue.count).max() ?? 0)
      for line in ordered {
        ctx.line(
          ScheduleCommand.List.friendly(line.time, local) + "  "
            + line.slot.rawValue.padded(to: width) + " " + line.outcomes.joined(separator: " → "))
      }
    }
  }
}
