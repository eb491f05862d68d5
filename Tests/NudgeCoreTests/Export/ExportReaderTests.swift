import Foundation
import Testing

@testable import NudgeCore

/// `ExportReader` reads what `nudge export` writes byte by byte; whatever it reads must be what
/// `JSONDecoder` reads, and whatever else it must leave to `JSONDecoder`.
@Suite struct ExportReaderTests {
  static let day = Day("2026-11-20")!
  static let at = "2026-11-20T21:00:00+01:00"

  /// A document with every member, texts that need escapes, optionals set and not.
  static func document() -> ExportDocument {
    let awkward = FlatJSONTests.awkward
    var document = ExportDocument(
      settings: ["snooze": "5m", "rollover-hour": "4"],
      prep: [
        PrepEntry(day: day, water: true, savedAt: at),
        PrepEntry(
          day: day.adding(days: 1), stickyNotes: true, produce: true, breakfast: true,
          other: awkward[2], savedAt: at),
      ],
      review: [
        ReviewEntry(day: day, commitTo: "tea", savedAt: at),
        ReviewEntry(
          day: day.adding(days: 1), why: awkward[3], challenge: .other,
          challengeOther: awkward[7], swap: "tea", commitTo: "x", commitFrom: "y", savedAt: at),
      ],
      checkin: [
        CheckinEntry(day: day, followed: false, savedAt: at),
        CheckinEntry(
          day: day.adding(days: 1), followed: true, feel: awkward[9], blocker: awkward[5],
          savedAt: at),
      ],
      help: [
        HelpNote(id: "n1", day: day, category: .stress, note: nil, at: at),
        HelpNote(
          id: "n2", day: day, category: .other, note: awkward[4], coach: "breathing 2:00",
          at: "2026-11-20T22:00:00+01:00"),
      ],
      achievements: [EarnedAchievement(key: .firstPrep, earnedOn: day)],
      schedule: [SlotSchedule(slot: .morning, expression: "Mon..Fri 06:45", enabled: true)],
      pauses: [Pause(firstDay: day, lastDay: day.adding(days: 3))],
      flows: [
        AnsweredEntry(
          flow: "sleep", day: day, answers: FlowAnswers(values: ["bedtime": "23:00"]), savedAt: at)
      ])
    document.plans = ["sleep": true]
    return document
  }

  static func decoded(_ text: String) -> ExportDocument? {
    try? NudgeJSON.decode(ExportDocument.self, from: Data(text.utf8))
  }

  @Test func whatExportWritesReadsAsTheDecoderReadsIt() throws {
    let text = String(decoding: try Self.document().encoded(), as: UTF8.self)
    let read = try #require(ExportReader.read(Array(text.utf8)))
    #expect(read == Self.decoded(text))
    #expect(read == Self.document())
    let empty = ExportDocument(settings: [:], prep: [], review: [], checkin: [], help: [])
    #expect(ExportReader.read(Array(try empty.encoded())) == empty)
  }

  @Test func otherSpellingsOfTheSameReadTheSame() throws {
    let spellings = [
      // compact, keys in another order, optionals null or absent, escapes of every kind,
      // an older version without the newer members, entries out of order
      #"{"version":1,"format":"nudge-export","settings":{},"prep":[{"saved_at":"2026-11-20T21:00:00+01:00","day":"2026-11-20","sticky_notes":false,"produce":true,"water":false,"breakfast":false,"other":null}],"review":[],"checkin":[],"help":[]}"#,
      "{ \"format\" : \"nudge-export\" ,\n\t\"version\" : 3 , \"settings\" : { \"a\" : \"b\" } ,\r\n \"prep\" : [ ] , \"review\" : [ { \"day\" : \"2026-11-19\" , \"why\" : \"caf\\u00e9 \\ud83d\\ude00 \\/ \\\"q\\\" \\\\ \\b\\f\\n\\r\\t\" , \"commit_to\" : null , \"saved_at\" : \"2026-11-20T08:00:00+01:00\" } ] , \"checkin\" : [ { \"day\" : \"2026-11-18\" , \"followed\" : null , \"feel\" : \"ok\" , \"saved_at\" : \"2026-11-18T21:00:00+01:00\" } ] , \"help\" : [ ] }",
      #"{"format":"nudge-export","version":2,"settings":{},"prep":[],"review":[],"checkin":[],"help":[{"at":"2026-11-20T21:00:00+01:00","category":"habit","day":"2026-11-20","id":"x"}],"plans":{},"flows":[],"pauses":[],"schedule":[],"achievements":[]}"#,
    ]
    for text in spellings {
      let expected = try #require(Self.decoded(text), "the decoder reads \(text)")
      #expect(ExportReader.read(Array(text.utf8)) == expected, "\(text)")
    }
  }

