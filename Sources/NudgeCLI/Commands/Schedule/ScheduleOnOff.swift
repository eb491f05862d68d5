import ArgumentParser
import FoundationEssentials
import NudgeCore
import NudgeStore

extension ScheduleCommand {
  /// `nudge schedule on SLOT|all`.
  struct On: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "on", abstract: "Turn a slot's reminder on (or all of them).")

    @Argument(help: "morning, midday, evening, weekly or all.")
    var slot: SlotChoice

    func run(_ ctx: Context) throws {
      try change(ctx, try ctx.openDatabase(), slot.slots) { $0.enabled = true }
    }
  }

  /// `nudge schedule off SLOT|all`.
  struct Off: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "off", abstract: "Turn a slot's reminder off (or all of them).")

    @Argument(help: "morning, midday, evening, weekly or all.")
    var slot: SlotChoice

    func run(_ ctx: Context) throws {
      try change(ctx, try ctx.openDatabase(), slot.slots) { $0.enabled = false }
    }
  }
}
