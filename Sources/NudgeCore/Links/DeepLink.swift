/// A `nudge://` link, parsed strictly: the link grammar of `deeplinks/GRAMMAR.md`.
public enum DeepLink: Equatable, Sendable {
  case prep, review, checkin
  case needHelp(HelpCategory?)
  case today, streak, achievements, week
  case celebrate(Achievement?)
  /// Replays the stored celebration with this draw number (the celebration notification's).
  case replay(UInt64)
  /// A flow a plan file defines, by its word (`nudge://sleep`).
  case flow(String)
  /// One of the person's own habits, by its name (`nudge://habit?name=Stretch`): marks it
  /// done, asking the amount of a measurable one.
  case habit(String)

  public static let maxLength = 256

  /// Parses a link; the error says what is wrong with it. `flowWords`: the words of the
  /// flows the plans that are on define (their links' hosts).
  public static func parse(_ text: String, flowWords: Set<String> = []) throws(InputError)
    -> DeepLink
  {
    guard !text.isEmpty else { throw InputError("the link is empty") }
    guard text.utf8.count <= maxLength else {
      throw InputError("the link is longer than \(maxLength) characters")
    }
    guard !text.hasPrefix("-") else { throw InputError("a link cannot start with '-'") }
    for scalar in text.unicodeScalars {
      guard scalar.isASCII, scalar.value >= 0x21, scalar.value != 0x7F else {
        throw InputError("the link contains a space, control or non-ASCII character")
      }
    }
    let prefix = "nudge://"
    guard text.hasPrefix(prefix) else {
      throw InputError("only nudge:// links are handled (e.g. nudge://review)")
    }
    let rest = text.dropFirst(prefix.count)
    let parts = rest.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
    var host = String(parts[0])
    if host.hasSuffix("/") { host.removeLast() }
    var query: [(String, String)] = []
    if parts.count == 2 {
      for pair in parts[1].split(separator: "&", omittingEmptySubsequences: false) {
        let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard kv.count == 2, !kv[0].isEmpty, !kv[1].isEmpty else {
          throw InputError("the query part '\(pair)' is not key=value")
        }
        query.append((String(kv[0]), String(kv[1])))
      }
      guard !query.isEmpty else { throw InputError("the query is empty") }
    }
    func only(_ key: String?) throws(InputError) -> String? {
      for (k, _) in query where k != key {
        throw InputError("'\(k)' is not a parameter of nudge://\(host)")
      }
      guard query.count <= 1 else { throw InputError("a parameter is given twice") }
      return query.first?.1
    }
    switch host {
    case "prep":
      _ = try only(nil)
      return .prep
    case "review":
      _ = try only(nil)
      return .review
    case "checkin":
      _ = try only(nil)
      return .checkin
    case "today":
      _ = try only(nil)
      return .today
    case "streak":
      _ = try only(nil)
      return .streak
    case "week":
      _ = try only(nil)
      return .week
    case "achievements":
      _ = try only(nil)
      return .achievements
    case "need-help":
      guard let value = try only("category") else { return .needHelp(nil) }
      guard let category = HelpCategory(rawValue: value) else {
        throw InputError("category must be stress, habit, physical or other")
      }
      return .needHelp(category)
    case "celebrate":
      if query.count == 1, query[0].0 == "replay" {
        let value = query[0].1
        guard value.count <= 18, value.allSatisfy({ $0.isASCII && $0.isNumber }),
          let number = UInt64(value)
        else { throw InputError("replay must be a celebration number") }
        return .replay(number)
      }
      guard let value = try only("achievement") else { return .celebrate(nil) }
      // a flow's first is one of a flow some plan defines
      var known = Achievement(rawValue: value)
      if case .firstOf(let word)? = known, !flowWords.contains(word) { known = nil }
      guard let achievement = known else {
        throw InputError(
          "'\(value)' is not an achievement key"
            + (Suggestion.closest(to: value, among: Achievement.allCases.map(\.rawValue)).map {
              " (did you mean '\($0)'?)"
            } ?? ""))
      }
      return .celebrate(achievement)
    case "habit":
      guard let value = try only("name") else {
        throw InputError("nudge://habit needs the habit's name: nudge://habit?name=NAME")
      }
      guard let name = Self.percentDecoded(value), !name.isEmpty, name.count <= 60,
        !name.hasPrefix("-"),
        !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
      else {
        throw InputError(
          "name must be a habit's name, percent-encoded UTF-8 of 1 to 60 characters with no control character"
        )
      }
      return .habit(name)
    case let word where flowWords.contains(word):
      _ = try only(nil)
      return .flow(word)
    default:
      throw InputError(
        "'\(host)' is not a Nudge link"
          + (Suggestion.closest(to: host, among: Self.hosts + flowWords.sorted()).map {
            " (did you mean '\($0)'?)"
          }
            ?? "")
          + "; use " + (Self.hosts + flowWords.sorted()).joined(separator: ", ")
      )
    }
  }

