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
  /// For a message longer than Nudge reads: its length, to pass over; nil for any other.
  var tooLarge: Int? = nil
  init(_ description: String, tooLarge: Int? = nil) {
    self.description = description
    self.tooLarge = tooLarge
  }
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
