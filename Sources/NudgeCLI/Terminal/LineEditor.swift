import NudgeCore
import NudgeLinux

/// Reads one answer from a terminal with line editing: Left/Right (Ctrl-B/F), Home/End
/// (Ctrl-A/E), Backspace/Delete, Ctrl-U/K/W, Up/Down through the earlier answers of this run
/// (an answer offered to edit is on the line at first; Tab on an empty line brings it back),
/// Ctrl-D on an empty line to leave, Ctrl-C to stop (marked through `interrupted`). The keys
/// and the line are the core's (`KeyDecoder`, `LineBuffer`); this edge reads the terminal and
/// draws: once per burst of input, so a paste is echoed at the speed of the terminal, and
/// every character that could move the cursor or reorder the line is drawn escaped
/// (`VisibleText`) while the answer keeps it as typed. The terminal is in raw mode only while
/// a line is read and is restored however it ends.
final class LineEditor {
  private var buffer = LineBuffer()
  private let terminal: TerminalDevice
  /// Marks Ctrl-C, read as a key, for the run (the platform's interrupt flag).
  private let interrupted: () -> Void

  init(terminal: TerminalDevice, interrupted: @escaping () -> Void) {
    self.terminal = terminal
    self.interrupted = interrupted
  }

  /// One line, or nil at end of input (Ctrl-D on an empty line, or the terminal went away);
  /// `offering` starts on the line, to edit.
  func readLine(offering: String? = nil) -> String? {
    guard let saved = terminal.enterRawMode() else { return nil }
    // bracketed paste: the terminal marks a paste, whose newlines then stay in the answer
    write("\u{1B}[?2004h")
    defer {
      write("\u{1B}[?2004l")
      terminal.restore(saved)
    }
    write("\u{1B}7")  // the line starts here: every redraw comes back to this point
    var stale = false
    if let offering {
      buffer.offer(offering)
      redraw()
    }
    while let key = KeyDecoder.next({ terminal.readByte() }) {
      switch buffer.apply(key, inputPending: terminal.hasPendingInput()) {
      case .done(let text):
        // the buffer is empty once a line is done: what is left on the screen is the answer
        if stale { redraw(Array(text), cursor: text.count) }
        write("\r\n")
        return text
      case .endOfInput:
        return nil
      case .interrupted:
        write("^C\r\n\u{1B}[0m\u{1B}[?25h")
        interrupted()
        return nil
      case .edited:
        stale = true
      case .unchanged:
        break
      }
      // drawn when the burst is over, not once per character of a paste
      if stale && !terminal.hasPendingInput() {
        redraw()
        stale = false
      }
    }
    return buffer.line.isEmpty ? nil : buffer.text
  }

  private func redraw() { redraw(buffer.line, cursor: buffer.cursor) }

  private func redraw(_ line: [Character], cursor: Int) {
    let shown = { (part: ArraySlice<Character>) in VisibleText.escaped(String(part)) }
    let after = TerminalText.columns(shown(line[cursor...]))
    write(
      "\u{1B}8" + shown(line[...]) + "\u{1B}[J" + (after > 0 ? "\u{1B}[\(after)D" : ""))
  }

  private func write(_ text: String) { terminal.write(text) }
}
