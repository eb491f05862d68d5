import Testing

@testable import NudgeCore

@Suite struct WrapTests {
  @Test func wrapsAtSpacesIndentsAndCutsLongWords() {
    let lines = TerminalText.wrap(
      "  My Why: energy for my kids and for the long afternoons", width: 20, indent: 4)
    #expect(
      lines == ["  My Why: energy for", "    my kids and for", "    the long", "    afternoons"])
    #expect(lines.allSatisfy { TerminalText.columns($0) <= 20 })
    let long = TerminalText.wrap(String(repeating: "x", count: 25), width: 10)
    #expect(long == ["xxxxxxxxxx", "xxxxxxxxxx", "xxxxx"])
    #expect(TerminalText.wrap("", width: 10) == [""])
  }

  @Test func wideCharactersTakeTwoColumns() {
    #expect(TerminalText.columns("ab👩‍👩‍👧c") == 5)
    #expect(TerminalText.columns("日本") == 4)
  }

  @Test func partsWrapAsOneTextAndKeepTheirOwnPieces() {
    let lines = TerminalText.wrap(
      parts: ["That morning: ", "I will walk instead of late-night snacking."], width: 20,
      indent: 2)
    #expect(
      lines.map { $0.map(\.text).joined() } == [
        "That morning: I will", "  walk instead of", "  late-night", "  snacking.",
      ])
    // each piece says its part; the indent the wrapping added is no part's
    #expect(lines[0] == [.init("That morning: ", part: 0), .init("I will", part: 1)])
    #expect(lines[1] == [.init("  ", part: nil), .init("walk instead of", part: 1)])
    #expect(lines[3] == [.init("  ", part: nil), .init("snacking.", part: 1)])
    // the same lines as the plain wrap, whatever the parts
    let plain = "Did you follow your swap that day? [Y/n]"
    #expect(
      TerminalText.wrap(parts: ["Did you follow your swap that day?", " [Y/n]"], width: 30)
        .map { $0.map(\.text).joined() } == TerminalText.wrap(plain, width: 30))
  }
}
