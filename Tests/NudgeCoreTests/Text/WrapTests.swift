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
}
