import Foundation
import Testing

@testable import NudgeCore

/// The byte-by-byte JSON paths (`FlatJSON`, `ExportDocument.encoded()`) write and read exactly
/// what JSONEncoder and JSONDecoder do.
@Suite struct FlatJSONTests {
  /// Every ASCII control, the characters JSON escapes, slashes, text outside ASCII.
  static let awkward: [String] = [
    "", "plain", "a \"quoted\" \\ back\\slash", "path/to/file and </script>", "tab\there",
    "line\nbreak\r\n", "\u{08}\u{0C}", String((0..<0x20).map { Character(Unicode.Scalar($0)!) }),
    "\u{7F} del", "café · ✓ 😀 👩‍👩‍👧 \u{2028}\u{FEFF}", "\\u{1b}[31m",
  ]

  func encoder(escapingSlashes: Bool) -> JSONEncoder {
    let encoder = JSONEncoder()
    if !escapingSlashes { encoder.outputFormatting = [.withoutEscapingSlashes] }
    return encoder
  }

  @Test func stringsAreEscapedAsJSONEncoderEscapesThem() throws {
    for escapingSlashes in [true, false] {
      for text in Self.awkward {
        var out: [UInt8] = []
        FlatJSON.appendString(text, to: &out, escapingSlashes: escapingSlashes)
        let expected = try encoder(escapingSlashes: escapingSlashes).encode(text)
        #expect(
          String(decoding: out, as: UTF8.self) == String(decoding: expected, as: UTF8.self),
          "\(text.debugDescription), escaping slashes: \(escapingSlashes)")
      }
    }
  }

  @Test func anObjectIsCompactWithSortedKeys() throws {
    #expect(FlatJSON.object([:]) == "{}")
    #expect(FlatJSON.object(["b": "2", "a": "1/2"]) == #"{"a":"1\/2","b":"2"}"#)
    var values: [String: String] = [:]
    for (index, text) in Self.awkward.enumerated() { values["k\(index)\(text)"] = text }
    let object = FlatJSON.object(values)
    #expect(try JSONDecoder().decode([String: String].self, from: Data(object.utf8)) == values)
  }

  @Test func aStringObjectReadsAsJSONDecoderReadsIt() throws {
    var values: [String: String] = [:]
    for (index, text) in Self.awkward.enumerated() { values["k\(index)"] = text }
    let texts = [
      FlatJSON.object(values),
      String(decoding: try JSONEncoder().encode(values), as: UTF8.self),
      #" { "a" : "x" ,"b":"\u00e9\ud83d\ude00\/\"" } "#,
      "{}",
    ]
    for text in texts {
      let expected = try JSONDecoder().decode([String: String].self, from: Data(text.utf8))
      #expect(FlatJSON.stringObject(text) == expected, "\(text)")
    }
  }

  @Test func anythingButAnObjectOfStringsIsLeftToTheDecoder() {
    for text in [
      "", "[]", "\"a\"", #"{"a":1}"#, #"{"a":null}"#, #"{"a":"x",}"#, #"{"a":"x"} x"#,
      #"{"a":"x","a":"y"}"#, #"{"a":"\x"}"#, #"{"a":"\ud83d"}"#, "{\"a\":\"\u{01}\"}",
      #"{"a":"x""#,
    ] {
      #expect(FlatJSON.stringObject(text) == nil, "\(text)")
    }
  }

  @Test func theExportIsWhatNudgeJSONWrites() throws {
    // every member, texts that need escapes, optionals set and not
    var document = ExportReaderTests.document()
    document.checkin.append(
      CheckinEntry(
        day: ExportReaderTests.day.adding(days: 2), feel: "ok", savedAt: ExportReaderTests.at))
    document.plans = ["sleep": true, "coach": false]
    for document in [
      document, ExportDocument(settings: [:], prep: [], review: [], checkin: [], help: []),
    ] {
      let expected = try NudgeJSON.encode(document) + [0x0A]
      let written = try document.encoded()
      #expect(
        String(decoding: written, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
    }
  }
}
