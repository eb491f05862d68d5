// Parsing, as systemd's calendar_spec_from_string() reads an expression.

extension CalendarSpec {
  /// Parses like `calendar_spec_from_string()`. `localZone` supplies the names a local
  /// suffix may use; `zoneExists` says whether a zone name is installed (a file under
  /// /usr/share/zoneinfo starting with "TZif").
  public static func parse(
    _ text: String, localZone: ZoneRules, zoneExists: (String) -> Bool
  ) throws(ParseError) -> CalendarSpec {
    var spec = CalendarSpec()
    let names = localZone.tzNames
    spec.localNames = [names.standard, names.daylight]
    var p = Array(text.utf8)
    func endsWithNoCase(_ suffix: [UInt8]) -> Int? {
      guard p.count >= suffix.count else { return nil }
      let tail = p[(p.count - suffix.count)...]
      return zip(tail, suffix).allSatisfy({ lower($0) == lower($1) }) ? p.count - suffix.count : nil
    }
    if let at = endsWithNoCase(Array(" UTC".utf8)) {
      spec.utc = true
      p = Array(p[..<at])
    } else {
      var matched = false
      for j in 0...1 {
        let name = Array(spec.localNames[j].utf8)
        guard !name.isEmpty, let at = endsWithNoCase(name), at > 0, p[at - 1] == 32 else {
          continue
        }
        p = Array(p[..<(at - 1)])
        spec.dst = j
        matched = true
        break
      }
      if !matched, let space = p.lastIndex(of: 32) {
        let candidate = String(decoding: p[(space + 1)...], as: UTF8.self)
        if isValidZoneName(candidate) && (candidate == "UTC" || zoneExists(candidate)) {
          spec.timezone = candidate
          p = Array(p[..<space])
        }
      }
    }
    guard !p.isEmpty else { throw ParseError(message: "the expression is empty") }
    let word = String(decoding: p, as: UTF8.self).lowercased()
    let zero = [Item(start: 0)]
    switch word {
    case "minutely":
      spec.microsecond = zero
    case "hourly":
      (spec.minute, spec.microsecond) = (zero, zero)
    case "daily":
      (spec.hour, spec.minute, spec.microsecond) = (zero, zero, zero)
    case "monthly":
      spec.day = [Item(start: 1)]
      (spec.hour, spec.minute, spec.microsecond) = (zero, zero, zero)
    case "annually", "yearly", "anually":
      (spec.month, spec.day) = ([Item(start: 1)], [Item(start: 1)])
      (spec.hour, spec.minute, spec.microsecond) = (zero, zero, zero)
    case "weekly":
      spec.weekdays = 1
      (spec.hour, spec.minute, spec.microsecond) = (zero, zero, zero)
    case "quarterly":
      spec.month = [1, 4, 7, 10].map { Item(start: $0) }
      spec.day = [Item(start: 1)]
      (spec.hour, spec.minute, spec.microsecond) = (zero, zero, zero)
    case "biannually", "bi-annually", "semiannually", "semi-annually":
      spec.month = [1, 7].map { Item(start: $0) }
      spec.day = [Item(start: 1)]
      (spec.hour, spec.minute, spec.microsecond) = (zero, zero, zero)
    default:
      var parser = Parser(bytes: p)
      try parser.weekdays(&spec)
      if try !parser.date(&spec) {
        try parser.time(&spec)
      }
      guard parser.atEnd else {
        throw parser.error("unexpected '\(parser.rest)'")
      }
    }
    spec.normalize()
    try spec.validate()
    return spec
  }

  static func lower(_ c: UInt8) -> UInt8 { c >= 65 && c <= 90 ? c + 32 : c }

