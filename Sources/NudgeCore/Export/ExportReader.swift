import FoundationEssentials

/// An export document read byte by byte: the coach's four entry lists (thousands of entries
/// after a few years) field by field, the other members through `NudgeJSON`. Through
/// `JSONDecoder` alone the lists were most of an import's time. It reads only what `nudge
/// export` writes and what `JSONDecoder` would read the same way: any other spelling (an
/// unknown or repeated key, a number where text belongs, an escape it does not know,
/// invalid UTF-8) gives nil, and the caller decodes the text with `JSONDecoder`, which says
/// what is wrong. `ExportReaderTests` hold its documents to `JSONDecoder`'s.
enum ExportReader {
  /// The document in `bytes`, or nil to leave it to `JSONDecoder`.
  static func read(_ bytes: [UInt8]) -> ExportDocument? {
    var reader = JSONBytes(bytes: bytes)
    do {
      return try reader.document()
    } catch {
      return nil
    }
  }

  /// A spelling this reader leaves to `JSONDecoder`.
  struct Unread: Error {}

  /// One value of an entry's field.
  enum Field {
    case text(String)
    case flag(Bool)
    case null
  }

  /// An entry's fields, each taken once by name; what is left untaken is a key the entry
  /// does not have.
  struct Fields {
    var names: [String] = []
    var values: [Field] = []

    mutating func take(_ name: String) -> Field? {
      guard let index = names.firstIndex(of: name) else { return nil }
      names.remove(at: index)
      return values.remove(at: index)
    }

    mutating func text(_ name: String) throws(ExportReader.Unread) -> String {
      guard case .text(let value)? = take(name) else { throw ExportReader.Unread() }
      return value
    }

    mutating func optionalText(_ name: String) throws(ExportReader.Unread) -> String? {
      switch take(name) {
      case nil, .null?: return nil
      case .text(let value)?: return value
      case .flag?: throw ExportReader.Unread()
      }
    }

    mutating func flag(_ name: String) throws(ExportReader.Unread) -> Bool {
      guard case .flag(let value)? = take(name) else { throw ExportReader.Unread() }
      return value
    }

    mutating func optionalFlag(_ name: String) throws(ExportReader.Unread) -> Bool? {
      switch take(name) {
      case nil, .null?: return nil
      case .flag(let value)?: return value
      case .text?: throw ExportReader.Unread()
      }
    }

    mutating func day(_ name: String) throws(ExportReader.Unread) -> Day {
      guard let day = Day(try text(name)) else { throw ExportReader.Unread() }
      return day
    }

    /// Throws unless every field was taken.
    func finish() throws(ExportReader.Unread) {
      guard names.isEmpty else { throw ExportReader.Unread() }
    }
  }
}

extension JSONBytes {

  mutating func document() throws(ExportReader.Unread) -> ExportDocument {
    var format: String?
    var version: Int?
    var prep: [PrepEntry]?
    var review: [ReviewEntry]?
    var checkin: [CheckinEntry]?
    var help: [HelpNote]?
    var others: [String: Range<Int>] = [:]
    try expect(UInt8(ascii: "{"))
    var seen = Set<String>()
    if !take(UInt8(ascii: "}")) {
      repeat {
        let key = try string()
        guard seen.insert(key).inserted else { throw ExportReader.Unread() }
        try expect(UInt8(ascii: ":"))
        switch key {
        case "format": format = try string()
        case "version": version = try number()
        case "prep": prep = try entries(Self.prep)
        case "review": review = try entries(Self.review)
        case "checkin": checkin = try entries(Self.checkin)
        case "help": help = try entries(Self.help)
        case "settings", "achievements", "schedule", "pauses", "flows", "plans", "habits":
          skipSpaces()
          let start = at
          try skipValue()
          others[key] = start..<at
        default: throw ExportReader.Unread()
        }
      } while take(UInt8(ascii: ","))
      try expect(UInt8(ascii: "}"))
    }
    skipSpaces()
    guard at == bytes.count, format == ExportDocument.formatName, let version,
      (1...ExportDocument.currentVersion).contains(version), let prep, let review, let checkin,
      let help
    else { throw ExportReader.Unread() }
    func member<T: Decodable>(_ key: String, _ type: T.Type) throws(ExportReader.Unread) -> T? {
      guard let range = others[key] else { return nil }
      do {
        return try NudgeJSON.decode(type, from: Data(bytes[range]))
      } catch {
        throw ExportReader.Unread()
      }
    }
    guard let settings = try member("settings", [String: String].self) else {
      throw ExportReader.Unread()
    }
    var document = ExportDocument(
      settings: settings, prep: [], review: [], checkin: [], help: [])
    // as decoded: in the document's order, as `JSONDecoder` gives them
    document.version = version
    document.prep = prep
    document.review = review
    document.checkin = checkin
    document.help = help
    document.achievements = try member("achievements", [EarnedAchievement].self) ?? []
    document.schedule = try member("schedule", [SlotSchedule].self) ?? []
    document.pauses = try member("pauses", [Pause].self) ?? []
    document.flows = try member("flows", [AnsweredEntry].self) ?? []
    document.plans = try member("plans", [String: Bool].self) ?? [:]
    document.habits = try member("habits", [ExportHabit].self) ?? []
    return document
  }

