import Testing

@testable import NudgeCore

/// `InstantFormat.parseWithOffset` reads its bytes in place; these hold it to the reading it
/// replaced (kept here as the reference), on hand-picked edges and on thousands of damaged
/// timestamps.
@Suite struct InstantParseTests {
  @Test(arguments: [
    "2026-03-29T06:59:00+02:00", "2026-11-20T21:30:00Z", "2026-11-20 21:30:00Z",
    "2026-11-20T21:30:00.123+01:00", "2026-11-20T21:30:00.+01:00", "2026-11-20T21:30:00.5",
    "2026-11-20T21:30:00.5Z", "2026-11-20T21:30:00+24:59", "2026-11-20T21:30:00+01:60",
    "2026-11-20T21:30:00-05:30:15", "2026-11-20T21:30:00-05:30:60", "2026-11-20T21:30:00+0100",
    "2024-02-29T00:00:00Z", "2023-02-29T00:00:00Z", "2026-13-01T00:00:00Z",
    "2026-11-20T24:00:00Z", "2026-11-20T21:30:00ZZ", "2026-11-20T21:30:00", "", "Z",
    "2026-11-20T21:30:00+01:00 ", "２026-11-20T21:30:00Z", "2026-11-20T21:30:00+01:0x",
  ])
  func readsAsBefore(text: String) {
    #expect(InstantFormat.parseWithOffset(text)?.instant == Self.reference(text)?.instant)
    #expect(InstantFormat.parseWithOffset(text)?.offset == Self.reference(text)?.offset)
  }

  @Test func damagedTimestampsReadAsBefore() {
    var random = SplitMix64(seed: 39)
    let samples = [
      "2026-03-29T06:59:00+02:00", "2026-11-20T21:30:00Z", "2026-11-20T21:30:00.250-05:30:15",
    ]
    let alphabet = Array("0123456789-+:.TZ x".utf8) + [0xC3, 0xA9]
    for _ in 0..<5000 {
      var bytes = Array(samples[Int(random.next() % UInt64(samples.count))].utf8)
      for _ in 0...(random.next() % 3) {
        let at = Int(random.next() % UInt64(bytes.count + 1))
        switch random.next() % 3 {
        case 0 where at < bytes.count: bytes.remove(at: at)
        case 1: bytes.insert(alphabet[Int(random.next() % UInt64(alphabet.count))], at: at)
        default:
          if at < bytes.count { bytes[at] = alphabet[Int(random.next() % UInt64(alphabet.count))] }
        }
      }
      let text = String(decoding: bytes, as: UTF8.self)
      let (new, old) = (InstantFormat.parseWithOffset(text), Self.reference(text))
      #expect(new?.instant == old?.instant && new?.offset == old?.offset, "\(text)")
    }
  }

  @Test func instantsAreWrittenAsBeforeAndReadBack() throws {
    // offsets with seconds (Amsterdam's 1900s, Monrovia's), half hours, the year's ends
    var random = SplitMix64(seed: 25)
    for name in ["Europe/Berlin", "Europe/Amsterdam", "Africa/Monrovia", "Asia/Kolkata", "UTC"] {
      let zone = try #require(TestZones.named(name))
      let picked = [-2_208_988_800, -1_000_000_000, 0, 1_774_760_340, 253_402_300_799]
      for seconds in picked
        + (0..<300).map({ _ in Int(random.next() % 8_000_000_000) - 2_500_000_000 })
      {
        let instant = Instant(seconds: seconds)
        let text = InstantFormat.format(instant, in: zone)
        #expect(text == Self.referenceFormat(instant, in: zone), "\(name) \(seconds)")
        // (a text of a five-digit year, past 9999 east of UTC, is no stored one)
        if text.utf8.firstIndex(of: UInt8(ascii: "-"))
          == text.utf8.index(text.utf8.startIndex, offsetBy: 4)
        {
          #expect(InstantFormat.parse(text) == instant, "\(text)")
        }
      }
    }
  }

