/// JSON text written and read byte by byte where Codable's generic machinery would cost more
/// than the work itself: strings escaped exactly as `JSONEncoder` escapes them, and the flat
/// object of string → string the store keeps an entry's answers in. Tests hold both to
/// `JSONEncoder` and `JSONDecoder`.
public enum FlatJSON {
  /// Appends `text` as a JSON string, quotes included, escaped as `JSONEncoder` escapes it:
  /// `"` and `\`, `\b \f \n \r \t`, other controls as `\u00XX`, and `/` as `\/` unless
  /// `escapingSlashes` is false (`.withoutEscapingSlashes`).
  public static func appendString(_ text: String, to out: inout [UInt8], escapingSlashes: Bool) {
    var text = text
    text.withUTF8 { utf8 in
      out.append(UInt8(ascii: "\""))
      // the runs between bytes to escape are copied whole (most texts have none)
      var run = 0
      for index in utf8.indices {
        let byte = utf8[index]
        guard
          byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
            || (byte == UInt8(ascii: "/") && escapingSlashes)
        else { continue }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<index]))
        run = index + 1
        out.append(UInt8(ascii: "\\"))
        switch byte {
        case 0x08: out.append(UInt8(ascii: "b"))
        case 0x0C: out.append(UInt8(ascii: "f"))
        case 0x0A: out.append(UInt8(ascii: "n"))
        case 0x0D: out.append(UInt8(ascii: "r"))
        case 0x09: out.append(UInt8(ascii: "t"))
        case 0x00..<0x20:
          out += Array("u00".utf8)
          out.append(hexDigits[Int(byte >> 4)])
          out.append(hexDigits[Int(byte & 0xF)])
        default: out.append(byte)  // " \ and /
        }
      }
      out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run...]))
      out.append(UInt8(ascii: "\""))
    }
  }

  private static let hexDigits = Array("0123456789abcdef".utf8)

  /// The compact object of `values`, keys sorted, as the store keeps an entry's answers
  /// (`{"a":"x","b":"y"}`, slashes escaped).
  public static func object(_ values: [String: String]) -> String {
    var out: [UInt8] = [UInt8(ascii: "{")]
    for (index, key) in values.keys.sorted().enumerated() {
      if index > 0 { out.append(UInt8(ascii: ",")) }
      appendString(key, to: &out, escapingSlashes: true)
      out.append(UInt8(ascii: ":"))
      appendString(values[key]!, to: &out, escapingSlashes: true)
    }
    out.append(UInt8(ascii: "}"))
    return String(decoding: out, as: UTF8.self)
  }

  /// Reads a JSON object whose every value is a string (`object`'s output, or any JSON
  /// spelling of one: spaces, escapes); nil for anything else (another shape, invalid JSON, a
  /// key twice), which the caller reads with `JSONDecoder` to say what is wrong.
  public static func stringObject(_ text: String) -> [String: String]? {
    var reader = JSONBytes(bytes: Array(text.utf8), trusted: true)
    return try? reader.stringObject()
  }

  /// `stringObject` of the text `bytes` hold (a database column's), read as
  /// `String(decoding:as:)` reads them: checked once to be UTF-8 (ASCII at a glance, most
  /// are), and repaired as a `String` when they are not.
  public static func stringObject(utf8 bytes: [UInt8]) -> [String: String]? {
    guard JSONBytes.isUTF8(bytes) else {
      return stringObject(String(decoding: bytes, as: UTF8.self))
    }
    var reader = JSONBytes(bytes: bytes, trusted: true)
    return try? reader.stringObject()
  }
}
