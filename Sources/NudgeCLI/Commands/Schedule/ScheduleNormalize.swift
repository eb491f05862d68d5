import ArgumentParser
import FoundationEssentials
import NudgeCore
import NudgeStore

extension ScheduleCommand {
  /// `nudge schedule normalize EXPR`: systemd's normalised form.
  struct Normalize: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "normalize",
      abstract: "Print the normalised form of a calendar expression, as systemd does.")

    @Argument(help: "A calendar expression, e.g. 'Mon..Fri 07:00'.")
    var expression: String

    func run(_ ctx: Context) throws {
      let local = ctx.timeZone
      ctx.line(try ctx.parseCalendar(expression, local: local).normalized)
    }
  }
}
