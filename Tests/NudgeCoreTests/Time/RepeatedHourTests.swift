import Foundation
import Testing

@testable import NudgeCore

/// The repeated hour of a fall-back night: which clock times happen twice, how a saved time
/// reads then, and that notes in it are ordered by the instant.
@Suite struct RepeatedHourTests {
  let berlin = TestZones.named("Europe/Berlin")!

  @Test(arguments: [
    // Europe/Berlin falls back at 03:00 CEST (01:00 UTC) on 2026-10-25
    ("2026-10-25T02:30:00+02:00", true), ("2026-10-25T02:30:00+01:00", true),
    ("2026-10-25T02:00:00+02:00", true), ("2026-10-25T02:59:59+01:00", true),
    ("2026-10-25T01:59:59+02:00", false), ("2026-10-25T03:00:00+01:00", false),
    ("2026-10-24T02:30:00+02:00", false), ("2026-10-26T02:30:00+01:00", false),
    // springing forward repeats nothing
    ("2026-03-29T01:30:00+01:00", false), ("2026-03-29T03:30:00+02:00", false),
  ])
  func theFallBackHourRepeats(time: String, repeats: Bool) throws {
    let t = try #require(InstantFormat.parse(time)).seconds
    #expect(berlin.repeatsWallTime(at: t) == repeats)
    #expect(!ZoneRules.utc.repeatsWallTime(at: t))
  }

  @Test func aClockTimeInTheRepeatedHourSaysItsOffset() {
    #expect(InstantFormat.clock("2026-10-25T02:30:00+02:00", in: berlin) == "02:30 (+02:00)")
    #expect(InstantFormat.clock("2026-10-25T02:30:00+01:00", in: berlin) == "02:30 (+01:00)")
    #expect(InstantFormat.clock("2026-10-25T01:15:00+02:00", in: berlin) == "01:15")
    #expect(InstantFormat.clock("2026-11-20T21:30:00+01:00", in: berlin) == "21:30")
    // saved in another zone than today's: as it was written
    #expect(InstantFormat.clock("2026-10-25T02:30:00-04:00", in: berlin) == "02:30")
    let newYork = TestZones.named("America/New_York")!
    #expect(InstantFormat.clock("2026-11-01T01:30:00-05:00", in: newYork) == "01:30 (-05:00)")
  }

  @Test func aClockTimeIsReadAsTheCharactersItWasWrittenWith() {
    // the clock time from the 12th to 16th characters, whatever the text (damaged ones too)
    func byCharacters(_ text: String) -> String {
      let chars = Array(text)
      guard chars.count >= 16, InstantFormat.parseWithOffset(text) != nil else { return text }
      return String(chars[11..<16])
    }
    for text in [
      "2026-11-20T21:30:00+01:00", "2026-11-20T21:30:00.123456+01:00", "2026-11-20T21:30:00Z",
      "2026-11-20T21:30", "2026-11-20T21:3", "", "é", "2026-11-20T21:30:00+01:00é",
      "2026-11-2é0T21:30:00+01:00", "2026-11-20T21:30:00+0é1:00", "x026-11-20T21:30:00+01:00",
    ] {
      #expect(InstantFormat.clock(text, in: .utc) == byCharacters(text), "\(text)")
    }
  }

  @Test func notesInTheRepeatedHourAreOrderedByTheInstant() {
    let day = Day("2026-10-24")!
    let winter = HelpNote(
      id: "a", day: day, category: .habit, note: "second", at: "2026-10-25T02:30:00+01:00")
    let summer = HelpNote(
      id: "b", day: day, category: .stress, note: "first", at: "2026-10-25T02:30:00+02:00")
    let later = HelpNote(
      id: "c", day: day, category: .other, note: "third", at: "2026-10-25T02:45:00+01:00")
    let timeline = Timeline.days(
      endingOn: day, count: 1, prep: [], review: [], checkin: [], help: [later, winter, summer])
    #expect(timeline[0].help.map(\.note) == ["first", "second", "third"])
    #expect([winter, summer].sorted(by: HelpNote.savedBefore).map(\.id) == ["b", "a"])
  }
}
