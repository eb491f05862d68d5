/// Text a person typed or a file brought, made safe to show: every character that could move
/// the cursor, recolour or reorder the screen, or hide at an edge is written as a visible
/// `\u{…}` escape. What is stored and exported stays exactly as it was typed; only what is
/// shown (terminal, notification bodies, the log, the journal) goes through here.
public enum VisibleText {
  /// `text` with C0 and C1 controls, DEL, bidirectional overrides and isolates, line and
  /// paragraph separators written as `\u{XXXX}`, and invisible (default-ignorable)
  /// characters too when they stand at either end; a typed `\u{` shows as `\\u{`. Plain text
  /// comes back unchanged.
  public static func escaped(_ text: String) -> String { escaped(text, keepingEscapes: false) }

  /// A line Nudge composed (an error, a log line) whose parts from outside are escaped
  /// already: what is hostile is escaped still, but a `\u{…}` already there is kept as it is,
  /// not doubled (a habit's name read `a\\u{202E}b` in an error).
  public static func escapedKeepingEscapes(_ text: String) -> String {
    escaped(text, keepingEscapes: true)
  }

  static func escaped(_ text: String, keepingEscapes: Bool) -> String {
    // printable ASCII without a backslash, most text: nothing to escape
    if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\\") }) {
      return text
    }
    guard
      text.unicodeScalars.contains(where: { isHostile($0) || isZeroWidth($0) })
        || (!keepingEscapes && text.contains("\\u{"))
    else { return text }
    // invisible characters are escaped where they stand alone at either end: a character a
    // person sees (an emoji with its variation selector, a flag with its tags) stays whole
    let characters = Array(text)
    let invisible = { (c: Character) in c.unicodeScalars.allSatisfy(isZeroWidth) }
    let first = characters.firstIndex { !invisible($0) } ?? characters.count
    let last = characters.lastIndex { !invisible($0) } ?? -1
    var out = ""
    out.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
    for (index, character) in characters.enumerated() {
      let atEdge = index < first || index > last
      let scalars = Array(character.unicodeScalars)
      for scalar in scalars {
        if isHostile(scalar) || atEdge || scalar == "\u{FEFF}" {
          out += "\\u{" + hex(scalar.value) + "}"
        } else if !keepingEscapes, scalar == "\\",
          String(characters[index...].prefix(3)) == "\\u{"
        {
          // a backslash typed before "u{" is doubled, so typed text never reads as an escape
          out += "\\\\"
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out
  }

  /// Escaped line by line: the line breaks of a text made of several lines (a notification's
  /// body) stay line breaks.
  public static func escapedLines(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false)
      .map { escaped(String($0)) }.joined(separator: "\n")
  }

  /// Escaped, and `&`, `<` and `>` written as entities: text from a file (a plan) shown in a
  /// notification's body, which servers read as markup (a link, an image) otherwise.
  public static func escapedForMarkup(_ text: String) -> String {
    escaped(text).replacing("&", with: "&amp;").replacing("<", with: "&lt;")
      .replacing(">", with: "&gt;")
  }

  /// What `escapedForMarkup` made, its entities read back: the text as a terminal shows it
  /// (a reminder printed where no notification can be shown read `&lt;u&gt;`).
  public static func markupAsPlain(_ markup: String) -> String {
    guard markup.contains("&") else { return markup }
    return markup.replacing("&lt;", with: "<").replacing("&gt;", with: ">")
      .replacing("&amp;", with: "&")
  }

  /// Escaped, for an optional value.
  public static func escaped(_ text: String?) -> String? { text.map { escaped($0) } }

  /// Whether `text` holds anything `escaped` would change.
  public static func needsEscaping(_ text: String) -> Bool { escaped(text) != text }

  /// Characters that act on the terminal or the text's direction wherever they stand.
  static func isHostile(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F: true  // C0, DEL, C1 (ESC, CSI, NEL…)
    case 0x061C, 0x200E, 0x200F: true  // Arabic letter mark, LRM, RLM
    case 0x202A...0x202E: true  // embeddings and overrides
    case 0x2066...0x2069: true  // isolates
    case 0x2028, 0x2029: true  // line and paragraph separators
    default: false
    }
  }

  /// Characters that take no room: harmless inside a word (a ZWJ joins an emoji), but at an
  /// edge they make two texts that look the same differ.
  static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
    // Unicode's default-ignorable code points (ZWSP, ZWJ, soft hyphen, variation selectors,
    // invisible operators, tags, Hangul fillers…) and the Mongolian vowel separator
    scalar.properties.isDefaultIgnorableCodePoint || scalar.value == 0x180E
  }

  private static func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }
}

/// An entry whose free text can be shown escaped (see `VisibleText`).
public protocol ShowableText {
  /// A copy whose every free-text field is escaped for the screen; never saved.
  var shown: Self { get }
}

extension PrepEntry: ShowableText {
  public var shown: PrepEntry {
    var copy = self
    copy.other = VisibleText.escaped(other)
    return copy
  }
}

extension ReviewEntry: ShowableText {
  public var shown: ReviewEntry {
    var copy = self
    copy.why = VisibleText.escaped(why)
    copy.challengeOther = VisibleText.escaped(challengeOther)
    copy.swap = VisibleText.escaped(swap)
    copy.commitTo = VisibleText.escaped(commitTo)
    copy.commitFrom = VisibleText.escaped(commitFrom)
    return copy
  }
}

extension CheckinEntry: ShowableText {
  public var shown: CheckinEntry {
    var copy = self
    copy.feel = VisibleText.escaped(feel)
    copy.blocker = VisibleText.escaped(blocker)
    return copy
  }
}

extension HelpNote: ShowableText {
  public var shown: HelpNote {
    var copy = self
    copy.note = VisibleText.escaped(note)
    copy.coach = VisibleText.escaped(coach)
    copy.id = VisibleText.escaped(id)
    return copy
  }
}

extension HistoryDay: ShowableText {
  public var shown: HistoryDay {
    HistoryDay(
      date: date, prep: prep?.shown, review: review?.shown, checkin: checkin?.shown,
      help: help.map(\.shown), flows: flows.mapValues(\.shown))
  }
}

extension AnsweredEntry: ShowableText {
  public var shown: AnsweredEntry {
    var copy = self
    copy.flow = VisibleText.escaped(flow)
    copy.answers = FlowAnswers(values: answers.values.mapValues { VisibleText.escaped($0) })
    return copy
  }
}

extension FlowEntry: ShowableText {
  public var shown: FlowEntry {
    FlowEntry(
      flow: flow, day: day, id: id.map { VisibleText.escaped($0) },
      answers: answers.mapValues { VisibleText.escaped($0) }, savedAt: savedAt)
  }
}
