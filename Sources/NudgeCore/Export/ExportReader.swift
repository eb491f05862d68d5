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
    // the document is checked to be UTF-8 once, not each of its strings
    var reader = JSONBytes(bytes: bytes, trusted: JSONBytes.isUTF8(bytes))
    do {
      return try reader.document()
    } catch {
      return nil
    }
  }

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

    mutating func text(_ name: String) throws(JSONBytes.Unread) -> String {
      guard case .text(let value)? = take(name) else { throw JSONBytes.Unread() }
      return value
    }

    mutating func optionalText(_ name: String) throws(JSONBytes.Unread) -> String? {
      switch take(name) {
      case nil, .null?: return nil
      case .text(let value)?: return value
      case .flag?: throw JSONBytes.Unread()
      }
    }

    mutating func flag(_ name: String) throws(JSONBytes.Unread) -> Bool {
      guard case .flag(let value)? = take(name) else { throw JSONBytes.Unread() }
      return value
    }

    mutating func optionalFlag(_ name: String) throws(JSONBytes.Unread) -> Bool? {
      switch take(name) {
      case nil, .null?: return nil
      case .flag(let value)?: return value
      case .text?: throw JSONBytes.Unread()
      }
    }

    mutating func day(_ name: String) throws(JSONBytes.Unread) -> Day {
      guard let day = Day(try text(name)) else { throw JSONBytes.Unread() }
      return day
    }

    /// Throws unless every field was taken.
    func finish() throws(JSONBytes.Unread) {
      guard names.isEmpty else { throw JSONBytes.Unread() }
    }
  }
}

extension JSONBytes {

  mutating func document() throws(JSONBytes.Unread) -> ExportDocument {
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
        guard seen.insert(key).inserted else { throw JSONBytes.Unread() }
        try expect(UInt8(ascii: ":"))
        switch key {
        case "format": format = try string()
        case "version": version = try number()
        case "prep": prep = try entries(Self.prep)
        case "review": review = try entries(Self.review)
        case "checkin": checkin = try entries(Self.checkin)
        case "help": help = try entries(Self.help)
        case "settings", "achievements", "schedule", "pauses", "flows", "plans", "habits",
          "plan_files":
          skipSpaces()
          let start = at
          try skipValue()
          others[key] = start..<at
        default: throw JSONBytes.Unread()
        }
      } while take(UInt8(ascii: ","))
      try expect(UInt8(ascii: "}"))
    }
    skipSpaces()
    guard at == bytes.count, format == ExportDocument.formatName, let version,
      (1...ExportDocument.currentVersion).contains(version), let prep, let review, let checkin,
      let help
    else { throw JSONBytes.Unread() }
    func member<T: Decodable>(_ key: String, _ type: T.Type) throws(JSONBytes.Unread) -> T? {
      guard let range = others[key] else { return nil }
      do {
        return try NudgeJSON.decode(type, from: Data(bytes[range]))
      } catch {
        throw JSONBytes.Unread()
      }
    }
    guard let settings = try member("settings", [String: String].self) else {
      throw JSONBytes.Unread()
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
    document.planFiles = try member("plan_files", [ExportPlanFile].self) ?? []
    return document
  }

  static func prep(_ f: inout ExportReader.Fields) throws(JSONBytes.Unread) -> PrepEntry {
    PrepEntry(
      day: try f.day("day"), stickyNotes: try f.flag("sticky_notes"),
      produce: try f.flag("produce"), water: try f.flag("water"),
      breakfast: try f.flag("breakfast"), other: try f.optionalText("other"),
      savedAt: try f.text("saved_at"))
  }

  static func review(_ f: inout ExportReader.Fields) throws(JSONBytes.Unread) -> ReviewEntry {
    var challenge: Challenge?
    if let name = try f.optionalText("challenge") {
      guard let known = Challenge(rawValue: name) else { throw JSONBytes.Unread() }
      challenge = known
    }
    return ReviewEntry(
      day: try f.day("day"), why: try f.optionalText("why"), challenge: challenge,
      challengeOther: try f.optionalText("challenge_other"), swap: try f.optionalText("swap"),
      commitTo: try f.optionalText("commit_to"), commitFrom: try f.optionalText("commit_from"),
      savedAt: try f.text("saved_at"))
  }

  static func checkin(_ f: inout ExportReader.Fields) throws(JSONBytes.Unread) -> CheckinEntry {
    CheckinEntry(
      day: try f.day("day"), followed: try f.optionalFlag("followed"),
      feel: try f.optionalText("feel"), blocker: try f.optionalText("blocker"),
      savedAt: try f.text("saved_at"))
  }

  static func help(_ f: inout ExportReader.Fields) throws(JSONBytes.Unread) -> HelpNote {
    guard let category = HelpCategory(rawValue: try f.text("category")) else {
      throw JSONBytes.Unread()
    }
    return HelpNote(
      id: try f.text("id"), day: try f.day("day"), category: category,
      note: try f.optionalText("note"), coach: try f.optionalText("coach"), at: try f.text("at"))
  }
}
