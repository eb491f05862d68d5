import Foundation
import Testing

@testable import NudgeCore

/// The panel's status: its line, state, tooltip and click for each way a day stands; each bar's
/// format escaped as that bar reads it; a long list bounded; and when it next turns by the
/// clock alone.
@Suite struct PanelStatusTests {
  func status(
    flows: [PanelStatus.FlowItem] = [], habits: [PanelStatus.HabitItem] = [],
    paused: String? = nil
  ) -> PanelStatus {
    PanelStatus(
      heading: "Friday 20 November", streak: 5, flows: flows, habits: habits, pausedUntil: paused)
  }

  let prep = PanelStatus.FlowItem(title: "Prep", link: .prep, done: false)
  let checkin = PanelStatus.FlowItem(title: "Check-in", link: .checkin, done: true)

  @Test func eachWayADayStandsHasItsLineStateAndClick() {
    let due = status(
      flows: [checkin, prep], habits: [.init(name: "Stretch", state: .due)])
    #expect(due.state == .due)
    #expect(due.text == "🔥 5 · Prep · 1 habit left")
    #expect(due.next == .prep)
    #expect(due.habitsLeft == 1)
    #expect(
      due.tooltip == ["Friday 20 November · streak 5 days", "✓ Check-in", "○ Prep", "○ Stretch"])
    var reminded = prep
    reminded.reminded = true
    let overdue = status(flows: [reminded])
    #expect(overdue.state == .overdue && overdue.tooltip.last == "! Prep")
    let habitsOnly = status(
      flows: [checkin],
      habits: [
        .init(name: "A", state: .due), .init(name: "B", state: .due),
        .init(name: "C", state: .done), .init(name: "D", state: .notDue),
      ])
    #expect(habitsOnly.text == "🔥 5 · 2 habits left" && habitsOnly.state == .due)
    #expect(habitsOnly.next == .today)
    #expect(!habitsOnly.tooltip.contains { $0.hasSuffix("D") })
    let done = status(flows: [checkin], habits: [.init(name: "C", state: .skipped)])
    #expect(done.state == .done && done.text == "🔥 5 · all done")
    #expect(done.tooltip.last == "- C")
    let paused = status(flows: [prep], paused: "Fri 27 Nov")
    #expect(paused.state == .paused && paused.text == "⏸ paused until Fri 27 Nov")
    #expect(paused.tooltip[1] == "Days off until Fri 27 Nov")
  }

  @Test func aLongListIsBoundedAndSaysHowManyMore() {
    let many = status(habits: (1...500).map { .init(name: "habit \($0)", state: .due) })
    #expect(many.tooltip.count == PanelStatus.maxTooltipLines)
    #expect(many.tooltip.last == "and 482 more")
    #expect(many.text == "🔥 5 · 500 habits left")
  }

  @Test func eachFormatEscapesAsItsBarReadsIt() throws {
    let hostile = "<b>Run</b> & %{F#f00}\u{202E}evil\nline"
    let s = status(
      flows: [PanelStatus.FlowItem(title: hostile, link: .flow("run"), done: false)],
      habits: [.init(name: hostile, state: .due)])
    for format in PanelFormat.allCases {
      let out = format.render(s)
      #expect(!out.unicodeScalars.contains { $0.value == 0x202E }, "\(format)")
      #expect(out.split(separator: "\n").count == 1, "\(format): \(out)")
    }
    let waybar = PanelFormat.waybar.render(s)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(waybar.utf8)) as? [String: String])
    #expect(object["class"] == "due" && object["alt"] == "due")
    #expect(object["text"]?.contains("&lt;b&gt;Run&lt;/b&gt; &amp;") == true, "\(waybar)")
    #expect(object["tooltip"]?.contains("<b>") == false)
    let polybar = PanelFormat.polybar.render(s)
    #expect(polybar.hasPrefix("%{F#E5C07B}") && polybar.hasSuffix("%{F-}"))
    #expect(polybar.components(separatedBy: "%{").count == 3, "\(polybar)")
    let genmon = PanelFormat.genmon.render(s)
    #expect(genmon.hasPrefix("<txt>🔥 5 · &lt;b&gt;Run"), "\(genmon)")
    #expect(genmon.hasSuffix("<txtclick>nudge status --open</txtclick>"))
    #expect(genmon.components(separatedBy: "<tool>").count == 2)
    let i3 = try #require(
      try JSONSerialization.jsonObject(with: Data(PanelFormat.i3blocks.render(s).utf8))
        as? [String: String])
    #expect(i3["short_text"] == "🔥 5" && i3["color"] == "#E5C07B")
    #expect(i3["full_text"]?.hasPrefix("🔥 5 · <b>Run</b>") == true)
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(PanelFormat.json.render(s).utf8))
        as? [String: Any])
    #expect(json["next"] as? String == "nudge://run")
    #expect(json["habits_left"] as? Int == 1)
    #expect((json["tooltip"] as? [String])?.count == 3)
  }

  /// `nextChange` after the instant `at`, as the local time of `zone` says it.
  static func next(_ at: String, in zone: ZoneRules, rollover: Int = 4) throws -> String {
    let now = try #require(InstantFormat.parse(at))
    return InstantFormat.format(
      PanelStatus.nextChange(after: now, in: zone, rolloverHour: rollover), in: zone)
  }

  @Test func itNextTurnsWhenThePartOfTheDayOrTheDayDoes() throws {
    let berlin = try #require(ZoneRules(posix: "CET-1CEST,M3.5.0,M10.5.0/3"))
    func next(_ at: String, rollover: Int = 4) throws -> String {
      try Self.next(at, in: berlin, rollover: rollover)
    }
    // the morning ends at 18:00, the evening at the rollover hour, the next day's
    #expect(try next("2026-11-20T10:15:30+01:00") == "2026-11-20T18:00:00+01:00")
    #expect(try next("2026-11-20T19:00:00+01:00") == "2026-11-21T04:00:00+01:00")
    #expect(try next("2026-11-21T02:59:59+01:00", rollover: 0) == "2026-11-21T18:00:00+01:00")
    // the night the clocks go forward: 04:00 summer time is an hour less away
    #expect(try next("2026-03-29T01:30:00+01:00") == "2026-03-29T04:00:00+02:00")
  }

  /// Where the clock is half or three quarters of an hour off UTC's, the turns are still on
  /// the local clock's hours (a walk on UTC's hours would wake 30 or 15 minutes early).
  @Test(arguments: [("IST-5:30", "+05:30"), ("<+0545>-5:45", "+05:45")])
  func itNextTurnsOnTheLocalHourInAZoneOffByMinutes(posix: String, offset: String) throws {
    let zone = try #require(ZoneRules(posix: posix))
    func next(_ at: String, rollover: Int = 4) throws -> String {
      try Self.next(at, in: zone, rollover: rollover)
    }
    #expect(try next("2026-11-20T10:15:30\(offset)") == "2026-11-20T18:00:00\(offset)")
    #expect(try next("2026-11-20T17:59:59\(offset)") == "2026-11-20T18:00:00\(offset)")
    #expect(try next("2026-11-20T18:00:00\(offset)") == "2026-11-21T04:00:00\(offset)")
    #expect(try next("2026-11-21T03:30:00\(offset)", rollover: 5) == "2026-11-21T05:00:00\(offset)")
  }

  /// The bar's JSON is written by hand (JSONEncoder costs a status bar's start a
  /// millisecond): every character a name may hold reads back as itself, and the text is
  /// what JSONEncoder writes.
  @Test func theJSONWrittenByHandReadsBackAndMatchesJSONEncoders() throws {
    let texts =
      (0..<0x80).map { String(UnicodeScalar(UInt8($0))) } + [
        "Run_fast <b>now</b>\u{202E}\n", "a/b \"quoted\" \\ back", "🔥 5 · Prep", "\u{2028}x",
        "",
      ]
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    for text in texts {
      let line = PanelFormat.compact([
        "b": .string(text), "a": .lines([text, "x"]), "n": .number(-3),
      ])
      let read = try #require(
        try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
      #expect(read["b"] as? String == text && read["a"] as? [String] == [text, "x"], "\(line)")
      #expect(read["n"] as? Int == -3)
      let expected = String(decoding: try encoder.encode([text]), as: UTF8.self)
      #expect(
        "[" + PanelFormat.Value.quoted(text) + "]" == expected,
        "\(text.unicodeScalars.map(\.value))")
    }
  }
}
