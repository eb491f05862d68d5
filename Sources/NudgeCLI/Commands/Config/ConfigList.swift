import ArgumentParser
import NudgeCore

extension ConfigCommand {
  /// `nudge config list`: every setting, its value and what it takes.
  struct List: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: "List every setting.")

    @Flag(help: "Print the settings as JSON.")
    var json = false

    func run(_ ctx: Context) throws {
      let db = try ctx.openDatabase()
      let settings = try db.settings()
      try ctx.render(
        Dictionary(
          uniqueKeysWithValues: SettingKey.allCases.map { ($0.rawValue, settings.value($0)) }),
        json: json
      ) {
        for key in SettingKey.allCases {
          let value = settings.value(key)
          // the week's start unset: the locale's, said
          let shown =
            key == .weekStart && value.isEmpty
            ? "(your locale's: \(ctx.weekStart(settings).rawValue))"
            : value.isEmpty ? "(auto)" : value
          let mark = settings.values[key] == nil ? ctx.style.dim("  default") : ""
          ctx.line("\(ctx.style.bold(key.rawValue)) = \(shown)\(mark)")
          ctx.line(ctx.style.dim("    \(key.allowed)"))
        }
      }
    }
  }
}
