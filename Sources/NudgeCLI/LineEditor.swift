import FoundationEssentials
import NudgeCore
import NudgeDesktop

/// Reads one answer from a terminal with line editing: Left/Right (Ctrl-B/F), Home/End
/// (Ctrl-A/E), Backspace/Delete, Ctrl-U/K/W, Up/Down through the earlier answers of this run,
/// Ctrl-D on an empty line to leave, Ctrl-C to stop (marked through `interrupted`). It edits whole
/// characters as a person sees them (grapheme clusters: a family emoji is one), and a pasted
/// text of several lines stays one answer (bracketed paste, or lines that arrive at once).
/// The terminal is in raw mode only while a line is read and is restored however it ends.
final class LineEditor {
  private var history: [String] = []
  private let terminal: TerminalDevice
  /// Marks Ctrl-C, read as a key, for the run (the platform's interrupt flag).
  private let interrupted: () -> Void

  init(terminal: TerminalDevice, interrupted: @escaping () -> Void) {
    self.terminal = terminal
    self.interrupted = interrupted
  }

  /// One line, or nil at end of input (Ctrl-D on an empty line, or the terminal went away).
  func readLine() -> String? {
    guard let saved = terminal.enterRawMode() else { return nil }
    // bracketed paste: the terminal marks a paste, whose newlines then stay in the answer
    write("\u{1B}[?2004h")
    defer {
      write("\u{1B}[?2004l")
      terminal.restore(saved)
    }
    write("\u{1B}7")  // the line starts here: every redraw comes back to this point
    var line: [Character] = []
    var cursor = 0
    var recalled = history.count
    var draft: [Character] = []
    var pasting = false
    func redraw() {
      let after = TerminalText.columns(String(line[cursor...]))
      write("\u{1B}8" + String(line) + "\u{1B}[J" + (after > 0 ? "\u{1B}[\(after)D" : ""))
    }
    func insert(_ c: Character) {
      // joined again as text, so scalars that arrive one by one (a ZWJ sequence, an accent)
      // become the one character a person sees
      let before = String(line[..<cursor]) + String(c)
      let joined = Array(before + String(line[cursor...]))
      cursor = min(Array(before).count, joined.count)
      line = joined
    }
    func replace(with text: [Character]) {
      line = text
      cursor = line.count
      redraw()
    }
    while let key = readKey() {
      switch key {
      case .enter where pasting || inputPending():
        // a newline inside a paste: the answer goes on, on the same line
        if line[..<cursor].last != " " { insert(" ") }
      case .pasteStart: pasting = true
      case .pasteEnd: pasting = false
      case .enter:
        write("\r\n")
        let text = String(line)
        if !text.trimmingSpaces.isEmpty, history.last != text {
          history.append(text)
        }
        return text
      case .endOfInput:
        if line.isEmpty { return nil }
        if cursor < line.count { line.remove(at: cursor) }
      case .interrupt:
        write("^C\r\n\u{1B}[0m\u{1B}[?25h")
        interrupted()
        return nil
      case .character(let c):
        insert(c)
      case .backspace where cursor > 0:
        cursor -= 1
        line.remove(at: cursor)
      case .delete where cursor < line.count: line.remove(at: cursor)
      case .left where cursor > 0: cursor -= 1
      case .right where cursor < line.count: cursor += 1
      case .home: cursor = 0
      case .end: cursor = line.count
      case .killToStart:
        line.removeFirst(cursor)
        cursor = 0
      case .killToEnd: line.removeLast(line.count - cursor)
      case .killWord:
        var start = cursor
        while start > 0 && line[start - 1] == " " { start -= 1 }
        while start > 0 && line[start - 1] != " " { start -= 1 }
        line.removeSubrange(start..<cursor)
        cursor = start
      case .up where recalled > 0:
        if recalled == history.count { draft = line }
        recalled -= 1
        replace(with: Array(history[recalled]))
        continue
      case .down where recalled < history.count:
        recalled += 1
        replace(with: recalled == history.count ? draft : Array(history[recalled]))
        continue
      default:
        continue
      }
      redraw()
    }
    return line.isEmpty ? nil : String(line)
  }

  /// What a key press means to the editor.
  enum Key: Equatable {
    case character(Character)
    case enter, endOfInput, interrupt, backspace, delete, left, right, home, end, up, down
    case killToStart, killToEnd, killWord, pasteStart, pasteEnd, ignored
  }

  /// True when more input is already waiting: a newline followed at once by more text is
  /// part of a paste (a person's next key comes many milliseconds later).
  private func inputPending() -> Bool { terminal.hasPendingInput() }

  /// The next key, decoding UTF-8 and the escape sequences terminals send; nil when input ends.
  private func readKey() -> Key? {
    guard let byte = readByte() else { return nil }
    switch byte {
    case 13, 10: return .enter
    case 4: return .endOfInput
    case 3: return .interrupt
    case 127, 8: return .backspace
    case 1: return .home
    case 5: return .end
    case 2: return .left
    case 6: return .right
    case 21: return .killToStart
    case 11: return .killToEnd
    case 23: return .killWord
    case 16: return .up
    case 14: return .down
    case 27: return readEscape()
    case 0..<32: return .ignored
    default:
      var bytes = [byte]
      let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
      while bytes.count < length, let next = readByte() { bytes.append(next) }
      guard let c = String(decoding: bytes, as: UTF8.self).first, c != "\u{FFFD}" else {
        return .ignored
      }
      return .character(c)
    }
  }

  private func readEscape() -> Key {
    guard let kind = readByte() else { return .ignored }
    guard kind == UInt8(ascii: "[") || kind == UInt8(ascii: "O") else { return .ignored }
    var parameters = ""
    while let b = readByte() {
      if (0x30...0x3F).contains(b) {
        parameters.append(Character(UnicodeScalar(b)))
        continue
      }
      switch (b, parameters) {
      case (UInt8(ascii: "A"), _): return .up
      case (UInt8(ascii: "B"), _): return .down
      case (UInt8(ascii: "C"), _): return .right
      case (UInt8(ascii: "D"), _): return .left
      case (UInt8(ascii: "H"), _): return .home
      case (UInt8(ascii: "F"), _): return .end
      case (UInt8(ascii: "~"), "1"), (UInt8(ascii: "~"), "7"): return .home
      case (UInt8(ascii: "~"), "4"), (UInt8(ascii: "~"), "8"): return .end
      case (UInt8(ascii: "~"), "3"): return .delete
      case (UInt8(ascii: "~"), "200"): return .pasteStart
      case (UInt8(ascii: "~"), "201"): return .pasteEnd
      default: return .ignored
      }
    }
    return .ignored
  }

  private func readByte() -> UInt8? { terminal.readByte() }

  private func write(_ text: String) { terminal.write(text) }
}
