/// JSON text read byte by byte, for the few shapes Nudge reads often (an export's entries, an
/// entry's answers, the streak checkpoint) where `JSONDecoder`'s generic machinery costs more
/// than the work. It reads strict JSON only: a spelling it does not read throws `Unread`, and
/// the caller goes to `JSONDecoder`, which reads it or says what is wrong.
struct JSONBytes {
  /// A spelling left to `JSONDecoder`.
  struct Unread: Error {}

  let bytes: [UInt8]
  var at = 0
  /// Whether the bytes are known to be UTF-8 (they come from a `String`, or `isUTF8` checked
  /// them whole): texts are then not validated again.
  var trusted = false

  init(bytes: [UInt8], trusted: Bool = false) {
    self.bytes = bytes
    self.trusted = trusted
  }

  /// Whether `bytes` are UTF-8, checked once for a whole text whose strings are then read
  /// without checking each (ASCII at a glance; anything else validated in one pass).
  static func isUTF8(_ bytes: [UInt8]) -> Bool {
    isASCII(bytes) || String(validating: bytes, as: UTF8.self) != nil
  }

  /// Whether every byte is below 0x80: eight bytes at a time (a whole document, or each entry
  /// read back, is checked: a byte at a time was half of that check).
  static func isASCII(_ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBytes { raw in
      var i = 0
      while i + 8 <= raw.count {
        if raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 {
          return false
        }
        i += 8
      }
      while i < raw.count {
        if raw[i] >= 0x80 { return false }
        i += 1
      }
      return true
    }
  }

  /// A JSON object whose every value is a string, and nothing after it.
  mutating func stringObject() throws(JSONBytes.Unread) -> [String: String] {
    try expect(UInt8(ascii: "{"))
    // an entry's answers are a handful: room for them at once, not grown one doubling at a time
    var values = [String: String](minimumCapacity: 8)
    if !take(UInt8(ascii: "}")) {
      repeat {
        let key = try string()
        try expect(UInt8(ascii: ":"))
        guard values.updateValue(try string(), forKey: key) == nil else {
          throw JSONBytes.Unread()
        }
      } while take(UInt8(ascii: ","))
      try expect(UInt8(ascii: "}"))
    }
    skipSpaces()
    guard at == bytes.count else { throw JSONBytes.Unread() }
    return values
  }

  /// An array of flat objects, each made into an entry by `make`.
  mutating func entries<T>(_ make: (inout ExportReader.Fields) throws(JSONBytes.Unread) -> T)
    throws(JSONBytes.Unread) -> [T]
  {
    try expect(UInt8(ascii: "["))
    var list: [T] = []
    if take(UInt8(ascii: "]")) { return list }
    // one pair of lists for every entry's fields, emptied (keeping their room) for the next:
    // not four allocations an entry as they grow
    var fields = ExportReader.Fields()
    fields.names.reserveCapacity(8)
    fields.values.reserveCapacity(8)
    repeat {
      fields.names.removeAll(keepingCapacity: true)
      fields.values.removeAll(keepingCapacity: true)
      try expect(UInt8(ascii: "{"))
      if !take(UInt8(ascii: "}")) {
        repeat {
          let name = try string()
          guard !fields.names.contains(name) else { throw JSONBytes.Unread() }
          try expect(UInt8(ascii: ":"))
          fields.names.append(name)
          fields.values.append(try field())
        } while take(UInt8(ascii: ","))
        try expect(UInt8(ascii: "}"))
      }
      list.append(try make(&fields))
      try fields.finish()
    } while take(UInt8(ascii: ","))
    try expect(UInt8(ascii: "]"))
    return list
  }

  mutating func field() throws(JSONBytes.Unread) -> ExportReader.Field {
    skipSpaces()
    guard at < bytes.count else { throw JSONBytes.Unread() }
    switch bytes[at] {
    case UInt8(ascii: "\""): return .text(try string())
    case UInt8(ascii: "t"):
      try literal("true")
      return .flag(true)
    case UInt8(ascii: "f"):
      try literal("false")
      return .flag(false)
    case UInt8(ascii: "n"):
      try literal("null")
      return .null
    default: throw JSONBytes.Unread()
    }
  }

