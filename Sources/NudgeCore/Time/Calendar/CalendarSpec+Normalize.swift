// Normalising, validating and printing, as systemd's calendar_spec_to_string() does.

extension CalendarSpec {
  mutating func normalize() {
    if timezone == "UTC" {
      utc = true
      timezone = nil
    }
    if weekdays <= 0 || weekdays >= Self.allWeekdays { weekdays = -1 }
    if endOfMonth && day == nil { endOfMonth = false }
    if var y = year {
      for k in y.indices {
        for keyPath in [\Item.start, \Item.stop] {
          let v = y[k][keyPath: keyPath]
          if v >= 0 && v < 70 { y[k][keyPath: keyPath] = v + 2000 }
          if v >= 70 && v < 100 { y[k][keyPath: keyPath] = v + 1900 }
        }
      }
      year = y
    }
    year = Self.normalizeChain(year)
    month = Self.normalizeChain(month)
    day = Self.normalizeChain(day)
    hour = Self.normalizeChain(hour)
    minute = Self.normalizeChain(minute)
    microsecond = Self.normalizeChain(microsecond)
  }

  static func normalizeChain(_ chain: Chain) -> Chain {
    guard var items = chain else { return nil }
    for k in items.indices {
      var c = items[k]
      if c.stop > c.start && c.step > 0 { c.stop -= (c.stop - c.start) % c.step }
      if (c.stop > c.start && c.step > 0 && c.start + c.step > c.stop) || c.start == c.stop {
        c.step = 0
        c.stop = -1
      }
      items[k] = c
    }
    var unique: [Item] = []
    for item in items.sorted() where unique.last != item { unique.append(item) }
    return unique
  }

  func validate() throws(ParseError) {
    func valid(_ chain: Chain, _ from: Int, _ to: Int, _ eom: Bool, _ what: String)
      throws(ParseError)
    {
      guard let chain else { return }
      var to = to
      for c in chain {
        // systemd 252 takes 3 off the bound again for each further '~' item
        if eom { to -= 3 }
        let bad = ParseError(message: "the \(what) is out of range or its repetition never fits")
        if c.start < from || c.start > to { throw bad }
        if c.step > to - from { throw bad }
        if c.stop >= 0 {
          if c.stop < from || c.stop > to { throw bad }
          if c.start + c.step > c.stop { throw bad }
        } else {
          if eom && c.start - c.step < from { throw bad }
          if !eom && c.start + c.step > to { throw bad }
        }
      }
    }
    try valid(year, Self.minYear, Self.maxYear, false, "year (1970-2199)")
    try valid(month, 1, 12, false, "month (1-12)")
    try valid(day, 1, 31, endOfMonth, "day (1-31, or 1-28 after '~')")
    try valid(hour, 0, 23, false, "hour (0-23)")
    try valid(minute, 0, 59, false, "minute (0-59)")
    try valid(microsecond, 0, 60 * Self.usecPerSec - 1, false, "second (0-59)")
  }

  /// The normalised form, exactly as `systemd-analyze calendar` prints it.
  public var normalized: String {
    var out = ""
    if weekdays > 0 && weekdays <= Self.allWeekdays {
      let days = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
      var l = -1
      var needComma = false
      var x = 0
      while x < 7 {
        if weekdays & (1 << x) != 0 {
          if l < 0 {
            if needComma { out += "," } else { needComma = true }
            out += days[x]
            l = x
          }
        } else if l >= 0 {
          if x > l + 1 {
            out += x > l + 2 ? ".." : ","
            out += days[x - 1]
          }
          l = -1
        }
        x += 1
      }
      if l >= 0 && x > l + 1 {
        out += x > l + 2 ? ".." : ","
        out += days[x - 1]
      }
      out += " "
    }
    out += Self.format(year, 4, usec: false) + "-" + Self.format(month, 2, usec: false)
    out += (endOfMonth ? "~" : "-") + Self.format(day, 2, usec: false) + " "
    out += Self.format(hour, 2, usec: false) + ":" + Self.format(minute, 2, usec: false) + ":"
    out += Self.format(microsecond, 2, usec: true)
    if utc {
      out += " UTC"
    } else if let timezone {
      out += " " + timezone
    } else if dst == 0 || dst == 1, !localNames[dst].isEmpty {
      out += " " + localNames[dst]
    }
    return out
  }

  static func format(_ chain: Chain, _ width: Int, usec: Bool) -> String {
    guard let chain, !chain.isEmpty else { return "*" }
    let d = usec ? usecPerSec : 1
    if usec && chain.contains(where: { $0.start == 0 && $0.stop < 0 && $0.step == usecPerSec }) {
      return "*"
    }
    func padded(_ v: Int) -> String {
      let s = String(v)
      return String(repeating: "0", count: max(0, width - s.count)) + s
    }
    return chain.map { c in
      var s = padded(c.start / d)
      if c.start % d > 0 { s += "." + sixDigits(c.start % d) }
      if c.stop > 0 { s += ".." + padded(c.stop / d) }
      if c.stop % d > 0 { s += "." + sixDigits(c.stop % d) }
      if c.step > 0 && !(c.stop > 0 && c.step == d) { s += "/" + String(c.step / d) }
      if c.step % d > 0 { s += "." + sixDigits(c.step % d) }
      return s
    }.joined(separator: ",")
  }

  static func sixDigits(_ v: Int) -> String {
    let s = String(v)
    return String(repeating: "0", count: max(0, 6 - s.count)) + s
  }
}

extension CalendarSpec {
  /// Whether a zone name is safe to look up as a file (systemd's character rules).
  public static func isZoneNameSafe(_ name: String) -> Bool {
    isValidZoneName(name) && !name.split(separator: "/").contains("..")
  }
}
