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
    guard total <= largest else {
      throw BusWireError("a message of \(total) bytes", tooLarge: total)
    }
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
