import ArgumentParser
import NudgeCore
import NudgeLinux
import NudgeStore

/// `nudge status`: today in one line for a status bar (waybar, polybar, i3blocks,
/// xfce4-genmon), `--follow` a new line whenever anything changes, `--open` what a click
/// opens.
struct StatusCommand: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "status",
    abstract: "Today in one line for a status bar; --follow prints a new one on each change.",
    discussion: """
      The line holds the streak, the flow due now, how many habits are left today, or a \
      pause; a tooltip lists the day; its class (due, done, paused, overdue) styles the bar. \
      --follow watches the database and the sync folder (no polling) and prints a line when \
      it changes, and when the part of the day or the day itself turns; it runs until \
      stopped (SIGTERM, Ctrl-C, or its bar closing the pipe). --open opens what a click \
      should: the next flow in a terminal, else the today view.
      """)

  @Option(help: "text, json, waybar, i3blocks, polybar or genmon (xfce4-genmon).")
  var format: PanelFormat? = nil

  @Flag(help: "The same as --format json, as other commands say it.")
  var json = false

  @Flag(help: "Keep running: a new line whenever the status changes.")
  var follow = false

  @Flag(help: "Open the next flow (else the today view) in a terminal, as a click on a bar.")
  var open = false

  /// The command for plain words ("status --format waybar --follow"), without the argument
  /// parser (its first use, a reflection of the command tree, is a third of a start, and a
  /// bar may run this every few seconds); nil for anything else, which the parser reads.
  static func quickParse(_ arguments: [String]) -> Self? {
    guard arguments.first == "status",
      let words = PlainWords(
        arguments.dropFirst(), options: ["--format"], flags: ["--json", "--follow", "--open"]),
      words.positionals.isEmpty
    else { return nil }
    var format: PanelFormat? = nil
    if let word = words.options["--format"] {
      guard let known = PanelFormat(rawValue: word) else { return nil }
      format = known
    }
    // every property set: one the parser did not set cannot be read
    var command = Self()
    command.format = format
    command.json = words.flags.contains("--json")
    command.follow = words.flags.contains("--follow")
    command.open = words.flags.contains("--open")
    guard (try? command.validate()) != nil else { return nil }
    return command
  }

  func validate() throws {
    if follow && open { throw ValidationError("give --follow or --open, not both") }
    if let format, format != .json && json {
      throw ValidationError("give --json or --format \(format.rawValue), not both")
    }
  }

  func run(_ ctx: Context) throws {
    let format: PanelFormat = json ? .json : self.format ?? .text
    let db = try ctx.openDatabase()
    if open {
      let status = try Self.status(ctx, db, at: ctx.clock.started)
      try ctx.launcher.open(status.next.url, in: ctx, activationToken: nil)
      return
    }
    guard follow else {
      ctx.line(format.render(try Self.status(ctx, db, at: ctx.clock.started)))
      return
    }
    var panel = PanelWatch(ctx, db)
    var last: String? = nil
    var saidError: String? = nil
    repeat {
      do {
        let line = format.render(try panel.read().status)
        if line != last {
          ctx.line(line)
          last = line
        }
        saidError = nil
      } catch {
        // a database that cannot be read now (busy, replaced) is said once; the next change
        // tries again (a bar's module that ended would show nothing at all)
        let said = CLIError.from(error)?.message ?? "\(error)"
        if said != saidError {
          ctx.output.writeError("nudge: status: \(said); trying again at the next change\n")
        }
        saidError = said
      }
    } while panel.next(output: ctx.output.descriptor) != .stopped
  }

  /// The status at `now`: the streak, this part of the day's flows (the coach's and those of
  /// the plans that are on), the habits wanted today, and a pause holding today.
  static func status(_ ctx: Context, _ db: AppDatabase, at now: Instant) throws -> PanelStatus {
    try PanelDay.read(ctx, db, at: now).status
  }
}

extension PanelFormat: ExpressibleByArgument {}
