// The D-Bus wire format (the D-Bus Specification's "Message Protocol"): values with their
// types, and whole messages, written little-endian and read in either byte order. Pure: no
// I/O (the socket is SessionBusSocket's). What is read comes from another process and is
// checked as it is read: a length past the end, a bad signature or too deep a nesting is a
// `BusWireError`, never a crash.

/// A value on the D-Bus wire, with its type: what a call sends and a reply holds.
indirect enum BusValue: Equatable, Sendable {
  case byte(UInt8)
  case boolean(Bool)
  case int16(Int16)
  case uint16(UInt16)
  case int32(Int32)
  case uint32(UInt32)
  case int64(Int64)
  case uint64(UInt64)
  case double(Double)
  /// An index into the file descriptors sent beside the message (Nudge never sends any).
  case unixFD(UInt32)
  case string(String)
  case objectPath(String)
  case signature(String)
  /// An array of values of one type, `element` (its signature: an empty array still has one).
  case array(element: String, [BusValue])
  case structure([BusValue])
  /// One entry of a dictionary: an array of these is `a{…}`.
  case dictEntry(BusValue, BusValue)
  case variant(BusValue)

  /// The value's type as a signature.
  var signature: String {
    switch self {
    case .byte: "y"
    case .boolean: "b"
    case .int16: "n"
    case .uint16: "q"
    case .int32: "i"
    case .uint32: "u"
    case .int64: "x"
    case .uint64: "t"
    case .double: "d"
    case .unixFD: "h"
    case .string: "s"
    case .objectPath: "o"
    case .signature: "g"
    case .array(let element, _): "a" + element
    case .structure(let items): "(" + items.map(\.signature).joined() + ")"
    case .dictEntry(let key, let value): "{" + key.signature + value.signature + "}"
    case .variant: "v"
    }
  }

  /// A dictionary of strings to variants (`a{sv}`), as hints and properties are sent.
  static func stringVariants(_ entries: [(String, BusValue)]) -> BusValue {
    .array(element: "{sv}", entries.map { .dictEntry(.string($0.0), .variant($0.1)) })
  }
  /// An array of strings (`as`).
  static func strings(_ items: [String]) -> BusValue {
    .array(element: "s", items.map { .string($0) })
  }
}

/// Why bytes read from the bus are not a message Nudge can read.
struct BusWireError: Error, Equatable, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// A type in a signature.
indirect enum BusType: Equatable {
  case basic(UInt8)
  case array(BusType)
  case structure([BusType])
  case dictEntry(BusType, BusType)
  case variant

  /// The boundary a value of this type starts on.
  var alignment: Int {
    switch self {
    case .basic(let code):
      switch code {
      case UInt8(ascii: "y"), UInt8(ascii: "g"): 1
      case UInt8(ascii: "n"), UInt8(ascii: "q"): 2
      case UInt8(ascii: "x"), UInt8(ascii: "t"), UInt8(ascii: "d"): 8
      default: 4
      }
    case .array: 4
    case .structure, .dictEntry: 8
    case .variant: 1
    }
  }

  /// The boundary a value of the type `signature` starts on (an array's element, which may
  /// be a dictionary entry, `{…}`).
  static func alignment(ofSignature signature: String) -> Int {
    switch signature.utf8.first {
    case UInt8(ascii: "{"), UInt8(ascii: "("): 8
    case UInt8(ascii: "v"): 1
    case let code?: BusType.basic(code).alignment
    case nil: 1
    }
  }

  /// The complete types of `signature` in order; the specification's limits hold (255 bytes,
  /// 32 nested arrays and 32 nested structures).
  static func parse(_ signature: some Collection<UInt8>) throws -> [BusType] {
    let codes = Array(signature)
    guard codes.count <= 255 else { throw BusWireError("a signature longer than 255 bytes") }
    var index = 0
    var types: [BusType] = []
    while index < codes.count {
      types.append(try parseOne(codes, &index, arrays: 0, structures: 0))
    }
    return types
  }

  private static func parseOne(_ codes: [UInt8], _ index: inout Int, arrays: Int, structures: Int)
    throws -> BusType
  {
    guard index < codes.count else { throw BusWireError("a signature ends inside a type") }
    let code = codes[index]
    index += 1
    switch code {
    case UInt8(ascii: "a"):
      guard arrays < 32 else { throw BusWireError("arrays nested more than 32 deep") }
      if index < codes.count && codes[index] == UInt8(ascii: "{") {
        index += 1
        let key = try parseOne(codes, &index, arrays: arrays + 1, structures: structures + 1)
        guard case .basic = key else { throw BusWireError("a dictionary key that is not basic") }
        let value = try parseOne(codes, &index, arrays: arrays + 1, structures: structures + 1)
        guard index < codes.count, codes[index] == UInt8(ascii: "}") else {
          throw BusWireError("a dictionary entry of more than two types")
        }
        index += 1
        return .array(.dictEntry(key, value))
      }
      return .array(try parseOne(codes, &index, arrays: arrays + 1, structures: structures))
    case UInt8(ascii: "("):
      guard structures < 32 else { throw BusWireError("structures nested more than 32 deep") }
      var members: [BusType] = []
      while index < codes.count && codes[index] != UInt8(ascii: ")") {
        members.append(try parseOne(codes, &index, arrays: arrays, structures: structures + 1))
      }
      guard index < codes.count, !members.isEmpty else {
        throw BusWireError("an empty or unclosed structure in a signature")
      }
      index += 1
      return .structure(members)
    case UInt8(ascii: "v"):
      return .variant
    default:
      guard Array("ybnqiuxtdhsog".utf8).contains(code) else {
        throw BusWireError("a signature with the unknown type code \(code)")
      }
      return .basic(code)
    }
  }
}

