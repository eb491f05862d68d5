/// A zip archive's table of contents, read from its bytes (the end record and the central
/// directory, zip64 too) and checked before anything is inflated: what Nudge reads an Apple
/// Health `export.zip` by, without extracting it.
///
/// Refused, each with its reason: bytes that are not a zip, an archive split over disks, an
/// encrypted entry, an entry whose name would escape a folder it were extracted to (`/…`,
/// `..`, a backslash or a drive), an entry that claims to inflate more than `maxRatio` times
/// its size or past `maxSize` (a zip bomb), and a table of contents that contradicts itself.
public struct ZipDirectory: Equatable, Sendable {
  /// One file in the archive.
  public struct Entry: Equatable, Sendable {
    public var name: String
    /// 0 stored, 8 deflated (the only two read).
    public var method: Int
    public var crc: UInt32
    public var compressedSize: Int
    public var size: Int
    /// Where its local header starts.
    public var headerOffset: Int
  }

  /// Why an archive is not read.
  public struct Refusal: Error, Equatable, Sendable {
    public var message: String
  }

  /// An entry inflates to at most this many times its compressed size.
  public static let maxRatio = 1000
  /// An entry is at most this large inflated (64 GiB).
  public static let maxSize = 64 << 30
  /// The end record is within the last 65,577 bytes (22, a comment of up to 65,535, and the
  /// zip64 locator's 20 before it).
  public static let tailLength = 22 + 65_535 + 20
  /// A table of contents is read whole: at most this large (an export's holds two entries).
  public static let maxCentralDirectory = 64 << 20

  public var entries: [Entry]

  /// Where the central directory is and how long, from the archive's last `tail` bytes (the
  /// archive being `fileSize` long); `zip64Record` reads a zip64 end record when the tail
  /// points to one (`at` an offset, 56 bytes).
  public static func centralDirectory(
    tail: [UInt8], fileSize: Int, zip64Record: (_ at: Int) -> [UInt8]?
  ) throws(Refusal) -> (offset: Int, length: Int, count: Int) {
    guard tail.count >= 22 else { throw Refusal(message: "it is not a zip archive") }
    var at = tail.count - 22
    while at >= 0 && !(u32(tail, at) == 0x0605_4b50 && at + 22 + u16(tail, at + 20) <= tail.count) {
      at -= 1
    }
    guard at >= 0 else { throw Refusal(message: "it is not a zip archive (no end record)") }
    var count = u16(tail, at + 10)
    var length = Int(u32(tail, at + 12))
    var offset = Int(u32(tail, at + 16))
    guard u16(tail, at + 4) == 0 && u16(tail, at + 6) == 0 else {
      throw Refusal(message: "it is a zip split over several files")
    }
    let locator = at - 20
    if locator >= 0 && u32(tail, locator) == 0x0706_4b50 {
      let recordAt = Int(exactly: u64(tail, locator + 8)) ?? -1
      guard recordAt >= 0, recordAt < fileSize, let record = zip64Record(recordAt),
        record.count >= 56, u32(record, 0) == 0x0606_4b50
      else { throw Refusal(message: "its zip64 end record is missing or damaged") }
      count = Int(clamping: u64(record, 32))
      length = Int(clamping: u64(record, 40))
      offset = Int(clamping: u64(record, 48))
    }
    guard offset >= 0, length >= 0, offset <= fileSize, length <= fileSize - offset,
      count <= length / 46 + 1
    else { throw Refusal(message: "its table of contents points outside the file") }
    guard length <= maxCentralDirectory else {
      throw Refusal(message: "its table of contents is larger than 64 MiB")
    }
    return (offset, length, count)
  }

