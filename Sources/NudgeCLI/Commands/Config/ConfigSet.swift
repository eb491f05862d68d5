import ArgumentParser
import NudgeCore
import NudgeUseCases

extension ConfigCommand {
  /// `nudge config set KEY VALUE`: validate and store.
  struct Set: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "set", abstract: "Change a setting.")

    @Argument(help: "The setting.")
    var key: SettingKey

    @Argument(
      parsing: .allUnrecognized,
      help: ArgumentHelp(
        "Its new value: one argument, quoted when it has spaces (it may start with '-').",
        // keys that take the same values are named together (the four staleness windows)
        discussion: SettingKey.allCases.reduce(into: [(keys: [String], allowed: String)]()) {
          groups, key in
          if let index = groups.firstIndex(where: { $0.allowed == key.allowed }) {
            groups[index].keys.append(key.rawValue)
          } else {
            groups.append(([key.rawValue], key.allowed))
          }
        }.map { "\($0.keys.joined(separator: ", ")): \($0.allowed)" }.joined(separator: "; ")),
      completion: .custom { words, index, prefix in
        // the setting is the word before the value
        guard index > 0, index <= words.count, let key = SettingKey(rawValue: words[index - 1])
        else { return [] }
        return key.suggestedValues.filter { $0.hasPrefix(prefix) }
      })
    var words: [String] = []

    func run(_ ctx: Context) throws {
      guard words.count == 1, let value = words.first else {
        throw CLIError(
          "give the new value as one argument (quote it if it has spaces): nudge config set \(key.rawValue) 'VALUE'.",
          code: .usage)
      }
      let valid: String
      do { valid = try key.validate(value) } catch { throw CLIError.usage(error) }
      if key == .terminal, let missing = TerminalLauncher(ctx: ctx).missingProgram(valid) {
        throw CLIError(
          "'\(missing)' is not installed here (not found on PATH), so a click could not open it; \(TerminalLauncher(ctx: ctx).foundSentence).",
          code: .usage)
      }
      let db = try ctx.openDatabase()
      // made on today as the new value counts it (a new rollover hour moves the day undo reads)
      var after = try db.settings()
      after.values[key] = valid
      let settings = try ChangeSetting(db: db).set(
        key, to: valid, madeOn: ctx.today(after).day,
        at: InstantFormat.format(ctx.clock.started, in: ctx.timeZone))
      ctx.line("\(key.rawValue) = \(valid.isEmpty ? "(auto)" : valid)")
      try UserUnits(ctx: ctx, dryRun: false).updateWindows(settings, db: db)
    }
  }
}
