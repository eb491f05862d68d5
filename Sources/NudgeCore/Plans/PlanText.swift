/// The plan file's syntax: a small, strict subset of TOML, read line by line so every error
/// names its line. Comments (`#`), `key = value` pairs, tables (`[plan]`) and arrays of tables
/// (`[[flow]]`, `[[flow.question]]`, which belong to the flow above them). A value is a
/// "basic string" (escapes `\"` `\\` `\n` `\t` `\uXXXX`), a whole number, `true`/`false`, or an
/// array of strings on one line. Nothing else is read: no dates, no inline tables, no
/// multi-line strings, no dotted keys.
public enum PlanText {
  /// One value of a `key = value` line.
  public enum Value: Equatable, Sendable {
    case text(String)
    case number(Int)
    case flag(Bool)
    case list([String])

    /// How an error names its kind.
    var kind: String {
      switch self {
      case .text: "text"
      case .number: "a number"
      case .flag: "true or false"
      case .list: "a list"
      }
    }
  }

  /// A `key = value` line and where it is.
  public struct Entry: Equatable, Sendable {
    public var key: String
    public var value: Value
    public var line: Int
  }

  /// A table (`[plan]`) or one element of an array of tables (`[[flow]]`): its header's name,
  /// the line it starts on, and its entries in order.
  public struct Table: Equatable, Sendable {
    public var name: String
    public var line: Int
    public var entries: [Entry] = []
  }

  /// Reads `text` into its tables, in order; the entries before any header are the table named
  /// "" (the top). Throws the first line that is not this syntax.
  ///
  /// The text is read as UTF-8 bytes, not as characters: the built-in plans are read at every
  /// start, and breaking their text into graphemes cost a millisecond of each. Every byte the
  /// syntax means is ASCII, so a multi-byte character is only ever copied into a text.
  public static func tables(_ text: String) throws(PlanFileError) -> [Table] {
    var reader = Reader(bytes: Array(text.utf8))
    var tables = [Table(name: "", line: 1)]
    var number = 0
    var start = 0
    // lines end at "\n"; a "\r" before it goes too, so a file written on Windows splits into
    // its lines as well, and any other "\r" stays to be refused as a control character
    while start <= reader.bytes.count {
      var end = start
      while end < reader.bytes.count && reader.bytes[end] != UInt8(ascii: "\n") { end += 1 }
      let last = end == reader.bytes.count
      number += 1
      reader.line = number
      reader.position = start
      reader.end =
        !last && end > start && reader.bytes[end - 1] == UInt8(ascii: "\r") ? end - 1 : end
      start = end + 1
      try reader.refuseHostile()
      reader.skipBlanks()
      guard let first = reader.peek, first != UInt8(ascii: "#") else { continue }
      if first == UInt8(ascii: "[") {
        if let table = reader.asciiHeader() {
          tables.append(table)
        } else {
          tables.append(try header(reader.rest, line: number))
        }
        continue
      }
      let entry = try reader.keyValue()
      if tables[tables.count - 1].entries.contains(where: { $0.key == entry.key }) {
        throw PlanFileError(line: number, "'\(entry.key)' is set twice in this table")
      }
      tables[tables.count - 1].entries.append(entry)
    }
    return tables
  }

  /// Why a character that acts on the terminal or the text's direction is refused.
  static func refusal(_ scalar: Unicode.Scalar) -> String {
    "a control character (U+\(hex(scalar.value))) is not allowed in a plan file: plans are text to show"
  }