  /// The writing before it was made in place.
  static func referenceFormat(_ instant: Instant, in zone: ZoneRules) -> String {
    var bytes: [UInt8] = []
    let t = LocalTime(instant, in: zone)
    let off = abs(t.utcOffset)
    func digits(_ n: Int, _ width: Int) {
      if n < 0 || n >= 10_000 || width > 4 {
        bytes += Array(zeroPadded(n, width).utf8)
        return
      }
      var divisor = 1
      for _ in 1..<width { divisor *= 10 }
      var rest = n
      while divisor > 0 {
        bytes.append(UInt8(48 + rest / divisor))
        rest %= divisor
        divisor /= 10
      }
    }
    digits(t.date.year, 4)
    bytes.append(45)
    digits(t.date.month, 2)
    bytes.append(45)
    digits(t.date.day, 2)
    bytes.append(84)
    digits(t.hour, 2)
    bytes.append(58)
    digits(t.minute, 2)
    bytes.append(58)
    digits(t.second, 2)
    bytes.append(t.utcOffset < 0 ? 45 : 43)
    digits(off / 3600, 2)
    bytes.append(58)
    digits(off % 3600 / 60, 2)
    if off % 60 != 0 {
      bytes.append(58)
      digits(off % 60, 2)
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The reading before it was made to read in place.
  static func reference(_ text: String) -> (instant: Instant, offset: Int)? {
    if text.hasPrefix("@") {
      let digits = text.dropFirst()
      guard !digits.isEmpty, let seconds = Int(digits), abs(seconds) < 1 << 40 else { return nil }
      return (Instant(seconds: seconds), 0)
    }
    let chars = Array(text.utf8)
    func number(_ from: Int, _ count: Int) -> Int? {
      guard from + count <= chars.count else { return nil }
      var value = 0
      for c in chars[from..<from + count] {
        guard c >= 48 && c <= 57 else { return nil }
        value = value * 10 + Int(c - 48)
      }
      return value
    }
    guard chars.count >= 20, let y = number(0, 4), chars[4] == 45, let mo = number(5, 2),
      chars[7] == 45, let d = number(8, 2), chars[10] == 84 || chars[10] == 32,
      let h = number(11, 2), chars[13] == 58, let mi = number(14, 2), chars[16] == 58,
      let s = number(17, 2), (1...12).contains(mo), d >= 1, d <= Day.daysIn(month: mo, year: y),
      h < 24, mi < 60, s < 60
    else { return nil }
    var rest = chars[19...]
    if rest.first == 46 {
      rest = rest.dropFirst()
      guard let firstNonDigit = rest.firstIndex(where: { $0 < 48 || $0 > 57 }),
        firstNonDigit > rest.startIndex
      else { return nil }
      rest = rest[firstNonDigit...]
    }
    let offset: Int
    if Array(rest) == [90] {
      offset = 0
    } else {
      let o = Array(rest)
      guard o.count == 6 || o.count == 9, o[0] == 43 || o[0] == 45, o[3] == 58,
        o.count == 6 || o[6] == 58
      else { return nil }
      let digitsAt = o.count == 6 ? [1, 2, 4, 5] : [1, 2, 4, 5, 7, 8]
      guard digitsAt.allSatisfy({ o[$0] >= 48 && o[$0] <= 57 }) else { return nil }
      func pair(_ at: Int) -> Int { (Int(o[at]) - 48) * 10 + Int(o[at + 1]) - 48 }
      let (oh, om, os) = (pair(1), pair(4), o.count == 9 ? pair(7) : 0)
      guard om < 60, os < 60 else { return nil }
      offset = (o[0] == 45 ? -1 : 1) * (oh * 3600 + om * 60 + os)
    }
    let seconds = Day(year: y, month: mo, day: d).ordinal * 86400 + h * 3600 + mi * 60 + s - offset
    return (Instant(seconds: seconds), offset)
  }
}
