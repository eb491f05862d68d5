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
  public static func tables(_ text: String) throws(PlanFileError) -> [Table] {
    var tables = [Table(name: "", line: 1)]
    var number = 0
    // split on the "\n" scalar (no grapheme breaking of the whole text: the built-in plans are
    // read at every start); a "\r" before it goes too, so a file written on Windows splits into
    // its lines as well, and any other "\r" stays to be refused as a control character
    let pieces = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
    for (index, piece) in pieces.enumerated() {
      let line =
        index < pieces.count - 1 && piece.last == "\r"
        ? Substring(piece.dropLast()) : Substring(piece)
      number += 1
      if let bad = line.unicodeScalars.first(where: { $0 != "\t" && VisibleText.isHostile($0) }) {
        throw PlanFileError(line: number, refusal(bad))
      }
      let content = line.drop { $0 == " " || $0 == "\t" }
      if content.isEmpty || content.first == "#" { continue }
      if content.hasPrefix("[") {
        tables.append(try header(content, line: number))
        continue
      }
      let entry = try keyValue(content, line: number)
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

  private static func header(_ text: Substring, line: Int) throws(PlanFileError) -> Table {
    let body = withoutComment(text).trimmingSpaces
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

  private static func keyValue(_ text: Substring, line: Int) throws(PlanFileError) -> Entry {
    guard let equals = text.firstIndex(of: "=") else {
      throw PlanFileError(line: line, "expected key = value, a [table] or a # comment")
    }
    let key = String(text[..<equals]).trimmingSpaces
    guard !key.isEmpty, key.allSatisfy({ $0.isASCII && ($0.isLowercase || $0 == "_") }) else {
      throw PlanFileError(line: line, "'\(key)' is not a key (lowercase letters and '_')")
    }
    var rest = text[text.index(after: equals)...].drop { $0 == " " || $0 == "\t" }
    let value = try parseValue(&rest, line: line)
    let after = withoutComment(rest).trimmingSpaces
    guard after.isEmpty else {
      throw PlanFileError(
        line: line, "unexpected '\(after.prefix(20))' after the value of '\(key)'")
    }
    return Entry(key: key, value: value, line: line)
  }

  /// The text before a `#` comment (the caller has consumed any string that may hold one).
  private static func withoutComment(_ text: Substring) -> Substring {
    text.firstIndex(of: "#").map { text[..<$0] } ?? text
  }

  private static func parseValue(_ text: inout Substring, line: Int) throws(PlanFileError)
    -> Value
  {
    guard let first = text.first else {
      throw PlanFileError(line: line, "a value is missing after '='")
    }
    switch first {
    case "\"":
      return .text(try parseString(&text, line: line))
    case "[":
      text = text.dropFirst()
      var items: [String] = []
      while true {
        text = text.drop { $0 == " " || $0 == "\t" }
        if text.first == "]" {
          text = text.dropFirst()
          return .list(items)
        }
        guard text.first == "\"" else {
          throw PlanFileError(line: line, "a list holds \"quoted\" texts, separated by commas")
        }
        items.append(try parseString(&text, line: line))
        text = text.drop { $0 == " " || $0 == "\t" }
        if text.first == "," {
          text = text.dropFirst()
        } else if text.first != "]" {
          throw PlanFileError(line: line, "a list ends with ']' on the same line")
        }
      }
    default:
      let word = text.prefix { !$0.isWhitespace && $0 != "#" }
      text = text.dropFirst(word.count)
      if word == "true" { return .flag(true) }
      if word == "false" { return .flag(false) }
      if let number = Int(word), word.count <= 9 { return .number(number) }
      throw PlanFileError(
        line: line,
        "'\(word.prefix(20))' is not a value: use \"quoted text\", a whole number, true or false, or [\"a\", \"b\"]"
      )
    }
  }

  private static func parseString(_ text: inout Substring, line: Int) throws(PlanFileError)
    -> String
  {
    text = text.dropFirst()  // the opening quote
    var result = ""
    while let c = text.first {
      text = text.dropFirst()
      switch c {
      case "\"":
        return result
      case "\\":
        guard let escaped = text.first else { break }
        text = text.dropFirst()
        switch escaped {
        case "\"": result.append("\"")
        case "\\": result.append("\\")
        case "n": result.append("\n")
        case "t": result.append("\t")
        case "u":
          let digits = text.prefix(4)
          guard digits.count == 4, let value = UInt32(digits, radix: 16),
            let scalar = Unicode.Scalar(value)
          else {
            throw PlanFileError(line: line, "\\u takes four hex digits of a character")
          }
          text = text.dropFirst(4)
          guard !VisibleText.isHostile(scalar) else {
            throw PlanFileError(line: line, refusal(scalar))
          }
          result.unicodeScalars.append(scalar)
        default:
          throw PlanFileError(
            line: line, "'\\\(escaped)' is not an escape: use \\\", \\\\, \\n, \\t or \\uXXXX")
        }
      default:
        result.append(c)
      }
    }
    throw PlanFileError(line: line, "a text is not closed: add '\"' before the end of the line")
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
