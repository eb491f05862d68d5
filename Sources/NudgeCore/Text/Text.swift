/// Text helpers the standard library lacks (Foundation's are not linked in).
extension StringProtocol {
  /// The text without the characters at either end that match `drop`.
  public func trimming(where drop: (Character) -> Bool) -> String {
    guard let first = firstIndex(where: { !drop($0) }),
      let last = lastIndex(where: { !drop($0) })
    else { return "" }
    return String(self[first...last])
  }

  /// The text without spaces and tabs at either end (newlines kept), like Foundation's
  /// `trimmingCharacters(in: .whitespaces)`.
  public var trimmingSpaces: String { trimming { $0.isWhitespace && !$0.isNewline } }

  /// The text cut or padded with spaces to `width` characters, for columns. (Inlinable: made
  /// for the caller's own type, `String`, its bytes are read without generic calls.)
  @inlinable public func padded(to width: Int) -> String {
    // printable ASCII is a character a byte: counted without finding grapheme boundaries
    let length = utf8.allSatisfy { (0x20...0x7E).contains($0) } ? utf8.count : count
    return length >= width
      ? String(prefix(width)) : self + String(repeating: " ", count: width - length)
  }
}

extension String {
  /// Padded to `width` columns as `padded` does, or cut to `width - 1` with "…" after, so a
  /// cut name is seen to be cut.
  public func fitted(to width: Int) -> String {
    guard count > width, width > 1 else { return padded(to: width) }
    return String(prefix(width - 1)) + "…"
  }
}

/// The directory holding `path`: "." for a bare file name, "/" for a file at the root.
public func parentDirectory(of path: String) -> String {
  guard let slash = path.lastIndex(of: "/") else { return "." }
  return slash == path.startIndex ? "/" : String(path[..<slash])
}

/// Text laid out for a terminal of a given width.
public enum TerminalText {
  /// The columns a character takes on a terminal: 2 for wide (East Asian) characters and
  /// emoji, 1 otherwise.
  public static func columns(_ c: Character) -> Int {
    if c.isASCII { return 1 }
    guard let first = c.unicodeScalars.first else { return 0 }
    if first.properties.isEmojiPresentation
      || c.unicodeScalars.count > 1
        && c.unicodeScalars.contains(where: { $0.value == 0xFE0F || $0.value == 0x200D })
    {
      return 2
    }
    switch first.value {
    case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F,
      0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1FAFF, 0x20000...0x3FFFD:
      return 2
    default: return 1
    }
  }

  /// The columns `text` takes (no escape sequences in it).
  public static func columns<S: StringProtocol>(_ text: S) -> Int {
    // printable ASCII, most words: a column a byte
    if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text.utf8.count }
    return text.reduce(0) { $0 + columns($1) }
  }

  /// `text` broken into lines of at most `width` columns at spaces (a word longer than a line
  /// is cut); the first line keeps the text's leading spaces, the others start with `indent`.
  public static func wrap(_ text: String, width: Int, indent: Int = 0) -> [String] {
    let width = max(width, indent + 10)
    // most lines fit: one whose characters are each one scalar of a known width, with single
    // spaces between its words, is its own only line (a history of ten years is thousands
    // of them; breaking each into graphemes cost a fifth of the command)
    if let columns = fittingColumns(text), columns <= width { return [text] }
    return wrapByCharacters(text, width: width, indent: indent)
  }

  /// `wrap` character by character: the way any text is wrapped.
  static func wrapByCharacters(_ text: String, width: Int, indent: Int) -> [String] {
    let width = max(width, indent + 10)
    let pad = String(repeating: " ", count: indent)
    var lines: [String] = []
    // the first line keeps the text's own leading spaces
    var line = String(text.prefix { $0 == " " })
    var used = line.count
    var empty = true  // no word on this line yet
    func newLine() {
      lines.append(line)
      line = pad
      used = indent
      empty = true
    }
    for var word in text.split(separator: " ") {
      if !empty && used + 1 + columns(word) > width { newLine() }
      // a word wider than what is left of an empty line is cut where the line ends
      while empty && columns(word) > width - used {
        var piece = ""
        var size = 0
        while let c = word.first, used + size + columns(c) <= width || piece.isEmpty {
          piece.append(c)
          size += columns(c)
          word = word.dropFirst()
        }
        line += piece
        used += size
        newLine()
      }
      if word.isEmpty { continue }
      if !empty {
        line += " "
        used += 1
      }
      line += word
      used += columns(word)
      empty = false
    }
    if !empty || lines.isEmpty { lines.append(line) }
    return lines
  }

  /// The columns of `text` when `wrap` would give it back as it is: printable, each character
  /// one scalar (Latin, punctuation, arrows, dingbats that are not emoji: no combining mark,
  /// joiner or variation selector to make two scalars one character), at least one word, and
  /// no run of spaces after the leading ones nor a space at the end. Else nil.
  static func fittingColumns(_ text: String) -> Int? {
    var columns = 0
    var previous: UInt32 = 0x20
    var leading = true
    for scalar in text.unicodeScalars {
      let value = scalar.value
      switch value {
      case 0x20:
        if previous == 0x20 && !leading { return nil }
      case 0x21...0x7E, 0xA0...0x2FF, 0x2010...0x2027, 0x2030...0x205E:
        leading = false
      case 0x2190...0x21FF, 0x2700...0x27BF:
        if scalar.properties.isEmojiPresentation { return nil }
        leading = false
      default:
        return nil
      }
      columns += 1
      previous = value
    }
    return leading || previous == 0x20 ? nil : columns
  }

  /// A run of one line of `wrap(parts:…)`: its text and the part it came from (nil: the
  /// indent the wrapping added).
  public struct Run: Equatable, Sendable {
    public var text: String
    public var part: Int?

    public init(_ text: String, part: Int?) {
      self.text = text
      self.part = part
    }
  }

  /// `parts`, one text, wrapped as `wrap` wraps it, each line as runs that say which part each
  /// piece came from (so each can keep its own colour: the wrapping counts the plain text).
  public static func wrap(parts: [String], width: Int, indent: Int = 0) -> [[Run]] {
    var owner: [Int] = []
    for (index, part) in parts.enumerated() { owner += Array(repeating: index, count: part.count) }
    let plain = Array(parts.joined())
    var at = 0
    return wrap(parts.joined(), width: width, indent: indent).enumerated().map { index, line in
      var runs: [Run] = []
      var rest = Substring(line)
      if index > 0 {
        // a line after the first starts with the indent the wrapping added, where the spaces
        // it broke at were
        while at < plain.count, plain[at] == " " { at += 1 }
        if indent > 0 { runs.append(Run(String(rest.prefix(indent)), part: nil)) }
        rest = rest.dropFirst(indent)
      }
      for c in rest {
        // the spaces a break (or a run of spaces) took out
        while at < plain.count, plain[at] == " ", c != " " { at += 1 }
        var part: Int? = nil
        if at < plain.count, plain[at] == c {
          part = owner[at]
          at += 1
        }
        if let last = runs.last, last.part == part {
          runs[runs.count - 1].text.append(c)
        } else {
          runs.append(Run(String(c), part: part))
        }
      }
      return runs
    }
  }
}

