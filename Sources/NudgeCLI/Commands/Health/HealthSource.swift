import ArgumentParser
import NudgeCore
import NudgeStore
import NudgeUseCases

extension HealthCommand {
  /// `nudge health source add|list|remove`: the folders new exports are taken from.
  struct Source: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "source",
      abstract: "The folders whose new exports are taken in (the one your phone's sync fills).",
      subcommands: [Add.self, List.self, Remove.self], defaultSubcommand: List.self)
  }
}

extension HealthCommand.Source {
  struct Add: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "add", abstract: "Take new exports from a folder.")

    @Argument(help: "The folder (yours alone: one others may write to is refused).")
    var folder: String

    func run(_ ctx: Context) throws {
      guard let path = ctx.platform.files.resolvedPath(folder),
        ctx.platform.files.isDirectory(path)
      else {
        throw CLIError(
          "\(folder) is not a folder; name the folder your phone's sync fills.", code: .noInput)
      }
      if let why = ctx.platform.files.othersMayChange(path) {
        throw CLIError(
          "\(path) is not taken as a health source: \(why); make it yours alone (chmod go-w '\(path)').",
          code: .badData)
      }
      guard let store = try ctx.healthStore(create: true) else { return }
      if try TakeHealthExport.folder(path, adding: true, in: store) {
        ctx.line("New exports in \(path) are taken in by 'nudge health' and the morning reminder.")
      } else {
        ctx.line("\(path) is a health source already.")
      }
      try ctx.takeInHealthSources(store)
    }
  }

  struct List: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: "The folders exports are taken from, and the files taken in.")

    func run(_ ctx: Context) throws {
      guard let store = try ctx.healthStore(create: false) else {
        ctx.line("No health sources: add one with 'nudge health source add DIR'.")
        return
      }
      let folders = try store.folders()
      if folders.isEmpty {
        ctx.line("No health source folders: add one with 'nudge health source add DIR'.")
      }
      for folder in folders { ctx.line("folder  \(VisibleText.escaped(folder))") }
      for file in try store.holdings().files { ctx.line("taken   \(VisibleText.escaped(file))") }
    }
  }

  struct Remove: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "remove", abstract: "Stop taking exports from a folder (what was taken stays).")

    @Argument(help: "The folder, as 'source list' shows it.")
    var folder: String

    func run(_ ctx: Context) throws {
      let path = ctx.platform.files.resolvedPath(folder) ?? folder
      guard let store = try ctx.healthStore(create: false),
        try TakeHealthExport.folder(path, adding: false, in: store)
      else {
        throw CLIError(
          "\(folder) is not a health source (see 'nudge health source list').", code: .usage)
      }
      ctx.line(
        "Exports in \(path) are no longer taken in; what was taken stays ('nudge health forget' removes it)."
      )
    }
  }
}
