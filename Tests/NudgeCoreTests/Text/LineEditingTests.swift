import Foundation
import Testing

@testable import NudgeCore

/// The line editor's core: keys from bytes, a line that a paste of any length cannot stall.
@Suite struct LineEditingTests {
  func type(_ bytes: [UInt8], into buffer: inout LineBuffer) -> [LineBuffer.KeyEffect] {
    var rest = bytes[...]
    var outcomes: [LineBuffer.KeyEffect] = []
    while let key = KeyDecoder.next({ rest.popFirst() }) {
      outcomes.append(buffer.apply(key, inputPending: !rest.isEmpty))
    }
    return outcomes
  }

  @Test func aLongPasteIsCutAtTheLimitAndKeepsItsNewlinesAsSpaces() {
    var buffer = LineBuffer()
    // (the newline that ends a paste would end the answer; the ones inside it do not)
    let paste = Array(String(repeating: "ab\n", count: 50_000).utf8.dropLast())
    let outcomes = type(paste, into: &buffer)
    #expect(!outcomes.contains { if case .done = $0 { true } else { false } })
    #expect(buffer.line.count == LineBuffer.maxCharacters)
    #expect(buffer.text.hasPrefix("ab ab ab"))
    #expect(buffer.cursor == buffer.line.count)
  }

  @Test func scalarsArrivingOneByOneBecomeTheCharacterAPersonSees() {
    var buffer = LineBuffer()
    _ = type(Array("e\u{301}\u{1F468}\u{200D}\u{1F469}".utf8), into: &buffer)
    #expect(buffer.line.count == 2)
    #expect(buffer.text == "e\u{301}\u{1F468}\u{200D}\u{1F469}")
    #expect(
      buffer.apply(.enter, inputPending: false) == .done("e\u{301}\u{1F468}\u{200D}\u{1F469}"))
  }

  @Test func editingKeysMoveAndDelete() {
    var buffer = LineBuffer()
    // "hello", Left Left, Backspace, "X", Ctrl-A, Delete, End, Ctrl-W
    _ = type(Array("hello\u{1B}[D\u{1B}[D\u{7F}X\u{01}\u{1B}[3~\u{05}".utf8), into: &buffer)
    #expect(buffer.text == "eXlo")
    #expect(buffer.apply(.killWord, inputPending: false) == .edited)
    #expect(buffer.text.isEmpty)
    #expect(buffer.apply(.endOfInput, inputPending: false) == .endOfInput)
  }

  @Test func anEndlessEscapeSequenceIsDroppedNotCollected() {
    var bytes: [UInt8] =
      [27, UInt8(ascii: "[")] + Array(repeating: UInt8(ascii: "1"), count: 100_000)
    bytes.append(UInt8(ascii: "~"))
    var rest = bytes[...]
    #expect(KeyDecoder.next({ rest.popFirst() }) == .ignored)
    #expect(rest.isEmpty)
  }

  @Test func aTabTypedOrPastedIsASpaceBetweenTheWords() {
    #expect(KeyDecoder.next({ 9 }) == .tab)
    var buffer = LineBuffer()
    // a bracketed paste of "oats\tsoaking", then a typed tab and "berries"
    let outcomes = type(Array("\u{1B}[200~oats\tsoaking\u{1B}[201~\tberries".utf8), into: &buffer)
    #expect(!outcomes.contains(.unchanged))
    #expect(buffer.text == "oats soaking berries")
    #expect(buffer.apply(.enter, inputPending: false) == .done("oats soaking berries"))
    // in the middle of a line too
    _ = type(Array("ab\u{1B}[D\t".utf8), into: &buffer)
    #expect(buffer.text == "a b")
    #expect(buffer.cursor == 2)
  }

  /// An earlier answer offered to edit (issue 57, item 10): on the line, the cursor at its end;
  /// Enter keeps it, typing adds to it, and cleared, Tab or Up brings it back.
  @Test func anOfferedAnswerIsOnTheLineToEdit() {
    var buffer = LineBuffer()
    buffer.offer("calm")
    #expect(buffer.text == "calm")
    #expect(buffer.cursor == 4)
    _ = type(Array(", then fine".utf8), into: &buffer)
    #expect(buffer.apply(.enter, inputPending: false) == .done("calm, then fine"))
    // the next line starts empty: Tab is a space again, the offer went with its line
    _ = buffer.apply(.tab, inputPending: false)
    #expect(buffer.text == " ")
    _ = buffer.apply(.enter, inputPending: false)
    buffer.offer("calm")
    _ = buffer.apply(.killToStart, inputPending: false)
    #expect(buffer.text.isEmpty)
    _ = buffer.apply(.tab, inputPending: false)
    #expect(buffer.text == "calm")
    _ = buffer.apply(.killToStart, inputPending: false)
    _ = buffer.apply(.up, inputPending: false)
    #expect(buffer.text == "calm")
    // Enter on it untouched keeps it
    #expect(buffer.apply(.enter, inputPending: false) == .done("calm"))
  }
}