  private static func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }

  private static func header(_ text: String, line: Int) throws(PlanFileError) -> Table {
    let body = (text.firstIndex(of: "#").map { text[..<$0] } ?? text[...]).trimmingSpaces
    let double = body.hasPrefix("[[")
    let open = double ? 2 : 1
    guard body.count > open * 2, body.hasSuffix(double ? "]]" : "]") else {
      throw PlanFileError(line: line, "a table header is [name] or [[name]] on a line of its own")
    }
    let name = String(body.dropFirst(open).dropLast(open)).trimmingSpaces
    guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0 == "." || $0 == "-") })
    else {
      throw PlanFileError(line: line, "'\(name)' is not a table name (letters, '-' and '.')")
    }
    return Table(name: double ? "[[\(name)]]" : name, line: line)
  }

  /// One line of the text being read: its bytes from `position` to `end`.
  private struct Reader {
    let bytes: [UInt8]
    var position = 0
    var end = 0
    var line = 0

    var peek: UInt8? { position < end ? bytes[position] : nil }

    /// The rest of the line as text.
    var rest: String { text(position, end) }

    func text(_ from: Int, _ to: Int) -> String {
      String(decoding: bytes[from..<to], as: UTF8.self)
    }

    /// The text from `from` to `to` without the spaces at its ends.
    func trimmed(_ from: Int, _ to: Int) -> String {
      var (from, to) = (from, to)
      guard bytes[from..<to].allSatisfy({ $0 < 0x80 }) else {
        return text(from, to).trimmingSpaces  // the Unicode spaces too
      }
      while from < to && Self.isBlank(bytes[from]) { from += 1 }
      while to > from && Self.isBlank(bytes[to - 1]) { to -= 1 }
      return text(from, to)
    }

    /// ASCII's white space: what `Character.isWhitespace` says of an ASCII character.
    static func isASCIISpace(_ byte: UInt8) -> Bool {
      byte == UInt8(ascii: " ") || (0x09...0x0D).contains(byte)
    }

    static func isBlank(_ byte: UInt8) -> Bool {
      byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }

    mutating func skipBlanks() {
      while position < end && Self.isBlank(bytes[position]) { position += 1 }
    }

    /// A header line of ASCII letters, `.` and `-` in `[…]` or `[[…]]`, without spaces or a
    /// comment, read from its bytes; nil for any other line, which `header` reads.
    func asciiHeader() -> Table? {
      let double = end - position > 4 && bytes[position + 1] == UInt8(ascii: "[")
      let open = double ? 2 : 1
      guard end - position > open * 2 else { return nil }
      for index in 0..<open
      where bytes[position + index] != UInt8(ascii: "[")
        || bytes[end - 1 - index] != UInt8(ascii: "]")
      {
        return nil
      }
      let name = bytes[(position + open)..<(end - open)]
      guard
        name.allSatisfy({
          ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x41 && $0 <= 0x5A) || $0 == UInt8(ascii: ".")
            || $0 == UInt8(ascii: "-")
        })
      else { return nil }
      let text = String(decoding: name, as: UTF8.self)
      return Table(name: double ? "[[\(text)]]" : text, line: line)
    }

    /// Throws the line's first character that acts on the terminal or the text's direction
    /// (a tab is allowed). A line of printable ASCII is judged without decoding it.
    func refuseHostile() throws(PlanFileError) {
      guard
        bytes[position..<end].contains(where: {
          ($0 < 0x20 && $0 != UInt8(ascii: "\t")) || $0 >= 0x7F
        })
      else { return }
      if let bad = text(position, end).unicodeScalars.first(where: {
        $0 != "\t" && VisibleText.isHostile($0)
      }) {
        throw PlanFileError(line: line, PlanText.refusal(bad))
      }
    }

    mutating func keyValue() throws(PlanFileError) -> Entry {
      guard let equals = bytes[position..<end].firstIndex(of: UInt8(ascii: "=")) else {
        throw PlanFileError(line: line, "expected key = value, a [table] or a # comment")
      }
      let key = trimmed(position, equals)
      guard !key.isEmpty, key.utf8.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x5F }) else {
        throw PlanFileError(line: line, "'\(key)' is not a key (lowercase letters and '_')")
      }
      position = equals + 1
      skipBlanks()
      let value = try parseValue()
      let comment = bytes[position..<end].firstIndex(of: UInt8(ascii: "#")) ?? end
      let after = trimmed(position, comment)
      guard after.isEmpty else {
        throw PlanFileError(
          line: line, "unexpected '\(after.prefix(20))' after the value of '\(key)'")
      }
      return Entry(key: key, value: value, line: line)
    }

    mutating func parseValue() throws(PlanFileError) -> Value {
      guard let first = peek else {
        throw PlanFileError(line: line, "a value is missing after '='")
      }
      switch first {
      case UInt8(ascii: "\""):
        return .text(try parseString())
      case UInt8(ascii: "["):
        position += 1
        var items: [String] = []
        while true {
          skipBlanks()
          if peek == UInt8(ascii: "]") {
            position += 1
            return .list(items)
          }
          guard peek == UInt8(ascii: "\"") else {
            throw PlanFileError(line: line, "a list holds \"quoted\" texts, separated by commas")
          }
          items.append(try parseString())
          skipBlanks()
          if peek == UInt8(ascii: ",") {
            position += 1
          } else if peek != UInt8(ascii: "]") {
            throw PlanFileError(line: line, "a list ends with ']' on the same line")
          }
        }
      default:
        // a word runs to a space (any of Unicode's) or a comment; an ASCII word is found by
        // its bytes
        var stop = position
        while stop < end && bytes[stop] < 0x80 && !Self.isASCIISpace(bytes[stop])
          && bytes[stop] != UInt8(ascii: "#")
        {
          stop += 1
        }
        let word: Substring
        // (a mark after the stop would join it into one character: read as characters then)
        if stop == end || (bytes[stop] < 0x80 && (stop + 1 == end || bytes[stop + 1] < 0x80)) {
          word = Substring(text(position, stop))
        } else {
          let rest = self.rest
          word = rest.prefix { !$0.isWhitespace && $0 != "#" }
        }
        position += word.utf8.count
        if word == "true" { return .flag(true) }
        if word == "false" { return .flag(false) }
        if let number = Int(word), word.count <= 9 { return .number(number) }
        throw PlanFileError(
          line: line,
          "'\(word.prefix(20))' is not a value: use \"quoted text\", a whole number, true or false, or [\"a\", \"b\"]"
        )
      }
    }

    mutating func parseString() throws(PlanFileError) -> String {
      position += 1  // the opening quote
      // a text without escapes (most are) is its bytes up to the closing quote
      var close = position
      while close < end && bytes[close] != UInt8(ascii: "\"") && bytes[close] != UInt8(ascii: "\\")
      {
        close += 1
      }
      if close < end && bytes[close] == UInt8(ascii: "\"") {
        let plain = text(position, close)
        position = close + 1
        return plain
      }
      var result: [UInt8] = []
      while position < end {
        let byte = bytes[position]
        position += 1
        switch byte {
        case UInt8(ascii: "\""):
          return String(decoding: result, as: UTF8.self)
        case UInt8(ascii: "\\"):
          guard position < end else { break }
          let escaped = bytes[position]
          position += 1
          switch escaped {
          case UInt8(ascii: "\""): result.append(UInt8(ascii: "\""))
          case UInt8(ascii: "\\"): result.append(UInt8(ascii: "\\"))
          case UInt8(ascii: "n"): result.append(UInt8(ascii: "\n"))
          case UInt8(ascii: "t"): result.append(UInt8(ascii: "\t"))
          case UInt8(ascii: "u"):
            let digits = text(position, min(position + 4, end))
            guard digits.utf8.count == 4, let value = UInt32(digits, radix: 16),
              let scalar = Unicode.Scalar(value)
            else {
              throw PlanFileError(line: line, "\\u takes four hex digits of a character")
            }
            position += 4
            guard !VisibleText.isHostile(scalar) else {
              throw PlanFileError(line: line, PlanText.refusal(scalar))
            }
            result.append(contentsOf: String(Character(scalar)).utf8)
          default:
            let character = text(position - 1, end).first.map(String.init) ?? ""
            throw PlanFileError(
              line: line,
              "'\\\(character)' is not an escape: use \\\", \\\\, \\n, \\t or \\uXXXX")
          }
        default:
          result.append(byte)
        }
      }
      throw PlanFileError(line: line, "a text is not closed: add '\"' before the end of the line")
    }
  }
}

/// What is wrong with a plan file, and on which line: said as `FILE:LINE: what is wrong and
/// what is allowed`.
public struct PlanFileError: Error, Equatable, Sendable {
  public var line: Int
  public var message: String

  public init(line: Int, _ message: String) {
    self.line = line
    self.message = message
  }

  /// The error as one line, prefixed with the file's name.
  public func described(file: String) -> String { "\(file):\(line): \(message)" }
}
