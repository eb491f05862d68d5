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
