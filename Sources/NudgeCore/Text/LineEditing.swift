/// What a key press means to the line editor.
public enum EditorKey: Equatable, Sendable {
  case character(Character)
  /// Tab (typed, or inside a paste): a space in the line, so the words around it stay apart.
  case tab
  case enter, endOfInput, interrupt, backspace, delete, left, right, home, end, up, down
  case killToStart, killToEnd, killWord, pasteStart, pasteEnd, ignored
}

/// Turns the bytes a terminal sends into keys: UTF-8 characters, control keys and the escape
/// sequences of arrows, Home/End, Delete and bracketed paste. Pure: the bytes come from
/// `readByte`, so tests and the fuzzer feed it anything.
public enum KeyDecoder {
  /// The longest escape sequence read before it is dropped as unknown.
  static let maxSequence = 32

  /// The next key, nil when the bytes end.
  public static func next(_ readByte: () -> UInt8?) -> EditorKey? {
    guard let byte = readByte() else { return nil }
    switch byte {
    case 13, 10: return .enter
    case 9: return .tab
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
    case 27: return escape(readByte)
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

  private static func escape(_ readByte: () -> UInt8?) -> EditorKey {
    guard let kind = readByte() else { return .ignored }
    guard kind == UInt8(ascii: "[") || kind == UInt8(ascii: "O") else { return .ignored }
    var parameters = ""
    while let b = readByte() {
      if (0x30...0x3F).contains(b) {
        // an endless parameter list is dropped, not collected
        if parameters.utf8.count < maxSequence { parameters.append(Character(UnicodeScalar(b))) }
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
}

/// The line being edited: its characters (as a person sees them: grapheme clusters), the
/// cursor, and the answers given earlier in the run. Each key costs time in proportion to
/// what it changes, so a paste of any length is taken in time linear in its length; a line
/// stops growing at `maxCharacters`.
public struct LineBuffer: Sendable {
  /// The most characters a line takes (more than any answer may have: the flow then says the
  /// answer is too long).
  public static let maxCharacters = 4 * FreeText.maxLength

  public private(set) var line: [Character] = []
  public private(set) var cursor = 0
  public private(set) var history: [String]
  private var recalled: Int
  private var draft: [Character] = []
  private var pasting = false
  /// The answer put on the line to edit (an earlier one), until the line is done.
  private var offered: [Character]? = nil

  /// What a key did.
  public enum KeyEffect: Equatable, Sendable {
    /// The line changed (or the cursor moved): redraw when no more input is waiting.
    case edited
    /// Nothing to show.
    case unchanged
    /// Enter: the answer.
    case done(String)
    /// Ctrl-D on an empty line, or the input ended.
    case endOfInput
    /// Ctrl-C.
    case interrupted
  }

  public init(history: [String] = []) {
    self.history = history
    recalled = history.count
  }

  /// The line as text.
  public var text: String { String(line) }

  /// Puts `text` on the line to edit, the cursor at its end: an earlier answer, which Enter
  /// keeps, Up brings back (it is the latest of the history) and Tab on an empty line too.
  public mutating func offer(_ text: String) {
    let characters = Array(text.prefix(Self.maxCharacters))
    if !text.trimmingSpaces.isEmpty, history.last != text { history.append(text) }
    recalled = history.count
    offered = characters
    replace(with: characters)
  }

  /// Applies one key; `inputPending` says more input is already waiting (a newline followed
  /// at once by more text is part of a paste: a person's next key comes much later).
  public mutating func apply(_ key: EditorKey, inputPending: Bool) -> KeyEffect {
    switch key {
    case .enter where pasting || inputPending:
      // a newline inside a paste: the answer goes on, on the same line
      if line[..<cursor].last != " " { insert(" ") }
    case .pasteStart: pasting = true
    case .pasteEnd: pasting = false
    case .enter:
      let text = String(line)
      if !text.trimmingSpaces.isEmpty, history.last != text { history.append(text) }
      recalled = history.count
      line = []
      cursor = 0
      offered = nil
      return .done(text)
    case .endOfInput:
      if line.isEmpty { return .endOfInput }
      if cursor < line.count { line.remove(at: cursor) }
    case .interrupt: return .interrupted
    case .character(let c): insert(c)
    case .tab where line.isEmpty && !pasting && offered != nil:
      replace(with: offered ?? [])
    case .tab: insert(" ")
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
    case .down where recalled < history.count:
      recalled += 1
      replace(with: recalled == history.count ? draft : Array(history[recalled]))
    default:
      return .unchanged
    }
    return .edited
  }

  /// Inserts `c` at the cursor, joined with its neighbours when they form one character (a
  /// ZWJ sequence or an accent arriving scalar by scalar); only the neighbours are looked at.
  private mutating func insert(_ c: Character) {
    let before = cursor > 0 ? String(line[cursor - 1]) : ""
    let after = cursor < line.count ? String(line[cursor]) : ""
    let joinedBefore = Array(before + String(c))
    let joined = Array(before + String(c) + after)
    let start = cursor > 0 ? cursor - 1 : cursor
    let end = cursor < line.count ? cursor + 1 : cursor
    let grows = joined.count - (end - start)
    guard line.count + grows <= Self.maxCharacters else { return }
    line.replaceSubrange(start..<end, with: joined)
    cursor = min(start + joinedBefore.count, line.count)
  }

  private mutating func replace(with text: [Character]) {
    line = Array(text.prefix(Self.maxCharacters))
    cursor = line.count
  }
}