  mutating func literal(_ word: StaticString) throws(JSONBytes.Unread) {
    let count = word.utf8CodeUnitCount
    guard at + count <= bytes.count else { throw JSONBytes.Unread() }
    for index in 0..<count where bytes[at + index] != word.utf8Start[index] {
      throw JSONBytes.Unread()
    }
    at += count
  }

  /// A whole number of up to nine digits, without sign, fraction or exponent.
  mutating func number() throws(JSONBytes.Unread) -> Int {
    skipSpaces()
    let start = at
    while at < bytes.count, bytes[at] >= UInt8(ascii: "0"), bytes[at] <= UInt8(ascii: "9") {
      at += 1
    }
    let digits = at - start
    guard digits > 0, digits <= 9, digits == 1 || bytes[start] != UInt8(ascii: "0") else {
      throw JSONBytes.Unread()
    }
    if at < bytes.count,
      [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[at])
    {
      throw JSONBytes.Unread()
    }
    return bytes[start..<at].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
  }

  /// Any JSON value, passed over (the nesting was bounded before: `checkNesting`).
  mutating func skipValue() throws(JSONBytes.Unread) {
    skipSpaces()
    guard at < bytes.count else { throw JSONBytes.Unread() }
    switch bytes[at] {
    case UInt8(ascii: "\""): _ = try string()
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      let close = bytes[at] == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
      at += 1
      if take(close) { return }
      repeat {
        if close == UInt8(ascii: "}") {
          _ = try string()
          try expect(UInt8(ascii: ":"))
        }
        try skipValue()
      } while take(UInt8(ascii: ","))
      try expect(close)
    default:
      // a number or a literal: the bytes up to the next delimiter (its decoder checks it)
      let start = at
      while at < bytes.count,
        ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D]
          .contains(bytes[at])
      {
        at += 1
      }
      guard at > start else { throw JSONBytes.Unread() }
    }
  }

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

  mutating func expect(_ byte: UInt8) throws(JSONBytes.Unread) {
    guard take(byte) else { throw JSONBytes.Unread() }
  }

  /// A JSON string: valid UTF-8, the escapes JSON has, no control character.
  mutating func string() throws(JSONBytes.Unread) -> String {
    try expect(UInt8(ascii: "\""))
    let start = at
    while at < bytes.count, bytes[at] != UInt8(ascii: "\""), bytes[at] != UInt8(ascii: "\\"),
      bytes[at] >= 0x20
    {
      at += 1
    }
    guard at < bytes.count else { throw JSONBytes.Unread() }
    if bytes[at] == UInt8(ascii: "\"") {
      at += 1
      return try text(bytes[start..<at - 1])
    }
    var out = Array(bytes[start..<at])
    while true {
      guard at < bytes.count else { throw JSONBytes.Unread() }
      let byte = bytes[at]
      at += 1
      switch byte {
      case UInt8(ascii: "\""): return try text(out[...])
      case UInt8(ascii: "\\"):
        guard at < bytes.count else { throw JSONBytes.Unread() }
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
          var code = try hex4()
          if (0xD800..<0xDC00).contains(code) {
            // a surrogate pair: the low half must follow
            guard at + 1 < bytes.count, bytes[at] == UInt8(ascii: "\\"),
              bytes[at + 1] == UInt8(ascii: "u")
            else { throw JSONBytes.Unread() }
            at += 2
            let low = try hex4()
            guard (0xDC00..<0xE000).contains(low) else { throw JSONBytes.Unread() }
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
          }
          guard let scalar = Unicode.Scalar(code) else { throw JSONBytes.Unread() }
          out += Array(String(Character(scalar)).utf8)
        default: throw JSONBytes.Unread()
        }
      case 0x00..<0x20: throw JSONBytes.Unread()
      default: out.append(byte)
      }
    }
  }

  func text(_ bytes: ArraySlice<UInt8>) throws(JSONBytes.Unread) -> String {
    if trusted { return String(decoding: bytes, as: UTF8.self) }
    guard let text = String(validating: bytes, as: UTF8.self) else { throw JSONBytes.Unread() }
    return text
  }

  mutating func hex4() throws(JSONBytes.Unread) -> UInt32 {
    guard at + 4 <= bytes.count else { throw JSONBytes.Unread() }
    var value: UInt32 = 0
    for _ in 0..<4 {
      let byte = bytes[at]
      at += 1
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: throw JSONBytes.Unread()
      }
      value = value << 4 | UInt32(digit)
    }
    return value
  }
}
