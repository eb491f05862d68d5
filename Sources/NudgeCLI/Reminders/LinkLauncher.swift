import Dispatch
import FoundationEssentials
import NudgeCore
import NudgeLinux
import NudgeStore
import Synchronization

/// Opens a nudge:// link where the person can answer it: a terminal window. The activation
/// token, when the notification server sent one with the click, lets that window take the
/// focus. Throws `TerminalOpenFailure` when no terminal could be opened.
public protocol LinkLauncher: Sendable {
  func open(_ url: String, in ctx: Context, activationToken: String?) throws
}

/// The live launcher: a terminal emulator in its own scope (see `TerminalLauncher`).
struct TerminalLinkLauncher: LinkLauncher {
  func open(_ url: String, in ctx: Context, activationToken: String?) throws {
    try TerminalLauncher(ctx: ctx).open(url, activationToken: activationToken)
  }
}
