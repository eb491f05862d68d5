import ArgumentParser
import FoundationEssentials
import Glibc
import NudgeCore
import NudgeDesktop
import NudgeStore

/// `nudge log`: the reminder log.
struct LogCommand: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "log", abstract: "What happened to each reminder (shown, skipped, clicked…).")

  @Option(help: "How many entries, newest last.")
  var limit: Int = 50

  @Flag(help: "Print the log as JSON.")
  var json = false

  struct Row: Encodable {
    var slot: Slot
    @NullWhenAbsent var elapse: String?
    var outcome: ReminderOutcome
    var at: String
  }

  func run(_ ctx: Context) throws {
    let db = try ctx.openDatabase()
    let local = ctx.timeZone
    let rows = try db.reminderLog(limit: max(1, limit)).map {
      Row(slot: $0.slot, elapse: $0.elapse.map { local.iso($0) }, outcome: $0.outcome, at: $0.at)
    }
    if json {
      ctx.line(try jsonText(rows))
      return
    }
    if rows.isEmpty { ctx.line(ctx.style.dim("No reminders yet.")) }
    for row in rows {
      ctx.line(
        "\(row.at)  \(row.slot.rawValue.padded(to: 8)) \(row.outcome.rawValue.padded(to: 14))"
          + (row.elapse.map { ctx.style.dim(" for \($0)") } ?? ""))
    }
  }
}
