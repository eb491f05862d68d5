/// JSON text written and read byte by byte where Codable's generic machinery would cost more
/// than the work itself: strings escaped exactly as `JSONEncoder` escapes them, and the flat
/// object of string → string the store keeps an entry's answers in. Tests hold both to
/// `JSONEncoder` and `JSONDecoder`.
public enum FlatJSON {
  /// Appends `text` as a JSON string, quotes included, escaped as `JSONEncoder` escapes it:
  /// `"` and `\`, `\b \f \n \r \t`, other controls as `\u00XX`, and `/` as `\/` unless
  /// `escapingSlashes` is false (`.withoutEscapingSlashes`).
  public static func appendString(_ text: String, to out: inout [UInt8], escapingSlashes: Bool) {
    out.append(UInt8(ascii: "\""))
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
      case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
      case UInt8(ascii: "/") where escapingSlashes: out += [UInt8(ascii: "\\"), UInt8(ascii: "/")]
      case 0x08: out += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
      case 0x0C: out += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
      case 0x0A: out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
      case 0x0D: out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
      case 0x09: out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
      case 0x00..<0x20:
        out += Array("\\u00".utf8)
        out.append(hexDigits[Int(byte >> 4)])
        out.append(hexDigits[Int(byte & 0xF)])
      default: out.append(byte)
      }
    }
    out.append(UInt8(ascii: "\""))
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
    var text = text
    return text.withUTF8 { bytes in
      var reader = Reader(bytes: bytes)
      return reader.object()
    }
  }

  private struct Reader {
    let bytes: UnsafeBufferPointer<UInt8>
    var at = 0

    mutating func skipSpaces() {
      while at < bytes.count,
        bytes[at] == 0x20 || bytes[at] == 0x09 || bytes[at] == 0x0A || bytes[at] == 0x0D
      {
        at += 1
      }
    }

    mutating func take(_ byte: UInt8) -> Bool {
      skipSpaces()
      guard at < bytes.count, bytes[at] == byte else { return false }
      at += 1
      return true
    }

    mutating func object() -> [String: String]? {
      guard take(UInt8(ascii: "{")) else { return nil }
      var values: [String: String] = [:]
      if !take(UInt8(ascii: "}")) {
        repeat {
          guard let key = string(), take(UInt8(ascii: ":")), let value = string(),
            values.updateValue(value, forKey: key) == nil
          else { return nil }
        } while take(UInt8(ascii: ","))
        guard take(UInt8(ascii: "}")) else { return nil }
      }
      skipSpaces()
      return at == bytes.count ? values : nil
    }

    mutating func string() -> String? {
      guard take(UInt8(ascii: "\"")) else { return nil }
      let start = at
      // the plain run, most strings whole
      while at < bytes.count, bytes[at] != UInt8(ascii: "\""), bytes[at] != UInt8(ascii: "\\"),
        bytes[at] >= 0x20
      {
        at += 1
      }
      guard at < bytes.count else { return nil }
      // the bytes come from a String and the run ends at an ASCII byte: valid UTF-8 as is
      if bytes[at] == UInt8(ascii: "\"") {
        at += 1
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<at - 1]), as: UTF8.self)
      }
      var out = Array(bytes[start..<at])
      while true {
        guard at < bytes.count else { return nil }
        let byte = bytes[at]
        at += 1
        switch byte {
        case UInt8(ascii: "\""): return String(decoding: out, as: UTF8.self)
        case UInt8(ascii: "\\"):
          guard at < bytes.count else { return nil }
          let escape = bytes[at]
          at += 1
          switch escape {
          case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escape)
          case UInt8(ascii: "b"): out.append(0x08)
          case UInt8(ascii: "f"): out.append(0x0C)
          case UInt8(ascii: "n"): out.append(0x0A)
          case UInt8(ascii: "r"): out.append(0x0D)
          case UInt8(ascii: "t"): out.append(0x09)
          case UInt8(ascii: "u"):
            guard var code = hex4() else { return nil }
            if (0xD800..<0xDC00).contains(code) {
              // a surrogate pair: the low half must follow
              guard take(UInt8(ascii: "\\")), at < bytes.count, bytes[at] == UInt8(ascii: "u")
              else { return nil }
              at += 1
              guard let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
              code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let scalar = Unicode.Scalar(code) else { return nil }
            out += Array(String(Character(scalar)).utf8)
          default: return nil
          }
        case 0x00..<0x20: return nil
        default: out.append(byte)
        }
      }
    }

    mutating func hex4() -> UInt32? {
      guard at + 4 <= bytes.count else { return nil }
      var value: UInt32 = 0
      for _ in 0..<4 {
        let byte = bytes[at]
        at += 1
        let digit: UInt8
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
        default: return nil
        }
        value = value << 4 | UInt32(digit)
      }
      return value
    }
  }
}
