import ArgumentParser
import FoundationEssentials
import NudgeCore
import NudgeLinux
import NudgeStore

/// Plays a celebration in the terminal: an ANSI animation sized by tier, or one plain line
/// when stdout is not a terminal, `TERM=dumb`, or animation is off.
struct CelebrationView {
  let ctx: Context
  let animate: Bool

  init(ctx: Context, noAnimation: Bool) {
    self.ctx = ctx
    animate =
      !noAnimation && ctx.output.isTerminal && ctx.environment["TERM"] != "dumb"
  }

  static func symbol(_ tier: CelebrationTier) -> String {
    switch tier {
    case .quiet: "✓"
    case .spark: "✦"
    case .confetti: "🎉"
    case .fireworks: "🎆"
    }
  }

  /// The whole celebration as one line; a replay of an achievement earned earlier says when.
  static func line(
    _ c: Celebration, earnedOn: Day? = nil, title: (Achievement) -> String = \.title
  ) -> String {
    let titles = c.achievements.map(title).joined(separator: ", ")
    let plural = c.achievements.count > 1 ? "s" : ""
    let earned =
      c.achievements.isEmpty
      ? ""
      : earnedOn.map { " Achievement: \(titles), earned \($0.long) \($0.year)." }
        ?? " New achievement\(plural): \(titles)."
    return "\(symbol(c.tier)) \(c.message)\(earned)"
  }

  /// Plays the animation, then leaves the celebration's one line (with any achievement) on
  /// screen. Ctrl-C stops the animation: the rows are cleared, the line still printed, the
  /// cursor and echo restored, and the run then ends with 130.
  func play(_ celebration: Celebration, seed: UInt64, earnedOn: Day? = nil) throws {
    let style = ctx.style
    let line = Self.line(celebration, earnedOn: earnedOn, title: ctx.achievementTitle)
    guard animate, celebration.tier != .quiet else {
      ctx.line(color(celebration.tier, line, style))
      return
    }
    ctx.input.catchInterrupts()
    let (rows, frames) =
      switch celebration.tier {
      case .spark: (1, 8)
      case .confetti: (4, 10)
      default: (7, 12)
      }
    let hidden = TerminalGuard.hideCursor(ctx)
    defer { hidden.showCursor() }
    var rng = SplitMix64(seed: seed)
    ctx.output.write(String(repeating: "\n", count: rows))
    for frame in 0..<frames where !ctx.input.wasInterrupted {
      var canvas = ""
      canvas += "\u{1B}[\(rows)A"
      for row in 0..<rows {
        canvas += "\r\u{1B}[2K"
        canvas += drawRow(
          celebration.tier, row: row, rows: rows, frame: frame, frames: frames, rng: &rng,
          style: style)
        canvas += "\n"
      }
      ctx.output.write(canvas)
      ctx.pause(0.1)
    }
    var clear = "\u{1B}[\(rows)A"
    for _ in 0..<rows { clear += "\r\u{1B}[2K\n" }
    clear += "\u{1B}[\(rows)A"
    ctx.output.write(clear)
    ctx.line(color(celebration.tier, style.bold(line), style))
    if ctx.input.wasInterrupted { throw CLIError.interruptedQuietly }
  }

  private func color(_ tier: CelebrationTier, _ text: String, _ style: Style) -> String {
    switch tier {
    case .quiet, .spark: style.green(text)
    case .confetti: style.yellow(text)
    case .fireworks: style.cyan(text)
    }
  }

  private func drawRow(
    _ tier: CelebrationTier, row: Int, rows: Int, frame: Int, frames: Int,
    rng: inout SplitMix64, style: Style
  ) -> String {
    let width = 40
    let palette = ["31", "32", "33", "34", "35", "36"]
    func paint(_ s: String) -> String {
      style.wrap(palette[Int.random(in: 0..<palette.count, using: &rng)], s)
    }
    switch tier {
    case .spark:
      let n = min(frame + 1, 6)
      return (0..<n).map { i in paint(i % 2 == 0 ? "✦" : "✧") }.joined(separator: " ")
    case .confetti:
      let pieces = ["*", "•", "◆", "▲", "●", "~"]
      var line = Array(repeating: " ", count: width)
      for _ in 0..<6 where (row + frame) % 2 == 0 || Bool.random(using: &rng) {
        line[Int.random(in: 0..<width, using: &rng)] = paint(
          pieces[Int.random(in: 0..<pieces.count, using: &rng)])
      }
      return line.joined()
    default:
      let center = rows / 2
      let radius = Double(frame) * 1.8
      var line = Array(repeating: " ", count: width)
      for x in 0..<width {
        let dx = Double(x - width / 2) / 2
        let dy = Double(row - center)
        let distance = (dx * dx + dy * dy).squareRoot()
        if abs(distance - radius) < 0.7 && Int.random(in: 0..<3, using: &rng) > 0 {
          line[x] = paint(frame < frames - 3 ? "✺" : "·")
        } else if frame < 3 && row >= center && x == width / 2 && rows - row <= frame + 2 {
          line[x] = paint("|")
        }
      }
      return line.joined()
    }
  }
}

/// Hides the cursor and stops echoing keys while an animation plays (an Enter typed during it
/// would move its frame); the animation stops itself on Ctrl-C and restores both.
struct TerminalGuard {
  let output: any TextOutput
  /// The terminal and its modes before the animation turned echo off (nil when stdin is not
  /// a terminal).
  let saved: (TerminalDevice, TerminalModes)?

  static func hideCursor(_ ctx: Context) -> TerminalGuard {
    let terminal = ctx.platform.terminal()
    let modes = terminal?.hideTypedKeys()
    ctx.output.write("\u{1B}[?25l")
    return TerminalGuard(output: ctx.output, saved: terminal.flatMap { t in modes.map { (t, $0) } })
  }

  func showCursor() {
    output.write("\u{1B}[0m\u{1B}[?25h")
    if let (terminal, modes) = saved {
      // what was typed during the animation is dropped, not read as the next answer
      terminal.restore(modes, discardingTypedInput: true)
    }
  }
}
