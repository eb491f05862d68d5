import Testing

@testable import NudgeCore

@Suite struct WrapTests {
  @Test func paddingCountsCharactersWhateverTheText() {
    func byCharacters(_ text: String, _ width: Int) -> String {
      text.count >= width
        ? String(text.prefix(width)) : text + String(repeating: " ", count: width - text.count)
    }
    for text in [
      "", "Today", "Fri 20 Nov", "Wed 30 Sept", "exactly 11!", "café au lait", "\r\n\r\n",
      "a\r\nb", "🔥🔥", "e\u{301}e\u{301}", "tab\there",
    ] {
      for width in [0, 3, 11, 20] {
        #expect(text.padded(to: width) == byCharacters(text, width), "\(text) \(width)")
      }
    }
  }

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

  /// A line that fits is given back without breaking it into characters: whatever the text,
  /// the result is the one the character-by-character wrapping gives.
  @Test func aLineThatFitsIsWhatTheCharacterWrappingGives() {
    let pieces = [
      "a", "word", " ", " ", "  ", "✓", "·", "é", "e\u{301}", "👩‍👩‍👧", "日本", "✅", "✔\u{FE0F}",
      "→", "\u{AD}", "\u{A0}", "ʰ", "‼", "🇩🇪", "x\u{200D}y", "—", "\t",
    ]
    var generator = SystemRandomNumberGenerator()
    var fast = 0
    for _ in 0..<4000 {
      let text = (0..<Int.random(in: 0...14, using: &generator)).map { _ in
        pieces.randomElement(using: &generator)!
      }.joined()
      for (width, indent) in [(12, 0), (20, 2), (40, 4), (80, 11)] {
        let lines = TerminalText.wrap(text, width: width, indent: indent)
        #expect(
          lines == TerminalText.wrapByCharacters(text, width: width, indent: indent),
          "\(Array(text.unicodeScalars)) at \(width)")
        if TerminalText.fittingColumns(text).map({ $0 <= max(width, indent + 10) }) == true {
          fast += 1
        }
      }
    }
    #expect(fast > 1000)  // the way most lines take was taken
    #expect(TerminalText.fittingColumns("Mon 9 Nov  ✓ prep") == nil)
    #expect(TerminalText.fittingColumns("Thu 19 Nov ✓ prep 3/4 · focus") == 29)
    #expect(TerminalText.fittingColumns("  lead") == 6)
    #expect(TerminalText.fittingColumns("end ") == nil)
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
