extension Nudge {
  /// The words of nudge's own commands (a plan's flow cannot take one), and `help`. Written
  /// out: reading them from the commands' configurations initialises all of them, a few
  /// percent of every start that reads the plans; `RootHelpTests` holds the list to them.
  static let commandWords: Set<String> = [
    "today", "prep", "review", "checkin", "need-help", "show", "history", "edit", "delete",
    "undo", "redo", "pause", "resume", "week", "streak", "achievements", "celebrate", "schedule",
    "notify", "log", "open", "doctor", "install", "uninstall", "daemon", "config", "plan",
    "habit", "sync", "export", "import", "health", "help", "status", "tray",
  ]
}
