import ArgumentParser

/// `nudge sync`: one person's devices agreeing through a folder a file-sync tool carries
/// (Syncthing, Nextcloud, a USB stick): each device writes only its own files there.
struct SyncCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "sync",
    abstract: "Keep your computers agreeing through a folder Syncthing (or any file sync) carries.",
    discussion: """
      'nudge sync init DIR' joins this computer; do the same on the other one with its copy of \
      the folder. Each computer writes only its own files there (nudge-ID.log and \
      nudge-ID.snapshot), so the file sync never sees two writers of one file. Entries, help \
      notes, pauses, reminder times and the celebrations setting travel; the terminal setting \
      and anything of one machine never do. Changes made apart are merged: the later wins on \
      both, the other is kept as a conflict ('nudge sync status'). Every command takes in what \
      arrived (nothing is read while no file changed) and writes what it changed.
      """,
    subcommands: [Now.self, Init.self, Status.self, Leave.self, Take.self, Drop.self],
    defaultSubcommand: Now.self)

  static let notOn = CLIError(
    "sync is off on this computer: 'nudge sync init DIR' joins it through a shared folder.",
    code: .usage)

  static func noConflict(_ id: Int) -> CLIError {
    CLIError("sync: there is no conflict \(id); 'nudge sync status' lists them.", code: .usage)
  }
}
