import ArgumentParser

/// `nudge config`: list, read and change settings.
struct ConfigCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "config", abstract: "Show and change settings.",
    subcommands: [List.self, Get.self, Set.self, Unset.self], defaultSubcommand: List.self)

}