/// Writes values in the wire format, little-endian, aligned from the start of what it writes
/// (a message's header, or its body, which starts on an 8-byte boundary).
struct BusWriter {
  private(set) var bytes: [UInt8] = []

  mutating func pad(to alignment: Int) {
    while bytes.count % alignment != 0 { bytes.append(0) }
  }

  private mutating func fixed<T: FixedWidthInteger>(_ value: T) {
    pad(to: MemoryLayout<T>.size)
    withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
  }

  /// A string's bytes as C sees them: up to its first NUL (the wire has none in a string).
  private static func text(_ string: String) -> [UInt8] {
    Array(string.utf8.prefix { $0 != 0 })
  }

  mutating func write(_ value: BusValue) {
    switch value {
    case .byte(let v): bytes.append(v)
    case .boolean(let v): fixed(UInt32(v ? 1 : 0))
    case .int16(let v): fixed(v)
    case .uint16(let v): fixed(v)
    case .int32(let v): fixed(v)
    case .uint32(let v), .unixFD(let v): fixed(v)
    case .int64(let v): fixed(v)
    case .uint64(let v): fixed(v)
    case .double(let v): fixed(v.bitPattern)
    case .string(let s), .objectPath(let s):
      let text = Self.text(s)
      fixed(UInt32(text.count))
      bytes.append(contentsOf: text)
      bytes.append(0)
    case .signature(let s):
      let text = Self.text(s)
      bytes.append(UInt8(min(text.count, 255)))
      bytes.append(contentsOf: text.prefix(255))
      bytes.append(0)
    case .array(let element, let items):
      fixed(UInt32(0))
      let lengthAt = bytes.count - 4
      pad(to: BusType.alignment(ofSignature: element))
      let start = bytes.count
      for item in items { write(item) }
      let length = UInt32(bytes.count - start).littleEndian
      withUnsafeBytes(of: length) { bytes.replaceSubrange(lengthAt..<lengthAt + 4, with: $0) }
    case .structure(let items):
      pad(to: 8)
      for item in items { write(item) }
    case .dictEntry(let key, let value):
      pad(to: 8)
      write(key)
      write(value)
    case .variant(let inner):
      write(.signature(inner.signature))
      write(inner)
    }
  }
}

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

/// A D-Bus message: a call Nudge sends, or a reply, an error or a signal it reads.
struct BusMessage: Equatable {
  enum Kind: UInt8 {
    case methodCall = 1
    case methodReturn = 2
    case error = 3
    case signal = 4
  }

  var kind: Kind
  var serial: UInt32
  var path: String? = nil
  var interface: String? = nil
  var member: String? = nil
  var errorName: String? = nil
  var replySerial: UInt32? = nil
  var destination: String? = nil
  var sender: String? = nil
  var body: [BusValue] = []

  /// A method call to `destination`'s object `path`.
  static func call(
    serial: UInt32, destination: String, path: String, interface: String, member: String,
    _ body: [BusValue] = []
  ) -> BusMessage {
    BusMessage(
      kind: .methodCall, serial: serial, path: path, interface: interface, member: member,
      destination: destination, body: body)
  }