  @Test func anythingElseIsLeftToTheDecoder() throws {
    let valid = String(decoding: try Self.document().encoded(), as: UTF8.self)
    let changes: [(String, String)] = [
      ("\"water\" : true", "\"water\" : 1"),  // a number for a flag
      ("\"version\" : 3", "\"version\" : 3.0"),
      ("\"version\" : 3", "\"version\" : 4"),  // newer: the decoder's path says so
      ("\"version\" : 3", "\"version\" : 0"),
      ("\"format\" : \"nudge-export\"", "\"format\" : \"other\""),
      ("\"id\" : \"n1\"", "\"id\" : \"n1\", \"id\" : \"n1\""),  // a key twice
      ("\"id\" : \"n1\"", "\"id\" : \"n1\", \"extra\" : 1"),  // a key no entry has
      ("\"id\" : \"n1\"", "\"id\" : \"\\ud800\""),  // half a surrogate pair
      ("\"id\" : \"n1\"", "\"id\" : \"\\x41\""),
      ("\"category\" : \"stress\"", "\"category\" : \"boredom\""),
      ("\"day\" : \"2026-11-20\"", "\"day\" : \"20 Nov\""),
      ("\"version\" : 3", "\"version\" : 3, \"version\" : 3"),
      ("\"version\" : 3", "\"version\" : 3, \"comment\" : \"hi\""),
      ("\"prep\" : [", "\"prep\" : null, \"x\" : ["),
    ]
    for (original, replacement) in changes {
      #expect(valid.contains(original), "\(original)")
      let text = valid.replacing(original, with: replacement, maxReplacements: 1)
      #expect(ExportReader.read(Array(text.utf8)) == nil, "\(replacement)")
    }
    var bytes = Array(valid.utf8)
    bytes.append(contentsOf: Array("{}".utf8))  // text after the document
    #expect(ExportReader.read(bytes) == nil)
    // invalid UTF-8 inside a text
    let note = Array("breathing 2:00".utf8)
    let at = try #require(Array(valid.utf8).firstRange(of: note))
    bytes = Array(valid.utf8)
    bytes[at.lowerBound] = 0xC3
    bytes[at.lowerBound + 1] = 0x28
    #expect(ExportReader.read(bytes) == nil)
  }

  /// Random damage to a document: whatever the reader still reads, the decoder reads the same.
  @Test func damagedDocumentsReadAsTheDecoderReadsThemOrNotAtAll() throws {
    let valid = Array(try Self.document().encoded())
    let alphabet = Array("{}[]\",:\\ 0123456789tfnule-_.xé".utf8) + [0x00, 0x0A, 0xFF, 0xC3]
    var generator = SystemRandomNumberGenerator()
    var read = 0
    for _ in 0..<3000 {
      var bytes = valid
      for _ in 0..<Int.random(in: 1...3, using: &generator) {
        let index = Int.random(in: 0..<bytes.count, using: &generator)
        switch Int.random(in: 0..<3, using: &generator) {
        case 0: bytes[index] = alphabet.randomElement(using: &generator)!
        case 1: bytes.remove(at: index)
        default: bytes.insert(alphabet.randomElement(using: &generator)!, at: index)
        }
      }
      guard let document = ExportReader.read(bytes) else { continue }
      read += 1
      let decoded = try? NudgeJSON.decode(ExportDocument.self, from: Data(bytes))
      #expect(document == decoded, "\(String(decoding: bytes, as: UTF8.self))")
    }
    #expect(read > 100)  // some damage leaves a document (a changed letter in a text)
  }
}
