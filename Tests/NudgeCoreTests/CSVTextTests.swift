import NudgeCore
import Testing

/// RFC 4180 read back: quotes, doubled quotes and line ends inside them, a byte order mark,
/// CRLF, blank lines; and a quote left open or misplaced refused with its line.
@Suite struct CSVTextTests {
  @Test func readsWhatSpreadsheetsAndLoopWrite() throws {
    let rows = try CSVText.rows(
      "\u{FEFF}Date,Value,Notes\r\n2026-11-20,YES_MANUAL,\"calm, \"\"finally\"\"\"\r\n\r\n"
        + "2026-11-18,NO,\"too\nlate\"\n2026-11-17,SKIP,\n\"\",,")
    #expect(
      rows == [
        CSVText.Row(line: 1, fields: ["Date", "Value", "Notes"]),
        CSVText.Row(line: 2, fields: ["2026-11-20", "YES_MANUAL", "calm, \"finally\""]),
        CSVText.Row(line: 4, fields: ["2026-11-18", "NO", "too\nlate"]),
        CSVText.Row(line: 6, fields: ["2026-11-17", "SKIP", ""]),
        CSVText.Row(line: 7, fields: ["", "", ""]),
      ])
    #expect(try CSVText.rows("") == [])
    #expect(try CSVText.rows("a,b") == [CSVText.Row(line: 1, fields: ["a", "b"])])
  }

  @Test func aQuoteLeftOpenOrMisplacedIsRefusedWithItsLine() {
    #expect(throws: InputError("line 2 opens a quote that is never closed")) {
      try CSVText.rows("a\n\"b,c\nd\n")
    }
    #expect(throws: InputError("line 1 has a quote inside a field that does not start with one")) {
      try CSVText.rows("ab\"c\"")
    }
    #expect(throws: InputError("line 3 has text after a field's closing quote")) {
      try CSVText.rows("a\nb\n\"c\"d")
    }
  }
}