  /// systemd's `timezone_is_valid()` without the file check.
  static func isValidZoneName(_ name: String) -> Bool {
    if name == "UTC" { return true }
    guard !name.isEmpty, !name.hasPrefix("/") else { return false }
    var slash = false
    for c in name.utf8 {
      let ok =
        (c >= 48 && c <= 57) || (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c == 45
        || c == 95 || c == 43 || c == 47
      guard ok else { return false }
      if c == 47 {
        if slash { return false }
        slash = true
      } else {
        slash = false
      }
    }
    return !slash
  }

  /// A cursor over the expression's bytes, mirroring systemd's parse functions.
  struct Parser {
    let bytes: [UInt8]
    var i = 0

    var atEnd: Bool { i >= bytes.count }
    var rest: String { String(decoding: bytes[min(i, bytes.count)...], as: UTF8.self) }
    func at(_ k: Int) -> UInt8 { i + k < bytes.count ? bytes[i + k] : 0 }

    func error(_ what: String) -> ParseError {
      ParseError(message: what)
    }

    mutating func skipSpaces() {
      while at(0) == 32 { i += 1 }
    }

    static let dayNames: [(String, Int)] = [
      ("monday", 0), ("mon", 0), ("tuesday", 1), ("tue", 1), ("wednesday", 2), ("wed", 2),
      ("thursday", 3), ("thu", 3), ("friday", 4), ("fri", 4), ("saturday", 5), ("sat", 5),
      ("sunday", 6), ("sun", 6),
    ]

    mutating func weekdays(_ spec: inout CalendarSpec) throws(ParseError) {
      var l = -1
      var first = true
      var bits = 0
      while true {
        var found: (String, Int)? = nil
        for (name, nr) in Self.dayNames {
          let n = Array(name.utf8)
          if i + n.count <= bytes.count
            && zip(bytes[i..<(i + n.count)], n).allSatisfy({ CalendarSpec.lower($0) == $1 })
          {
            found = (name, nr)
            break
          }
        }
        guard let (name, nr) = found else {
          if first { return }
          throw error("'\(rest)' is not a weekday")
        }
        let next = at(name.utf8.count)
        guard [0, 45, 46, 44, 32].contains(next) else {
          throw error("a weekday must be followed by ',', '..' or a space")
        }
        bits |= 1 << nr
        if l >= 0 {
          guard l <= nr else { throw error("the weekday range runs backwards") }
          for j in (l + 1)..<max(l + 1, nr) { bits |= 1 << j }
        }
        i += name.utf8.count
        spec.weekdays = bits
        if atEnd { return }
        if at(0) == 32 {
          skipSpaces()
          return
        }
        if at(0) == 46 {
          guard l < 0 else { throw error("a weekday range has no end") }
          guard at(1) == 46 else { throw error("use '..' for a weekday range") }
          l = nr
          i += 2
        } else if at(0) == 45 {
          guard l < 0 else { throw error("a weekday range has no end") }
          l = nr
          i += 1
        } else if at(0) == 44 {
          l = -1
          i += 1
        }
        if atEnd || at(0) == 32 {
          skipSpaces()
          if l >= 0 { throw error("the weekday range has no end") }
          return
        }
        first = false
      }
    }

    mutating func decimal(usec: Bool) throws(ParseError) -> Int {
      guard at(0) >= 48 && at(0) <= 57 else {
        throw error(
          atEnd ? "a number is missing at the end" : "'\(rest)' does not start with a number")
      }
      var value = 0
      while at(0) >= 48 && at(0) <= 57 {
        value = value * 10 + Int(at(0) - 48)
        if value > Int(Int32.max) { throw error("a number is too large") }
        i += 1
      }
      if usec {
        value *= CalendarSpec.usecPerSec
        // one "." is a decimal point (".." is a range): up to six digits, the seventh rounds,
        // the rest are ignored, as systemd's parse_fractional_part_u() reads them
        if at(0) == 46 && at(1) != 46 {
          i += 1
          guard at(0) >= 48 && at(0) <= 57 else { throw error("a digit must follow '.'") }
          var fraction = 0
          for _ in 0..<6 {
            if at(0) >= 48 && at(0) <= 57 {
              fraction = fraction * 10 + Int(at(0) - 48)
              i += 1
            } else {
              fraction *= 10
            }
          }
          if at(0) >= 53 && at(0) <= 57 { fraction += 1 }
          while at(0) >= 48 && at(0) <= 57 { i += 1 }
          value += fraction
        }
      }
      if value > Int(Int32.max) { throw error("a number is too large") }
      return value
    }

    mutating func component(usec: Bool, into chain: inout [Item], nesting: Int) throws(ParseError) {
      guard nesting <= 240 else { throw error("too many values in one list") }
      let start = try decimal(usec: usec)
      var stop = -1
      var step = 0
      if at(0) == 46 && at(1) == 46 {
        i += 2
        stop = try decimal(usec: usec)
        step = usec ? CalendarSpec.usecPerSec : 1
      }
      if at(0) == 47 {
        i += 1
        step = try decimal(usec: usec)
        guard step != 0 else { throw error("a repetition of 0 never advances") }
      } else {
        if usec && stop >= 0 && start + step > stop {
          throw error("the seconds range is empty")
        }
      }
      guard [0, 32, 44, 45, 126, 58].contains(at(0)) else {
        throw error("unexpected '\(rest)'")
      }
      chain.append(Item(start: start, stop: stop, step: step))
      if at(0) == 44 {
        i += 1
        try component(usec: usec, into: &chain, nesting: nesting + 1)
      }
    }

    mutating func chain(usec: Bool) throws(ParseError) -> Chain {
      if at(0) == 42 {
        i += 1
        return usec ? [Item(start: 0, step: CalendarSpec.usecPerSec)] : nil
      }
      var items: [Item] = []
      try component(usec: usec, into: &items, nesting: 0)
      return items
    }

    /// Returns true when the date part ended the expression (`@EPOCH`).
    mutating func date(_ spec: inout CalendarSpec) throws(ParseError) -> Bool {
      if atEnd { return false }
      if at(0) == 64 {
        // systemd reads the number as strtoll would: leading whitespace, then a sign ("-" only
        // for a zero), then digits
        i += 1
        while let c = i < bytes.count ? bytes[i] : nil, c == 32 || (9...13).contains(c) { i += 1 }
        var negative = false
        if at(0) == 43 || at(0) == 45 {
          negative = at(0) == 45
          i += 1
        }
        let digits = bytes[i...].prefix { $0 >= 48 && $0 <= 57 }
        guard !digits.isEmpty, let epoch = Int(String(decoding: digits, as: UTF8.self)),
          !negative || epoch == 0
        else {
          throw error("'@' must be followed by seconds since the epoch")
        }
        i += digits.count
        let tm = BrokenDownTime(naive: epoch, isDST: 0)
        spec.utc = true
        spec.year = [Item(start: tm.year)]
        spec.month = [Item(start: tm.month + 1)]
        spec.day = [Item(start: tm.day)]
        spec.hour = [Item(start: tm.hour)]
        spec.minute = [Item(start: tm.minute)]
        spec.microsecond = [Item(start: tm.second * CalendarSpec.usecPerSec)]
        return true
      }
      var t = self
      let first = try t.chain(usec: false)
      if t.atEnd || t.at(0) == 58 { return false }
      if t.at(0) == 126 {
        spec.endOfMonth = true
      } else if t.at(0) != 45 {
        throw t.error("unexpected '\(t.rest)' in the date")
      }
      t.i += 1
      let second = try t.chain(usec: false)
      if t.atEnd || t.at(0) == 32 {
        t.skipSpaces()
        spec.month = first
        spec.day = second
        self = t
        return false
      } else if spec.endOfMonth {
        throw t.error("'~' may only stand before the day")
      }
      if t.at(0) == 126 {
        spec.endOfMonth = true
      } else if t.at(0) != 45 {
        throw t.error("unexpected '\(t.rest)' in the date")
      }
      t.i += 1
      let third = try t.chain(usec: false)
      guard t.atEnd || t.at(0) == 32 else { throw t.error("unexpected '\(t.rest)' after the date") }
      t.skipSpaces()
      spec.year = first
      spec.month = second
      spec.day = third
      self = t
      return false
    }

    mutating func time(_ spec: inout CalendarSpec) throws(ParseError) {
      let zero: Chain = [Item(start: 0)]
      if atEnd {
        (spec.hour, spec.minute, spec.microsecond) = (zero, zero, zero)
        return
      }
      let h = try chain(usec: false)
      guard at(0) == 58 else { throw error("a time needs hours and minutes (HH:MM)") }
      i += 1
      let m = try chain(usec: false)
      if atEnd {
        (spec.hour, spec.minute, spec.microsecond) = (h, m, zero)
        return
      }
      guard at(0) == 58 else { throw error("unexpected '\(rest)' in the time") }
      i += 1
      let s = try chain(usec: true)
      guard atEnd else { throw error("unexpected '\(rest)' after the seconds") }
      (spec.hour, spec.minute, spec.microsecond) = (h, m, s)
    }
  }
}
