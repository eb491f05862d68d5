import ArgumentParser
import NudgeCore
import NudgeUseCases

extension ConfigCommand {
  /// `nudge config unset KEY`: back to the default.
  struct Unset: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "unset", abstract: "Return a setting to its default.")

    @Argument(help: "The setting.")
    var key: SettingKey

    func run(_ ctx: Context) throws {
      let db = try ctx.openDatabase()
      // made on today as the default counts it (a rollover hour moves the day undo reads)
      var after = try db.settings()
      after.values[key] = nil
      let settings = try ChangeSetting(db: db).unset(
        key, madeOn: ctx.today(after).day,
        at: InstantFormat.format(ctx.clock.started, in: ctx.timeZone))
      try UserUnits(ctx: ctx, dryRun: false).updateWindows(settings, db: db)
      ctx.line(
        "\(key.rawValue) = \(key.defaultValue.isEmpty ? "(auto)" : key.defaultValue) (default)"
      )
    }
  }
}