  static func prep(_ f: inout ExportReader.Fields) throws(ExportReader.Unread) -> PrepEntry {
    PrepEntry(
      day: try f.day("day"), stickyNotes: try f.flag("sticky_notes"),
      produce: try f.flag("produce"), water: try f.flag("water"),
      breakfast: try f.flag("breakfast"), other: try f.optionalText("other"),
      savedAt: try f.text("saved_at"))
  }

  static func review(_ f: inout ExportReader.Fields) throws(ExportReader.Unread) -> ReviewEntry {
    var challenge: Challenge?
    if let name = try f.optionalText("challenge") {
      guard let known = Challenge(rawValue: name) else { throw ExportReader.Unread() }
      challenge = known
    }
    return ReviewEntry(
      day: try f.day("day"), why: try f.optionalText("why"), challenge: challenge,
      challengeOther: try f.optionalText("challenge_other"), swap: try f.optionalText("swap"),
      commitTo: try f.optionalText("commit_to"), commitFrom: try f.optionalText("commit_from"),
      savedAt: try f.text("saved_at"))
  }

  static func checkin(_ f: inout ExportReader.Fields) throws(ExportReader.Unread) -> CheckinEntry {
    CheckinEntry(
      day: try f.day("day"), followed: try f.optionalFlag("followed"),
      feel: try f.optionalText("feel"), blocker: try f.optionalText("blocker"),
      savedAt: try f.text("saved_at"))
  }

  static func help(_ f: inout ExportReader.Fields) throws(ExportReader.Unread) -> HelpNote {
    guard let category = HelpCategory(rawValue: try f.text("category")) else {
      throw ExportReader.Unread()
    }
    return HelpNote(
      id: try f.text("id"), day: try f.day("day"), category: category,
      note: try f.optionalText("note"), coach: try f.optionalText("coach"), at: try f.text("at"))
  }
}

/// JSON text read byte by byte, for the few shapes Nudge reads often; a spelling it does not
/// read throws `ExportReader.Unread`, and the caller goes to `JSONDecoder`.
struct JSONBytes {
  let bytes: [UInt8]
  var at = 0

  /// An array of flat objects, each made into an entry by `make`.
  mutating func entries<T>(_ make: (inout ExportReader.Fields) throws(ExportReader.Unread) -> T)
    throws(ExportReader.Unread) -> [T]
  {
    try expect(UInt8(ascii: "["))
    var list: [T] = []
    if take(UInt8(ascii: "]")) { return list }
    repeat {
      var fields = ExportReader.Fields()
      try expect(UInt8(ascii: "{"))
      if !take(UInt8(ascii: "}")) {
        repeat {
          let name = try string()
          guard !fields.names.contains(name) else { throw ExportReader.Unread() }
          try expect(UInt8(ascii: ":"))
          fields.names.append(name)
          fields.values.append(try field())
        } while take(UInt8(ascii: ","))
        try expect(UInt8(ascii: "}"))
      }
      list.append(try make(&fields))
      try fields.finish()
    } while take(UInt8(ascii: ","))
    try expect(UInt8(ascii: "]"))
    return list
  }

  mutating func field() throws(ExportReader.Unread) -> ExportReader.Field {
    skipSpaces()
    guard at < bytes.count else { throw ExportReader.Unread() }
    switch bytes[at] {
    case UInt8(ascii: "\""): return .text(try string())
    case UInt8(ascii: "t"):
      try literal("true")
      return .flag(true)
    case UInt8(ascii: "f"):
      try literal("false")
      return .flag(false)
    case UInt8(ascii: "n"):
      try literal("null")
      return .null
    default: throw ExportReader.Unread()
    }
  }

  mutating func literal(_ word: StaticString) throws(ExportReader.Unread) {
    let count = word.utf8CodeUnitCount
    guard at + count <= bytes.count else { throw ExportReader.Unread() }
    for index in 0..<count where bytes[at + index] != word.utf8Start[index] {
      throw ExportReader.Unread()
    }
    at += count
  }

