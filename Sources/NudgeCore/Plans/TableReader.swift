/// Takes a table's entries by key and type; what is left when it finishes is refused, with
/// the keys the table allows.
struct TableReader {
  let table: PlanText.Table
  private var taken: [String] = []

  init(_ table: PlanText.Table) { self.table = table }

  func lineOf(_ key: String) -> Int {
    table.entries.first { $0.key == key }?.line ?? table.line
  }

  mutating func take(_ key: String) -> PlanText.Value? {
    taken.append(key)
    return table.entries.first { $0.key == key }?.value
  }

  private func missing(_ key: String) -> PlanFileError {
    let name = table.name.isEmpty ? "the top of the file" : table.name
    return PlanFileError(line: table.line, "\(name) needs '\(key) = ...'")
  }

  private func wrongKind(_ key: String, _ wanted: String, _ value: PlanText.Value)
    -> PlanFileError
  {
    PlanFileError(line: lineOf(key), "\(key) is \(wanted), not \(value.kind)")
  }

  mutating func text(_ key: String, max: Int) throws(PlanFileError) -> String? {
    guard let value = take(key) else { return nil }
    guard case .text(let text) = value else { throw wrongKind(key, "text", value) }
    // (a text of at most `max` bytes has at most `max` characters: no need to count them)
    guard !text.isEmpty, text.utf8.count <= max || text.count <= max else {
      throw PlanFileError(line: lineOf(key), "\(key) is 1 to \(max) characters")
    }
    return text
  }

  /// A required line of text (a title, a question).
  mutating func line(_ key: String) throws(PlanFileError) -> String {
    guard let text = try text(key, max: PlanFile.maxLine) else { throw missing(key) }
    guard !text.utf8.contains(0x0A) else {
      throw PlanFileError(line: lineOf(key), "\(key) is one line (no \\n)")
    }
    return text
  }

  /// A lowercase ASCII letter, then lowercase letters, digits, `-` or `_`: 32 at most.
  static func isID(_ text: String) -> Bool {
    func isLetter(_ byte: UInt8) -> Bool { byte >= 0x61 && byte <= 0x7A }
    let bytes = text.utf8
    return (1...32).contains(bytes.count) && bytes.first.map(isLetter) == true
      && bytes.allSatisfy {
        isLetter($0) || ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: "-")
          || $0 == UInt8(ascii: "_")
      }
  }

  mutating func id(_ key: String) throws(PlanFileError) -> String {
    guard let text = try text(key, max: 32) else { throw missing(key) }
    guard Self.isID(text) else {
      throw PlanFileError(
        line: lineOf(key),
        "'\(text)' is not an id: a lowercase letter, then letters, digits, '-' or '_' (32 at most)")
    }
    return text
  }

  mutating func number(_ key: String, required: Bool = false, in range: ClosedRange<Int>)
    throws(PlanFileError) -> Int?
  {
    guard let value = take(key) else {
      if required { throw missing(key) }
      return nil
    }
    guard case .number(let number) = value else { throw wrongKind(key, "a number", value) }
    guard range.contains(number) else {
      throw PlanFileError(
        line: lineOf(key), "\(key) is from \(range.lowerBound) to \(range.upperBound)")
    }
    return number
  }

  mutating func flag(_ key: String) throws(PlanFileError) -> Bool? {
    guard let value = take(key) else { return nil }
    guard case .flag(let flag) = value else { throw wrongKind(key, "true or false", value) }
    return flag
  }

  mutating func list(_ key: String, required: Bool) throws(PlanFileError) -> [String] {
    guard let value = take(key) else {
      if required { throw missing(key) }
      return []
    }
    guard case .list(let items) = value else { throw wrongKind(key, "a list", value) }
    return items
  }

  /// Refuses the first key nothing took.
  func finish() throws(PlanFileError) {
    if let unknown = table.entries.first(where: { !taken.contains($0.key) }) {
      let name = table.name.isEmpty ? "the top of the file" : table.name
      throw PlanFileError(
        line: unknown.line,
        "'\(unknown.key)' is not a key of \(name): it takes \(taken.joined(separator: ", "))")
    }
  }
}
