import FoundationEssentials

/// A flow a person completes, by its id: one of the coach plan's four (`prep`, `review`,
/// `checkin`, `need-help`), or a flow another plan's file defines, by its word (`sleep`,
/// `challenge`). What a flow asks, and its title, its definition says (`plans/coach.plan`,
/// `PlanCatalogue`, `FlowDefinition`); the coach's ids are named here once, as constants.
public struct Flow: Hashable, Codable, Sendable, RawRepresentable, CustomStringConvertible {
  /// Its stored name: the flow's id (a plan file's flow: its word).
  public let rawValue: String

  private init(id: String) { rawValue = id }

  /// The coach's flows, by the ids coach.plan gives them.
  public static let prep = Flow(id: "prep")
  public static let review = Flow(id: "review")
  public static let checkin = Flow(id: "checkin")
  public static let needHelp = Flow(id: "need-help")

  /// The coach plan's four flows, in the order a day goes.
  public static let coach: [Flow] = [.prep, .review, .checkin, .needHelp]

  /// A flow of a plan file, by its word: unique among every plan's flows and nudge's commands
  /// (the caller has checked its shape, as `FlowDefinition.isWord` says).
  public static func defined(_ word: String) -> Flow { Flow(id: word) }

  /// A coach flow by its id, or a defined flow by a word of the shape plan files allow
  /// (whether a plan has it is for the catalogue to say); nil for anything else.
  public init?(rawValue: String) {
    if let coach = Self.coach.first(where: { $0.rawValue == rawValue }) {
      self = coach
    } else if FlowDefinition.isWord(rawValue) {
      self = Flow(id: rawValue)
    } else {
      return nil
    }
  }

  /// Whether it is one of the coach's four.
  public var isCoach: Bool { Self.coach.contains(self) }

  /// A plan file's flow: its word; nil for the coach's.
  public var definedWord: String? { isCoach ? nil : rawValue }

  public var description: String { rawValue }

  /// The coach's titles, as coach.plan gives them; a defined flow's title is its definition's
  /// (the word here).
  public var title: String { isCoach ? CoachPlan.flow(rawValue).title : rawValue }

  /// The link that opens this flow.
  public var deepLink: DeepLink {
    switch self {
    case .prep: .prep
    case .review: .review
    case .checkin: .checkin
    case .needHelp: .needHelp(nil)
    default: .flow(rawValue)
    }
  }
}

/// Checks on free text typed by a person or passed as a flag.
public enum FreeText {
  public static let maxLength = 1000

  /// Trims, turns empty into nil, and refuses control characters or over-long text.
  /// `field` names the text in an error, made only when there is one (an import checks
  /// thousands of texts).
  public static func clean(_ text: String?, field: @autoclosure () -> String) throws(InputError)
    -> String?
  {
    guard let text else { return nil }
    // printable ASCII with no space at either end and not too long is clean as it is: no
    // grapheme or Unicode property to look at
    let bytes = text.utf8
    if let first = bytes.first, let last = bytes.last, first != 0x20, last != 0x20,
      bytes.count <= maxLength, bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F })
    {
      return text
    }
    let trimmed = text.trimmingSpaces
    if trimmed.isEmpty { return nil }
    if trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
      throw InputError("\(field()) contains a control character; type plain text on one line.")
    }
    // (bytes too: a thousand characters can each carry endless combining marks)
    if trimmed.utf8.count > maxLength * 8 || trimmed.count > maxLength {
      throw InputError("\(field()) is longer than \(maxLength) characters; shorten it.")
    }
    return trimmed
  }
}

/// Bad input from a person: a sentence that says what to do instead.
public struct InputError: Error, Equatable, Sendable {
  public let message: String
  public init(_ message: String) { self.message = message }
}