  /// A whole number of up to nine digits, without sign, fraction or exponent.
  mutating func number() throws(ExportReader.Unread) -> Int {
    skipSpaces()
    let start = at
    while at < bytes.count, bytes[at] >= UInt8(ascii: "0"), bytes[at] <= UInt8(ascii: "9") {
      at += 1
    }
    let digits = at - start
    guard digits > 0, digits <= 9, digits == 1 || bytes[start] != UInt8(ascii: "0") else {
      throw ExportReader.Unread()
    }
    if at < bytes.count,
      [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[at])
    {
      throw ExportReader.Unread()
    }
    return bytes[start..<at].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
  }

  /// Any JSON value, passed over (the nesting was bounded before: `checkNesting`).
  mutating func skipValue() throws(ExportReader.Unread) {
    skipSpaces()
    guard at < bytes.count else { throw ExportReader.Unread() }
    switch bytes[at] {
    case UInt8(ascii: "\""): _ = try string()
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      let close = bytes[at] == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
      at += 1
      if take(close) { return }
      repeat {
        if close == UInt8(ascii: "}") {
          _ = try string()
          try expect(UInt8(ascii: ":"))
        }
        try skipValue()
      } while take(UInt8(ascii: ","))
      try expect(close)
    default:
      // a number or a literal: the bytes up to the next delimiter (its decoder checks it)
      let start = at
      while at < bytes.count,
        ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D]
          .contains(bytes[at])
      {
        at += 1
      }
      guard at > start else { throw ExportReader.Unread() }
    }
  }

  mutating func skipSpaces() {
    while at < bytes.count,
      bytes[at] == 0x20 || bytes[at] == 0x09 || bytes[at] == 0x0A || bytes[at] == 0x0D
    {
      at += 1
    }
  }

  mutating func take(_ byte: UInt8) -> Bool {
    skipSpaces()
    guard at < bytes.count, bytes[at] == byte else { return false }
    at += 1
    return true
  }

  mutating func expect(_ byte: UInt8) throws(ExportReader.Unread) {
    guard take(byte) else { throw ExportReader.Unread() }
  }

  /// A JSON string: valid UTF-8, the escapes JSON has, no control character.
  mutating func string() throws(ExportReader.Unread) -> String {
    try expect(UInt8(ascii: "\""))
    let start = at
    while at < bytes.count, bytes[at] != UInt8(ascii: "\""), bytes[at] != UInt8(ascii: "\\"),
      bytes[at] >= 0x20
    {
      at += 1
    }
    guard at < bytes.count else { throw ExportReader.Unread() }
    if bytes[at] == UInt8(ascii: "\"") {
      at += 1
      return try Self.text(bytes[start..<at - 1])
    }
    var out = Array(bytes[start..<at])
    while true {
      guard at < bytes.count else { throw ExportReader.Unread() }
      let byte = bytes[at]
      at += 1
      switch byte {
      case UInt8(ascii: "\""): return try Self.text(out[...])
      case UInt8(ascii: "\\"):
        guard at < bytes.count else { throw ExportReader.Unread() }
        let escape = bytes[at]
        at += 1
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escape)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "u"):
          var code = try hex4()
          if (0xD800..<0xDC00).contains(code) {
            // a surrogate pair: the low half must follow
            guard at + 1 < bytes.count, bytes[at] == UInt8(ascii: "\\"),
              bytes[at + 1] == UInt8(ascii: "u")
            else { throw ExportReader.Unread() }
            at += 2
            let low = try hex4()
            guard (0xDC00..<0xE000).contains(low) else { throw ExportReader.Unread() }
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
          }
          guard let scalar = Unicode.Scalar(code) else { throw ExportReader.Unread() }
          out += Array(String(Character(scalar)).utf8)
        default: throw ExportReader.Unread()
        }
      case 0x00..<0x20: throw ExportReader.Unread()
      default: out.append(byte)
      }
    }
  }

  static func text(_ bytes: ArraySlice<UInt8>) throws(ExportReader.Unread) -> String {
    guard let text = String(validating: bytes, as: UTF8.self) else { throw ExportReader.Unread() }
    return text
  }

  mutating func hex4() throws(ExportReader.Unread) -> UInt32 {
    guard at + 4 <= bytes.count else { throw ExportReader.Unread() }
    var value: UInt32 = 0
    for _ in 0..<4 {
      let byte = bytes[at]
      at += 1
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: throw ExportReader.Unread()
      }
      value = value << 4 | UInt32(digit)
    }
    return value
  }
}
