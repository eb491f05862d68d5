import FoundationEssentials

/// The top-level object of `ExportDocument.encoded()`, as JSONEncoder lays it out with
/// `.prettyPrinted` (two spaces a level, `"key" : value`, an empty list as `[`, an empty line,
/// `]`).
struct ExportWriter {
  var bytes: [UInt8] = []
  /// Whether the object being written has no field yet.
  private var firstField = true

  init() { bytes.reserveCapacity(1 << 20) }

  mutating func raw(_ text: String) {
    var text = text
    text.withUTF8 { bytes.append(contentsOf: $0) }
  }

  /// `"key" : value` one level in, the value as `NudgeJSON` writes it.
  mutating func member<T: Encodable>(_ key: String, _ value: T, last: Bool = false) throws {
    raw("  \"\(key)\" : ")
    // a nested value's lines one level further in, its empty line (an empty list's) left
    // empty (a JSON string holds no line break)
    var lineStart = false
    for byte in try NudgeJSON.encode(value) {
      if lineStart && byte != 0x0A { raw("  ") }
      bytes.append(byte)
      lineStart = byte == 0x0A
    }
    raw(last ? "\n" : ",\n")
  }

  /// `"key" : [ … ]`, each item an object whose fields `fields` writes in key order.
  mutating func entries<T>(_ key: String, _ items: [T], _ fields: (inout Self, T) -> Void) {
    raw("  \"\(key)\" : [\n")
    if items.isEmpty { raw("\n") }
    for (index, item) in items.enumerated() {
      raw(index == 0 ? "    {\n" : ",\n    {\n")
      firstField = true
      fields(&self, item)
      raw("\n    }")
      if index == items.count - 1 { raw("\n") }
    }
    raw("  ],\n")
  }

  private mutating func name(_ key: StaticString) {
    if !firstField { raw(",\n") }
    firstField = false
    raw("      \"")
    bytes.append(
      contentsOf: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
    raw("\" : ")
  }

  /// A text field; none when nil (as `encodeIfPresent` leaves it out).
  mutating func field(_ key: StaticString, _ value: String?) {
    guard let value else { return }
    name(key)
    FlatJSON.appendString(value, to: &bytes, escapingSlashes: false)
  }

  mutating func field(_ key: StaticString, _ value: Bool?) {
    guard let value else { return }
    name(key)
    raw(value ? "true" : "false")
  }
}