  /// The message in the wire format, little-endian.
  func encoded() -> [UInt8] {
    var body = BusWriter()
    for value in self.body { body.write(value) }
    var fields: [BusValue] = []
    func field(_ code: UInt8, _ value: BusValue?) {
      if let value { fields.append(.structure([.byte(code), .variant(value)])) }
    }
    field(1, path.map { .objectPath($0) })
    field(2, interface.map { .string($0) })
    field(3, member.map { .string($0) })
    field(4, errorName.map { .string($0) })
    field(5, replySerial.map { .uint32($0) })
    field(6, destination.map { .string($0) })
    field(7, sender.map { .string($0) })
    let signature = self.body.map(\.signature).joined()
    field(8, signature.isEmpty ? nil : .signature(signature))
    var header = BusWriter()
    for byte in [UInt8(ascii: "l"), kind.rawValue, 0, 1] { header.write(.byte(byte)) }
    header.write(.uint32(UInt32(body.bytes.count)))
    header.write(.uint32(serial))
    header.write(.array(element: "(yv)", fields))
    header.pad(to: 8)
    return header.bytes + body.bytes
  }

  /// The largest message Nudge reads (replies to its calls are small; the bus allows 128 MiB).
  static let largest = 1 << 20

  /// The length of the message at the start of `bytes` once its fixed header is there (16
  /// bytes), nil before; an error for a header no message has.
  static func length(ofMessageAt bytes: ArraySlice<UInt8>) throws -> Int? {
    guard bytes.count >= 16 else { return nil }
    let start = bytes.startIndex
    guard bytes[start] == UInt8(ascii: "l") || bytes[start] == UInt8(ascii: "B") else {
      throw BusWireError("a message of unknown byte order")
    }
    guard bytes[start + 3] == 1 else {
      throw BusWireError("a message of protocol version \(bytes[start + 3])")
    }
    var reader = BusReader(bytes.prefix(16), bigEndian: bytes[start] == UInt8(ascii: "B"))
    _ = try reader.read(.basic(UInt8(ascii: "u")))
    guard case .uint32(let bodyLength) = try reader.read(.basic(UInt8(ascii: "u"))),
      case .uint32 = try reader.read(.basic(UInt8(ascii: "u"))),
      case .uint32(let fieldsLength) = try reader.read(.basic(UInt8(ascii: "u")))
    else { throw BusWireError("a message cut short") }
    let headerLength = (16 + Int(fieldsLength) + 7) / 8 * 8
    let total = headerLength + Int(bodyLength)
    guard total <= largest else { throw BusWireError("a message of \(total) bytes") }
    return total
  }

  /// Reads one whole message (`length(ofMessageAt:)` bytes).
  static func decode(_ bytes: ArraySlice<UInt8>) throws -> BusMessage {
    let bigEndian = bytes.first == UInt8(ascii: "B")
    var reader = BusReader(bytes, bigEndian: bigEndian)
    guard case .byte = try reader.read(.basic(UInt8(ascii: "y"))),
      case .byte(let kindCode) = try reader.read(.basic(UInt8(ascii: "y"))),
      case .byte = try reader.read(.basic(UInt8(ascii: "y"))),
      case .byte = try reader.read(.basic(UInt8(ascii: "y"))),
      case .uint32(let bodyLength) = try reader.read(.basic(UInt8(ascii: "u"))),
      case .uint32(let serial) = try reader.read(.basic(UInt8(ascii: "u"))),
      case .array(_, let fields) = try reader.read(
        .array(.structure([.basic(UInt8(ascii: "y")), .variant])))
    else { throw BusWireError("a message cut short") }
    guard let kind = Kind(rawValue: kindCode) else {
      throw BusWireError("a message of unknown type \(kindCode)")
    }
    var message = BusMessage(kind: kind, serial: serial)
    var signature = ""
    for field in fields {
      guard case .structure(let pair) = field, case .byte(let code) = pair[0],
        case .variant(let value) = pair[1]
      else { continue }
      switch (code, value) {
      case (1, .objectPath(let v)): message.path = v
      case (2, .string(let v)): message.interface = v
      case (3, .string(let v)): message.member = v
      case (4, .string(let v)): message.errorName = v
      case (5, .uint32(let v)): message.replySerial = v
      case (6, .string(let v)): message.destination = v
      case (7, .string(let v)): message.sender = v
      case (8, .signature(let v)): signature = v
      default: continue  // a field Nudge does not read (or of another type: ignored)
      }
    }
    try reader.skipPadding(to: 8)
    guard bytes.count - reader.offset == Int(bodyLength) else {
      throw BusWireError("a message whose body is not its stated length")
    }
    var body = BusReader(bytes.suffix(Int(bodyLength)), bigEndian: bigEndian)
    message.body = try BusType.parse(signature.utf8).map { try body.read($0) }
    guard body.isAtEnd else { throw BusWireError("a body longer than its signature") }
    return message
  }
}
