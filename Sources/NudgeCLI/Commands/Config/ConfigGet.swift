import ArgumentParser
import NudgeCore

extension ConfigCommand {
  /// `nudge config get KEY`: one value.
  struct Get: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "get", abstract: "Print one setting's value.")

    @Argument(help: "The setting.")
    var key: SettingKey

    func run(_ ctx: Context) throws {
      let db = try ctx.openDatabase()
      ctx.line(try db.settings().value(key))
    }
  }
}
