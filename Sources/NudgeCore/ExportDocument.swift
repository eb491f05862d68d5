import FoundationEssentials

/// The versioned JSON document of everything Nudge stores (`nudge export` / `nudge import`).
public struct ExportDocument: Codable, Equatable, Sendable {
  public static let formatName = "nudge-export"
  public static let currentVersion = 1

  public var format: String
  public var version: Int
  public var settings: [String: String]
  public var prep: [PrepEntry]
  public var review: [ReviewEntry]
  public var checkin: [CheckinEntry]
  public var help: [HelpNote]
  /// Earned achievements; absent in documents from before achievements existed.
  public var achievements: [EarnedAchievement]
  /// Each reminder slot's calendar expression and whether it is on; absent in older documents.
  public var schedule: [SlotSchedule]
  /// Days off (`nudge pause`); absent in documents from before pauses existed.
  public var pauses: [Pause] = []

  enum CodingKeys: String, CodingKey {
    case format, version, settings, prep, review, checkin, help, achievements, schedule, pauses
  }

  public init(
    settings: [String: String], prep: [PrepEntry], review: [ReviewEntry], checkin: [CheckinEntry],
    help: [HelpNote], achievements: [EarnedAchievement] = [], schedule: [SlotSchedule] = [],
    pauses: [Pause] = []
  ) {
    self.pauses = pauses.sorted { $0.firstDay < $1.firstDay }
    self.schedule = schedule.sorted { $0.slot.rawValue < $1.slot.rawValue }
    self.format = Self.formatName
    self.version = Self.currentVersion
    self.settings = settings
    self.prep = prep.sorted { $0.day < $1.day }
    self.review = review.sorted { $0.day < $1.day }
    self.checkin = checkin.sorted { $0.day < $1.day }
    self.help = help.sorted { ($0.at, $0.id) < ($1.at, $1.id) }
    self.achievements = achievements.sorted { $0.key.rawValue < $1.key.rawValue }
  }

  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    format = try c.decode(String.self, forKey: .format)
    version = try c.decode(Int.self, forKey: .version)
    settings = try c.decode([String: String].self, forKey: .settings)
    prep = try c.decode([PrepEntry].self, forKey: .prep)
    review = try c.decode([ReviewEntry].self, forKey: .review)
    checkin = try c.decode([CheckinEntry].self, forKey: .checkin)
    help = try c.decode([HelpNote].self, forKey: .help)
    achievements = try c.decodeIfPresent([EarnedAchievement].self, forKey: .achievements) ?? []
    schedule = try c.decodeIfPresent([SlotSchedule].self, forKey: .schedule) ?? []
    pauses = try c.decodeIfPresent([Pause].self, forKey: .pauses) ?? []
  }

  /// Stable, human-readable JSON: sorted keys, two-space indentation, trailing newline.
  public func encoded() throws -> Data {
    var data = try NudgeJSON.encode(self)
    data.append(0x0A)
    return data
  }

  private struct Header: Decodable {
    var format: String?
    var version: Int?
  }

  /// Decodes and checks a document; the error says what is wrong and where.
  public static func decode(_ data: Data) throws(InputError) -> ExportDocument {
    // an object or an array, as JSONSerialization wants one at the top
    let first = data.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
    guard first == UInt8(ascii: "{") || first == UInt8(ascii: "["),
      (try? JSONDecoder().decode(AnyJSON.self, from: data)) != nil
    else {
      throw InputError("it is not valid JSON; pass a file written by 'nudge export'.")
    }
    guard let header = try? NudgeJSON.decode(Header.self, from: data), header.format == formatName
    else {
      throw InputError(
        "it is not a Nudge export (expected \"format\": \"\(formatName)\" at the top level).")
    }
    guard let version = header.version, version >= 1 else {
      throw InputError("\"version\" is missing or not a positive whole number.")
    }
    guard version <= currentVersion else {
      throw InputError(
        "it was written by a newer Nudge (export version \(version)); this Nudge reads version \(currentVersion). Update Nudge, then import again."
      )
    }
    let document: ExportDocument
    do {
      document = try NudgeJSON.decode(ExportDocument.self, from: data)
    } catch let error as DecodingError {
      throw InputError(describe(error))
    } catch {
      throw InputError("it could not be read: \(error).")
    }
    try document.validate()
    return document
  }

  private static func path(_ codingPath: [any CodingKey]) -> String {
    var out = ""
    for key in codingPath {
      if let index = key.intValue {
        out += "[\(index)]"
      } else {
        // the key as the document spells it (the decoder read `saved_at` as `savedAt`)
        let name = snakeCase(key.stringValue)
        out += out.isEmpty ? name : ".\(name)"
      }
    }
    return out.isEmpty ? "the top level" : out
  }

  private static func snakeCase(_ name: String) -> String {
    var out = ""
    for character in name {
      if character.isUppercase {
        out += "_" + character.lowercased()
      } else {
        out.append(character)
      }
    }
    return out
  }

  private static func describe(_ error: DecodingError) -> String {
    switch error {
    case .keyNotFound(let key, let context):
      return "\(path(context.codingPath + [key])) is missing."
    case .typeMismatch(let type, let context):
      return "\(path(context.codingPath)) has the wrong type (expected \(type))."
    case .valueNotFound(let type, let context):
      return "\(path(context.codingPath)) is null (expected \(type))."
    case .dataCorrupted(let context):
      return "\(path(context.codingPath)): \(context.debugDescription)."
    @unknown default:
      return "\(error)"
    }
  }

  /// Checks what JSON types alone cannot: timestamps, one entry a day, text, settings.
  public func validate() throws(InputError) {
    func unique(_ days: [Day], _ name: String) throws(InputError) {
      var seen = Set<Day>()
      for (index, day) in days.enumerated() where !seen.insert(day).inserted {
        throw InputError("\(name)[\(index)].day repeats \(day); keep one entry a day.")
      }
    }
    func instant(_ text: String, _ location: String) throws(InputError) {
      guard InstantFormat.parse(text) != nil else {
        throw InputError(
          "\(location) is '\(text)', not a time like 2026-11-20T21:30:00+01:00.")
      }
    }
    func text(_ value: String?, _ location: String) throws(InputError) {
      if let value, value != (try FreeText.clean(value, field: location)) {
        throw InputError("\(location) has surrounding spaces or is empty; remove them.")
      }
    }
    try unique(prep.map(\.day), "prep")
    try unique(review.map(\.day), "review")
    try unique(checkin.map(\.day), "checkin")
    for (i, e) in prep.enumerated() {
      try instant(e.savedAt, "prep[\(i)].saved_at")
      try text(e.other, "prep[\(i)].other")
    }
    for (i, e) in review.enumerated() {
      try instant(e.savedAt, "review[\(i)].saved_at")
      for (v, k) in [
        (e.why, "why"), (e.challengeOther, "challenge_other"), (e.swap, "swap"),
        (e.commitTo, "commit_to"), (e.commitFrom, "commit_from"),
      ] {
        try text(v, "review[\(i)].\(k)")
      }
    }
    for (i, e) in checkin.enumerated() {
      try instant(e.savedAt, "checkin[\(i)].saved_at")
      try text(e.feel, "checkin[\(i)].feel")
      try text(e.blocker, "checkin[\(i)].blocker")
    }
    var ids = Set<String>()
    for (i, n) in help.enumerated() {
      try instant(n.at, "help[\(i)].at")
      try text(n.note, "help[\(i)].note")
      try text(n.coach, "help[\(i)].coach")
      guard !n.id.isEmpty, n.id.count <= 64, n.id.allSatisfy({ $0.isASCII && !$0.isWhitespace })
      else { throw InputError("help[\(i)].id must be 1 to 64 visible ASCII characters.") }
      guard ids.insert(n.id).inserted else {
        throw InputError("help[\(i)].id repeats '\(n.id)'; each note needs its own id.")
      }
    }
    var slots = Set<Slot>()
    for (i, s) in schedule.enumerated() {
      guard slots.insert(s.slot).inserted else {
        throw InputError("schedule[\(i)].slot repeats '\(s.slot.rawValue)'; keep one.")
      }
      guard !s.expression.isEmpty, s.expression.count <= 256,
        !s.expression.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
      else {
        throw InputError("schedule[\(i)].expression must be a calendar expression on one line.")
      }
    }
    var starts = Set<Day>()
    for (i, p) in pauses.enumerated() {
      guard starts.insert(p.firstDay).inserted else {
        throw InputError("pauses[\(i)].first_day repeats \(p.firstDay); keep one.")
      }
      guard p.firstDay <= p.lastDay, p.lastDay.ordinal - p.firstDay.ordinal < Pause.maxDays else {
        throw InputError(
          "pauses[\(i)] must end on or after its first day and last at most \(Pause.maxDays) days.")
      }
    }
    var keys = Set<Achievement>()
    for (i, a) in achievements.enumerated() where !keys.insert(a.key).inserted {
      throw InputError("achievements[\(i)].key repeats '\(a.key.rawValue)'; keep one.")
    }
    for (name, value) in settings.sorted(by: { $0.key < $1.key }) {
      do {
        let key = try SettingKey.named(name)
        _ = try key.validate(value)
      } catch {
        throw InputError("settings.\(name): \(error.message)")
      }
    }
  }
}

/// Any JSON value: decoding it checks that a text is JSON at all, before its shape is read.
private struct AnyJSON: Decodable {
  init(from decoder: any Decoder) throws {
    if var list = try? decoder.unkeyedContainer() {
      while !list.isAtEnd { _ = try list.decode(AnyJSON.self) }
    } else if let object = try? decoder.container(keyedBy: AnyKey.self) {
      for key in object.allKeys { _ = try object.decode(AnyJSON.self, forKey: key) }
    } else {
      let value = try decoder.singleValueContainer()
      if value.decodeNil() { return }
      if (try? value.decode(Bool.self)) != nil { return }
      if (try? value.decode(Double.self)) != nil { return }
      _ = try value.decode(String.self)
    }
  }

  private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }
}