/// "Did you mean …?" for a word Nudge does not know: the closest of the words it does.
public enum Suggestion {
  /// The word of `candidates` closest to `word` (a small edit, a prefix, or one of `synonyms`),
  /// nil when none is close enough to be a likely slip.
  public static func closest(
    to word: String, among candidates: [String], synonyms: [String: String] = [:]
  ) -> String? {
    let typed = word.lowercased()
    guard !typed.isEmpty else { return nil }
    if let meant = synonyms[typed], candidates.contains(meant) { return meant }
    if let exact = candidates.first(where: { $0.lowercased() == typed }) { return exact }
    let scored = candidates.map { ($0, editDistance($0.lowercased(), typed)) }
    if let best = scored.min(by: { $0.1 < $1.1 }),
      best.1 <= max(1, min(3, best.0.count / 3))
    {
      return best.0
    }
    // a start of a longer word ("ach" for achievements), when only one word starts so
    let starting = candidates.filter { typed.count >= 3 && $0.lowercased().hasPrefix(typed) }
    return starting.count == 1 ? starting[0] : nil
  }

  /// " Did you mean 'X'?" or "".
  public static func hint(
    for word: String, among candidates: [String], synonyms: [String: String] = [:]
  ) -> String {
    closest(to: word, among: candidates, synonyms: synonyms).map { " Did you mean '\($0)'?" } ?? ""
  }

  /// Levenshtein distance between two words.
  public static func editDistance(_ a: String, _ b: String) -> Int {
    let (x, y) = (Array(a), Array(b))
    if x.isEmpty || y.isEmpty { return max(x.count, y.count) }
    var row = Array(0...y.count)
    for i in 1...x.count {
      var previous = row[0]
      row[0] = i
      for j in 1...y.count {
        let current = row[j]
        row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (x[i - 1] == y[j - 1] ? 0 : 1))
        previous = current
      }
    }
    return row[y.count]
  }
}

/// Checks bytes that must be UTF-8 text (a plan file): where they first are not.
public enum UTF8Text {
  /// The offset of the first byte that does not start or continue a valid UTF-8 sequence
  /// (overlong forms, surrogates and values past U+10FFFF included); nil when all are valid.
  public static func firstInvalidByte(_ bytes: [UInt8]) -> Int? {
    var parser = Unicode.UTF8.ForwardParser()
    var iterator = bytes.makeIterator()
    var offset = 0
    while true {
      switch parser.parseScalar(from: &iterator) {
      case .valid(let scalar): offset += scalar.count
      case .emptyInput: return nil
      case .error: return offset
      }
    }
  }
}
