import FoundationEssentials

/// A device file's lines: `CRC32 JSON` — eight hexadecimal digits of the JSON's CRC-32, a
/// space, the JSON on one line, a newline. A line without its newline is not finished (being
/// written or copied) and is left for later; one whose checksum fails is skipped.
public enum SyncLine {
  static let encoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    encoder.keyEncodingStrategy = .convertToSnakeCase
    return encoder
  }()

  static let decoder: JSONDecoder = {
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    return decoder
  }()

  /// The longest line taken (longer ones are skipped, read past without being kept whole).
  public static let maxBytes = 256 * 1024

  private struct Wire: Codable {
    var c: String
    var k: String
    var v: SyncValue?
    var s: [String: String]?
  }

  /// A change's line, its newline included.
  public static func line(_ change: SyncChange) -> String {
    let wire = Wire(
      c: change.clock.description, k: change.key.description, v: change.value,
      s: change.seen.isEmpty ? nil : change.seen.mapValues(\.description))
    return framed((try? encoder.encode(wire)) ?? Data())
  }

  /// A header's line, its newline included.
  public static func line(_ header: SyncHeader) -> String {
    framed((try? encoder.encode(header)) ?? Data())
  }

  private static func framed(_ json: Data) -> String {
    let sum = String(CRC32.checksum(json), radix: 16)
    return String(repeating: "0", count: 8 - sum.count) + sum + " "
      + String(decoding: json, as: UTF8.self) + "\n"
  }

  /// The JSON of a line (without its newline) whose checksum holds.
  static func body(_ line: some Collection<UInt8>) -> Result<ArraySlice<UInt8>, SyncRefusal> {
    let bytes = ArraySlice(line)
    guard bytes.count > 9, bytes[bytes.startIndex + 8] == UInt8(ascii: " "),
      let sum = UInt32(String(decoding: bytes.prefix(8), as: UTF8.self), radix: 16)
    else { return .failure(SyncRefusal("it is not a checksum and a change")) }
    let json = bytes.dropFirst(9)
    guard CRC32.checksum(json) == sum else { return .failure(SyncRefusal("its checksum fails")) }
    return .success(json)
  }

  /// Reads a header line.
  public static func header(_ line: some Collection<UInt8>) -> Result<SyncHeader, SyncRefusal> {
    switch body(line) {
    case .failure(let refusal): return .failure(refusal)
    case .success(let json):
      guard let header = try? decoder.decode(SyncHeader.self, from: Data(json)),
        header.nudgeSync == 1, SyncDevice.isID(header.device), header.generation >= 0
      else { return .failure(SyncRefusal("its first line is not a Nudge sync header")) }
      guard SyncDevice.isName(header.name) else {
        return .failure(
          SyncRefusal(
            "its computer's name '\(VisibleText.escaped(String(header.name.prefix(64))))' is not one Nudge shows (one line of at most 64 visible characters, no control or direction marks)"
          ))
      }
      return .success(header)
    }
  }

  /// Reads a change line of `device`'s file (a snapshot holds every device's changes:
  /// `anyDevice`), refusing what is not a change this Nudge takes: a clock from the future
  /// (more than an hour past `now`, milliseconds) or before 2000, a key of an unknown kind, a
  /// value its key can't hold.
  public static func change(
    _ line: some Collection<UInt8>, device: String, anyDevice: Bool = false, now: Int
  ) -> Result<SyncChange, SyncRefusal> {
    let json: ArraySlice<UInt8>
    switch body(line) {
    case .failure(let refusal): return .failure(refusal)
    case .success(let found): json = found
    }
    guard let wire = try? decoder.decode(Wire.self, from: Data(json)) else {
      return .failure(SyncRefusal("it is not a change Nudge reads"))
    }
    guard let clock = SyncClock(wire.c) else {
      return .failure(
        SyncRefusal(
          "its clock '\(VisibleText.escaped(String(wire.c.prefix(48))))' is not a Nudge clock (13 digits of milliseconds, 5 of a counter, the device's id, joined by '-')"
        ))
    }
    guard anyDevice || clock.device == device else {
      return .failure(SyncRefusal("it claims to be another device's change"))
    }
    guard clock.wall >= SyncClock.earliestWall else {
      return .failure(SyncRefusal("it is dated before 2000"))
    }
    guard clock.wall <= now + SyncClock.allowedAheadMilliseconds else {
      return .failure(.aheadRefusal)
    }
    var seen: [String: SyncClock] = [:]
    for (id, text) in wire.s ?? [:] {
      guard SyncDevice.isID(id), let seenClock = SyncClock(text), seenClock.device == id,
        seenClock.wall >= SyncClock.earliestWall,
        seenClock.wall <= now + SyncClock.allowedAheadMilliseconds
      else {
        return .failure(SyncRefusal("what it saw is not a list of clocks of its time"))
      }
      seen[id] = seenClock
    }
    let key: SyncKey
    switch SyncKey.parse(wire.k) {
    case .failure(let refusal): return .failure(refusal)
    case .success(let found): key = found
    }
    // an entry is kept on a day no later than the one it was made on (a zone ahead of UTC: one
    // more), as an import holds it to today
    if case .entry(let day, _, _) = key,
      day.ordinal > floorDiv(clock.wall, 86_400_000) + 1 || !SupportedTime.days.contains(day)
    {
      return .failure(
        SyncRefusal("its entry is for \(day), a day no flow could have saved when it was made"))
    }
    if let value = wire.v, let refusal = value.check(for: key) { return .failure(refusal) }
    return .success(SyncChange(clock: clock, key: key, value: wire.v, seen: seen))
  }
}

/// CRC-32 (IEEE 802.3, as zlib computes it).
public enum CRC32 {
  private static let table: [UInt32] = (0..<256).map { n in
    var c = UInt32(n)
    for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    return c
  }

  public static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
    var c: UInt32 = 0xFFFF_FFFF
    for byte in bytes { c = table[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
    return c ^ 0xFFFF_FFFF
  }
}
