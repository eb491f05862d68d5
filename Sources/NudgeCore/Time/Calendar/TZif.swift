// The TZif reader: a zone file's bytes (versions 1–4) as `ZoneRules`.

extension ZoneRules {
  /// Parses a TZif file (versions 1–4); nil when the bytes are not one.
  public init?(tzif bytes: [UInt8], name: String) {
    guard bytes.count >= 44, bytes[0..<4].elementsEqual("TZif".utf8) else { return nil }
    func u32(_ at: Int) -> Int {
      Int(Int32(bitPattern: bytes[at..<at + 4].reduce(0) { $0 << 8 | UInt32($1) }))
    }
    func i64(_ at: Int) -> Int {
      Int(Int64(bitPattern: bytes[at..<at + 8].reduce(0) { $0 << 8 | UInt64($1) }))
    }
    func counts(_ at: Int) -> [Int] { (0..<6).map { u32(at + 20 + 4 * $0) } }
    var header = 0
    var c = counts(0)
    var timeSize = 4
    if bytes[4] >= 0x32 {  // version 2+: skip the 32-bit block, read the 64-bit one
      let v1 = c[3] * 5 + c[4] * 6 + c[5] + c[2] * 8 + c[1] + c[0]
      header = 44 + v1
      guard bytes.count >= header + 44, bytes[header..<header + 4].elementsEqual("TZif".utf8)
      else { return nil }
      c = counts(header)
      timeSize = 8
    }
    let (isut, isstd, leap, timecnt, typecnt, charcnt) = (c[0], c[1], c[2], c[3], c[4], c[5])
    var p = header + 44
    let end =
      p + timecnt * (timeSize + 1) + typecnt * 6 + charcnt + leap * (timeSize + 4) + isstd + isut
    guard typecnt > 0, bytes.count >= end else { return nil }
    transitions = (0..<timecnt).map { timeSize == 8 ? i64(p + 8 * $0) : u32(p + 4 * $0) }
    p += timecnt * timeSize
    transitionTypes = (0..<timecnt).map { Int(bytes[p + $0]) }
    p += timecnt
    let typeStart = p
    let chars = typeStart + typecnt * 6
    types = (0..<typecnt).map { i in
      let at = typeStart + 6 * i
      var nameEnd = chars + Int(bytes[at + 5])
      let nameStart = nameEnd
      while nameEnd < chars + charcnt && bytes[nameEnd] != 0 { nameEnd += 1 }
      // a crafted file's offset is held to what a time's text can say (±24:59:59)
      return LocalType(
        offset: min(max(u32(at), -89999), 89999), isDST: bytes[at + 4] != 0,
        abbreviation: String(decoding: bytes[nameStart..<nameEnd], as: UTF8.self))
    }
    guard transitionTypes.allSatisfy({ $0 < typecnt }) else { return nil }
    var q = chars + charcnt
    leaps = (0..<leap).map { k in
      let at = q + k * (timeSize + 4)
      return Leap(
        transition: timeSize == 8 ? i64(at) : u32(at), correction: u32(at + timeSize))
    }
    q += leap * (timeSize + 4)
    for k in 0..<typecnt {
      if k < isstd { types[k].isStd = bytes[q + k] != 0 }
      if k < isut { types[k].isUT = bytes[q + isstd + k] != 0 }
    }
    self.name = name
    if timeSize == 8, end < bytes.count, bytes[end] == 0x0A,
      let close = bytes[(end + 1)...].firstIndex(of: 0x0A), close > end + 1
    {
      rule = PosixTZ(String(decoding: bytes[(end + 1)..<close], as: UTF8.self))
    }
  }
}
