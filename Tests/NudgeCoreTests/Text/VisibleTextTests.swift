import Foundation
import Testing

@testable import NudgeCore

/// Text from outside shown escaped (VisibleText), kept exactly.
@Suite struct VisibleTextTests {
  @Test(arguments: [
    ("plain words", "plain words"),
    (
      "caf\u{E9} \u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}",
      "caf\u{E9} \u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}"
    ),
    ("\u{1B}[2J\u{1B}[31mred", "\\u{001B}[2J\\u{001B}[31mred"),
    ("a\u{202E}evil\u{202C}b", "a\\u{202E}evil\\u{202C}b"),
    ("x\u{2066}y\u{2069}", "x\\u{2066}y\\u{2069}"),
    ("one\u{2028}two\u{2029}", "one\\u{2028}two\\u{2029}"),
    ("\u{200B}water\u{200B}", "\\u{200B}water\\u{200B}"),
    ("tab\there\u{7F}\u{9B}", "tab\\u{0009}here\\u{007F}\\u{009B}"),
    ("line\nbreak\r", "line\\u{000A}break\\u{000D}"),
    ("\u{FEFF}bom", "\\u{FEFF}bom"),
    ("soft\u{AD}", "soft\\u{00AD}"),
    ("end\u{2064}\u{200B}\u{AD}\u{3164}", "end\\u{2064}\\u{200B}\\u{00AD}\\u{3164}"),
    ("typed \\u{202E} literally", "typed \\\\u{202E} literally"),
    ("a path C:\\tea stays", "a path C:\\tea stays"),
    ("tea \u{2764}\u{FE0F}", "tea \u{2764}\u{FE0F}"),
  ])
  func escapesWhatRearrangesTheScreen(text: String, shown: String) {
    #expect(VisibleText.escaped(text) == shown)
  }

  @Test func aZeroWidthJoinerInsideAWordStays() {
    let family = "\u{1F468}\u{200D}\u{1F469}"
    #expect(VisibleText.escaped(family) == family)
  }

  @Test func entriesAreShownEscapedAndTheStoredOnesUntouched() {
    let review = ReviewEntry(
      day: Day(year: 2026, month: 11, day: 20), why: "\u{202E}gnirts", commitTo: "walk\u{2028}",
      savedAt: "2026-11-20T08:00:00+01:00")
    #expect(review.shown.why == "\\u{202E}gnirts")
    #expect(review.shown.commitment == "Today I will walk\\u{2028}.")
    #expect(review.why == "\u{202E}gnirts")
  }
}

/// A notification body is markup; printed on a terminal instead, it reads as the text itself
/// (issue 56, item 9: the fallback printed `&lt;u&gt;`).
@Suite struct MarkupAsPlainTests {
  @Test(arguments: ["<u>walk</u>", "a & b", "&lt;", "&amp;amp;", "plain", "x\u{1B}[2J<y>", ""])
  func markupReadsBackAsTheEscapedText(text: String) {
    #expect(
      VisibleText.markupAsPlain(VisibleText.escapedForMarkup(text)) == VisibleText.escaped(text))
  }
}
