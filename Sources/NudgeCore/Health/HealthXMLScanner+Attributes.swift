/// How a tag's attributes and their values are read: names to their `=`, values with XML's
/// five entities and the character references XML allows, nothing else expanded.
extension HealthXMLScanner {
  /// `name="value"` pairs; a name runs to its `=` (spaces inside it kept, as older exports
  /// write them), a value to its closing quote.
  static func attributes(
    _ body: UnsafeBufferPointer<UInt8>, offset: Int, keeping kept: Set<String>? = nil
  ) throws -> [(name: String, value: String)] {
    var result: [(name: String, value: String)] = []
    var at = 0
    while true {
      while at < body.count && isSpace(body[at]) { at += 1 }
      guard at < body.count else { return result }
      let nameStart = at
      at = next(0x3D, in: body, from: at)
      guard at < body.count else {
        throw Refusal(offset: offset, message: "an attribute without '=' and a value")
      }
      var nameEnd = at
      while nameEnd > nameStart && isSpace(body[nameEnd - 1]) { nameEnd -= 1 }
      at += 1
      while at < body.count && isSpace(body[at]) { at += 1 }
      guard at < body.count, body[at] == 0x22 || body[at] == 0x27 else {
        throw Refusal(offset: offset, message: "an attribute whose value is not quoted")
      }
      let quote = body[at]
      let valueStart = at + 1
      at = valueStart
      at = next(quote, in: body, from: at)
      guard at < body.count, nameEnd > nameStart else {
        throw Refusal(offset: offset, message: "an attribute without a name or an end")
      }
      let name = String(
        decoding: UnsafeBufferPointer(rebasing: body[nameStart..<nameEnd]), as: UTF8.self)
      if kept?.contains(name) ?? true {
        result.append((name, unescaped(UnsafeBufferPointer(rebasing: body[valueStart..<at]))))
      }
      at += 1
    }
  }

  /// Whether XML allows the character `scalar` in a document.
  static func isXMLChar(_ scalar: UInt32) -> Bool {
    scalar == 0x9 || scalar == 0xA || scalar == 0xD || (0x20...0xD7FF).contains(scalar)
      || (0xE000...0xFFFD).contains(scalar) || (0x10000...0x10FFFF).contains(scalar)
  }

  /// A value with the five entities and character references read; any other `&name;` is kept
  /// as written, never expanded.
  static func unescaped(_ value: UnsafeBufferPointer<UInt8>) -> String {
    guard next(0x26, in: value, from: 0) < value.count else {
      return String(decoding: value, as: UTF8.self)
    }
    var out: [UInt8] = []
    out.reserveCapacity(value.count)
    var at = 0
    while at < value.count {
      let c = value[at]
      // the `;` looked for among the next 12 bytes only: a value of a million `&` costs a
      // million steps, not a million squared
      var semicolon: Int? = nil
      if c == 0x26 {
        var look = at + 1
        while look < min(value.count, at + 13) {
          if value[look] == 0x3B {
            semicolon = look
            break
          }
          look += 1
        }
      }
      guard let semicolon else {
        out.append(c)
        at += 1
        continue
      }
      let name = UnsafeBufferPointer(rebasing: value[(at + 1)..<semicolon])
      var scalar: UInt32? = nil
      switch String(decoding: name, as: UTF8.self) {
      case "lt": scalar = 0x3C
      case "gt": scalar = 0x3E
      case "amp": scalar = 0x26
      case "quot": scalar = 0x22
      case "apos": scalar = 0x27
      case let ref where ref.hasPrefix("#x") || ref.hasPrefix("#X"):
        let digits = ref.dropFirst(2)
        if digits.allSatisfy(\.isHexDigit) { scalar = UInt32(digits, radix: 16) }
      case let ref where ref.hasPrefix("#"):
        let digits = ref.dropFirst()
        if digits.allSatisfy({ $0.isASCII && $0.isNumber }) { scalar = UInt32(digits, radix: 10) }
      default: break
      }
      // only a character XML allows (no control character but tab and line ends, no
      // surrogate, no U+FFFE/FFFF): any other reference is kept as written
      guard let scalar, Self.isXMLChar(scalar), let u = Unicode.Scalar(scalar) else {
        out.append(c)
        at += 1
        continue
      }
      out.append(contentsOf: String(Character(u)).utf8)
      at = semicolon + 1
    }
    return String(decoding: out, as: UTF8.self)
  }
}
