/// Reads values of known types from bytes in the wire format, checking every length and
/// boundary against the bytes there are.
struct BusReader {
  let bytes: ArraySlice<UInt8>
  let bigEndian: Bool
  /// Where the next value is read, from the start of `bytes` (alignment counts from there).
  private(set) var offset = 0
  /// Variants inside variants: a hostile message could nest them without end.
  private var variantDepth = 0

  init(_ bytes: ArraySlice<UInt8>, bigEndian: Bool) {
    self.bytes = bytes
    self.bigEndian = bigEndian
  }

  var isAtEnd: Bool { offset >= bytes.count }

  mutating func skipPadding(to alignment: Int) throws {
    let aligned = (offset + alignment - 1) / alignment * alignment
    guard aligned <= bytes.count else { throw BusWireError("a message cut short") }
    offset = aligned
  }

  private mutating func take(_ count: Int) throws -> ArraySlice<UInt8> {
    guard count >= 0, count <= bytes.count - offset else {
      throw BusWireError("a message cut short")
    }
    let start = bytes.startIndex + offset
    offset += count
    return bytes[start..<start + count]
  }

  private mutating func fixed<T: FixedWidthInteger>(_: T.Type) throws -> T {
    try skipPadding(to: MemoryLayout<T>.size)
    var value = T.zero
    let raw = try take(MemoryLayout<T>.size)
    withUnsafeMutableBytes(of: &value) { $0.copyBytes(from: raw) }
    return bigEndian ? T(bigEndian: value) : T(littleEndian: value)
  }

  private mutating func text(length: Int) throws -> String {
    let raw = try take(length)
    guard try take(1).first == 0 else { throw BusWireError("a string without its NUL") }
    guard let text = String(validating: raw, as: UTF8.self) else {
      throw BusWireError("a string that is not UTF-8")
    }
    return text
  }

  mutating func read(_ type: BusType) throws -> BusValue {
    switch type {
    case .basic(let code):
      switch code {
      case UInt8(ascii: "y"): return .byte(try take(1).first!)
      case UInt8(ascii: "b"):
        let v = try fixed(UInt32.self)
        guard v <= 1 else { throw BusWireError("a boolean that is neither 0 nor 1") }
        return .boolean(v == 1)
      case UInt8(ascii: "n"): return .int16(try fixed(Int16.self))
      case UInt8(ascii: "q"): return .uint16(try fixed(UInt16.self))
      case UInt8(ascii: "i"): return .int32(try fixed(Int32.self))
      case UInt8(ascii: "u"): return .uint32(try fixed(UInt32.self))
      case UInt8(ascii: "h"): return .unixFD(try fixed(UInt32.self))
      case UInt8(ascii: "x"): return .int64(try fixed(Int64.self))
      case UInt8(ascii: "t"): return .uint64(try fixed(UInt64.self))
      case UInt8(ascii: "d"): return .double(Double(bitPattern: try fixed(UInt64.self)))
      case UInt8(ascii: "s"): return .string(try text(length: Int(try fixed(UInt32.self))))
      case UInt8(ascii: "o"): return .objectPath(try text(length: Int(try fixed(UInt32.self))))
      default:  // "g"
        return .signature(try text(length: Int(try take(1).first!)))
      }
    case .array(let element):
      let length = Int(try fixed(UInt32.self))
      guard length <= 1 << 26 else { throw BusWireError("an array longer than 64 MiB") }
      try skipPadding(to: element.alignment)
      let end = offset + length
      guard end <= bytes.count else { throw BusWireError("a message cut short") }
      var items: [BusValue] = []
      while offset < end { items.append(try read(element)) }
      guard offset == end else { throw BusWireError("an array's items overrun its length") }
      return .array(element: Self.signature(of: element), items)
    case .structure(let members):
      try skipPadding(to: 8)
      return .structure(try members.map { try read($0) })
    case .dictEntry(let key, let value):
      try skipPadding(to: 8)
      return .dictEntry(try read(key), try read(value))
    case .variant:
      guard case .signature(let signature) = try read(.basic(UInt8(ascii: "g"))) else {
        throw BusWireError("a variant without its signature")
      }
      let types = try BusType.parse(signature.utf8)
      guard types.count == 1 else { throw BusWireError("a variant of other than one type") }
      guard variantDepth < 64 else { throw BusWireError("variants nested more than 64 deep") }
      variantDepth += 1
      defer { variantDepth -= 1 }
      return .variant(try read(types[0]))
    }
  }

  /// The signature of a type (the inverse of `BusType.parse`).
  static func signature(of type: BusType) -> String {
    switch type {
    case .basic(let code): String(UnicodeScalar(code))
    case .array(let element): "a" + signature(of: element)
    case .structure(let members): "(" + members.map(signature(of:)).joined() + ")"
    case .dictEntry(let key, let value): "{" + signature(of: key) + signature(of: value) + "}"
    case .variant: "v"
    }
  }
}