  /// The link names `parse` takes (besides the flows of plans), the one list its refusal, its
  /// suggestion and deeplinks/GRAMMAR.md's `route` say (DeepLinkListsTests holds them).
  public static let hosts = [
    "prep", "review", "checkin", "need-help", "today", "streak", "week", "achievements",
    "celebrate", "habit",
  ]

  /// `text` with each `%XX` made the byte it stands for, read as UTF-8; nil for a malformed
  /// escape or bytes that are not UTF-8.
  public static func percentDecoded(_ text: String) -> String? {
    var bytes: [UInt8] = []
    var iterator = text.utf8.makeIterator()
    while let byte = iterator.next() {
      guard byte == UInt8(ascii: "%") else {
        bytes.append(byte)
        continue
      }
      func hex(_ digit: UInt8?) -> UInt8? {
        guard let digit, let value = Character(Unicode.Scalar(digit)).hexDigitValue else {
          return nil
        }
        return UInt8(value)
      }
      guard let high = hex(iterator.next()), let low = hex(iterator.next()) else { return nil }
      let value = high << 4 | low
      bytes.append(value)
    }
    return String(validating: bytes, as: UTF8.self)
  }

  /// `text` with every byte but unreserved ASCII letters, digits and `-._~` as `%XX`.
  static func percentEncoded(_ text: String) -> String {
    var out = ""
    for byte in text.utf8 {
      let scalar = Unicode.Scalar(byte)
      if scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar))
        || "-._~".unicodeScalars.contains(scalar)
      {
        out.unicodeScalars.append(scalar)
      } else {
        out += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
      }
    }
    return out
  }

  /// The link as text, the inverse of `parse`: `DeepLink.parse(link.url) == link`.
  public var url: String {
    switch self {
    case .prep: "nudge://prep"
    case .review: "nudge://review"
    case .checkin: "nudge://checkin"
    case .needHelp(let category):
      "nudge://need-help" + (category.map { "?category=\($0.rawValue)" } ?? "")
    case .today: "nudge://today"
    case .streak: "nudge://streak"
    case .week: "nudge://week"
    case .achievements: "nudge://achievements"
    case .celebrate(let achievement):
      "nudge://celebrate" + (achievement.map { "?achievement=\($0.rawValue)" } ?? "")
    case .replay(let number): "nudge://celebrate?replay=\(number)"
    case .flow(let word): "nudge://\(word)"
    case .habit(let name): "nudge://habit?name=" + Self.percentEncoded(name)
    }
  }

  /// The reminder slot whose reminder opens this link (what a Snooze from the flow delays).
  public var slot: ReminderSource? {
    if self == .checkin { return .evening }
    return ReminderSource.allCases.first { $0.deepLink == self }
  }

  /// The `nudge` arguments that run this link's flow.
  public var arguments: [String] {
    switch self {
    case .prep: ["prep"]
    case .review: ["review"]
    case .checkin: ["checkin"]
    case .needHelp(let category):
      ["need-help"] + (category.map { ["--category", $0.rawValue] } ?? [])
    case .today: ["today"]
    case .streak: ["streak"]
    case .week: ["week"]
    case .achievements: ["achievements"]
    case .celebrate(let achievement): ["celebrate"] + (achievement.map { [$0.rawValue] } ?? [])
    case .replay(let number): ["celebrate", "--replay", String(number)]
    case .flow(let word): [word]
    case .habit(let name): ["habit", "done", "--exact", "--", name]
    }
  }
}