  /// Reads the central directory's `bytes` (`count` entries) of an archive `fileSize` long.
  public init(central bytes: [UInt8], count: Int, fileSize: Int) throws(Refusal) {
    var entries: [Entry] = []
    var at = 0
    for _ in 0..<count {
      guard at + 46 <= bytes.count, Self.u32(bytes, at) == 0x0201_4b50 else {
        throw Refusal(message: "its table of contents is damaged")
      }
      let flags = Self.u16(bytes, at + 8)
      let method = Self.u16(bytes, at + 10)
      let crc = Self.u32(bytes, at + 16)
      var compressed = Int(Self.u32(bytes, at + 20))
      var size = Int(Self.u32(bytes, at + 24))
      let nameLength = Self.u16(bytes, at + 28)
      let extraLength = Self.u16(bytes, at + 30)
      let commentLength = Self.u16(bytes, at + 32)
      var header = Int(Self.u32(bytes, at + 42))
      let nameAt = at + 46
      let extraAt = nameAt + nameLength
      let next = extraAt + extraLength + commentLength
      guard next <= bytes.count else { throw Refusal(message: "its table of contents is damaged") }
      let name = String(decoding: bytes[nameAt..<extraAt], as: UTF8.self)
      // zip64: the sizes and offset written as 0xFFFFFFFF are in the extra field, in order
      var extra = extraAt
      while extra + 4 <= extraAt + extraLength {
        let id = Self.u16(bytes, extra)
        let length = Self.u16(bytes, extra + 2)
        var field = extra + 4
        let end = field + length
        if id == 1 {
          func next64() -> Int? {
            guard field + 8 <= end, end <= extraAt + extraLength else { return nil }
            defer { field += 8 }
            return Int(clamping: Self.u64(bytes, field))
          }
          if size == 0xFFFF_FFFF { size = next64() ?? -1 }
          if compressed == 0xFFFF_FFFF { compressed = next64() ?? -1 }
          if header == 0xFFFF_FFFF { header = next64() ?? -1 }
        }
        extra = end
      }
      try Self.check(name: name)
      guard flags & 1 == 0, method != 99 else {
        throw Refusal(
          message: "'\(Self.shown(name))' is encrypted; export it again without a password")
      }
      guard size >= 0, compressed >= 0, header >= 0, header < fileSize,
        compressed <= fileSize - header
      else { throw Refusal(message: "its table of contents is damaged at '\(Self.shown(name))'") }
      if method == 8 || method == 0 {
        guard size <= Self.maxSize,
          method == 0 ? size == compressed : size / Self.maxRatio <= max(compressed, 1)
        else {
          throw Refusal(
            message:
              "'\(Self.shown(name))' would inflate \(size) bytes from \(compressed), past \(Self.maxRatio) times its size (a zip bomb)"
          )
        }
      }
      entries.append(
        Entry(
          name: name, method: method, crc: crc, compressedSize: compressed, size: size,
          headerOffset: header))
      at = next
    }
    self.entries = entries
  }

  /// Refuses a name that extracted would land outside its folder.
  static func check(name: String) throws(Refusal) {
    let parts = name.split(separator: "/", omittingEmptySubsequences: false)
    let escapes =
      name.hasPrefix("/") || name.contains("\\") || parts.contains("..")
      || (name.count >= 2 && Array(name.utf8)[1] == UInt8(ascii: ":"))
    if escapes || name.utf8.contains(0) {
      throw Refusal(message: "an entry's path escapes its folder ('\(shown(name))')")
    }
  }

  /// A name as an error line shows it: control characters as `?`, at most 80 characters.
  public static func shown(_ name: String) -> String {
    let cleaned = String(
      String.UnicodeScalarView(
        name.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : $0 }))
    return cleaned.count > 80 ? String(cleaned.prefix(80)) + "…" : cleaned
  }

  /// The Health export inside: the entry `export.xml` in the archive's top folder
  /// (`apple_health_export/export.xml`), or at its root; never `export_cda.xml`.
  public var healthExport: Entry? {
    entries.first { entry in
      let parts = entry.name.split(separator: "/")
      return parts.last == "export.xml" && parts.count <= 2
    }
  }

  /// Where an entry's data starts, from its local header's first 30 bytes.
  public static func dataOffset(of entry: Entry, localHeader bytes: [UInt8]) throws(Refusal)
    -> Int
  {
    guard bytes.count >= 30, u32(bytes, 0) == 0x0403_4b50 else {
      throw Refusal(message: "its entry '\(shown(entry.name))' has no local header")
    }
    return entry.headerOffset + 30 + u16(bytes, 26) + u16(bytes, 28)
  }

  static func u16(_ b: [UInt8], _ at: Int) -> Int { Int(b[at]) | Int(b[at + 1]) << 8 }
  static func u32(_ b: [UInt8], _ at: Int) -> UInt32 {
    UInt32(b[at]) | UInt32(b[at + 1]) << 8 | UInt32(b[at + 2]) << 16 | UInt32(b[at + 3]) << 24
  }
  static func u64(_ b: [UInt8], _ at: Int) -> UInt64 {
    UInt64(u32(b, at)) | UInt64(u32(b, at + 4)) << 32
  }
}
