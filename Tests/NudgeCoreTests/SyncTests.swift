import Foundation
import Testing

@testable import NudgeCore

/// Devices, days and times the sync tests share.
private enum Sample {
  static let a = "aaaaaaaaaaaaaaaa"
  static let b = "bbbbbbbbbbbbbbbb"
  static let c = "cccccccccccccccc"
  static let day = Day("2026-11-19")!
  /// 2026-11-26T00:00:00Z, in milliseconds: the tests' "now".
  static let now = 1_795_651_200_000
  static let savedAt = "2026-11-19T21:30:00+01:00"

  /// A prep entry's answers as the flow saves them.
  static func prepAnswers(water: Bool) -> [String: String] {
    PrepEntry(day: day, water: water, savedAt: savedAt).flowEntry.stored.answers
  }

  static func prep(water: Bool) -> SyncValue {
    SyncValue(answers: prepAnswers(water: water), savedAt: savedAt)
  }

  /// A line as read from a file: its bytes without the newline.
  static func bytes(_ line: String) -> [UInt8] {
    var bytes = Array(line.utf8)
    if bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
    return bytes
  }

  /// `json` framed with its own (correct) checksum, as a writer would.
  static func framed(_ json: String) -> [UInt8] {
    let sum = String(CRC32.checksum(Array(json.utf8)), radix: 16)
    return Array((String(repeating: "0", count: 8 - sum.count) + sum + " " + json).utf8)
  }

  /// Reads `line` as a change of `device`'s log at the tests' now.
  static func read(_ line: [UInt8], device: String = a, anyDevice: Bool = false)
    -> Result<SyncChange, SyncRefusal>
  {
    SyncLine.change(line, device: device, anyDevice: anyDevice, now: now)
  }

  static func reason(_ result: Result<SyncChange, SyncRefusal>) -> String? {
    if case .failure(let refusal) = result { return refusal.reason }
    return nil
  }

  static func clock(_ wall: Int, _ counter: Int = 0, _ device: String = a) -> SyncClock {
    SyncClock(wall: wall, counter: counter, device: device)
  }

  /// A random device id, from `rng` (so a failure can be replayed).
  static func randomDevice(_ rng: inout SplitMix64) -> String {
    let hex = String(rng.next(), radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
  }
}

// MARK: - SyncClock

@Suite struct SyncClockTests {
  /// Clocks over the whole range a text holds, with few walls and devices so ties happen.
  static func randomClocks(count: Int, seed: UInt64) -> [SyncClock] {
    var rng = SplitMix64(seed: seed)
    let devices = (0..<4).map { _ in Sample.randomDevice(&rng) } + [Sample.a, "0000000000000000"]
    let walls = [0, 7, 999, SyncClock.earliestWall, Sample.now, 9_999_999_999_999]
    return (0..<count).map { _ in
      let wall =
        Bool.random(using: &rng)
        ? walls.randomElement(using: &rng)! : Int.random(in: 0...9_999_999_999_999, using: &rng)
      let counter =
        Bool.random(using: &rng)
        ? Int.random(in: 0...3, using: &rng) : Int.random(in: 0...SyncClock.maxCounter, using: &rng)
      return SyncClock(wall: wall, counter: counter, device: devices.randomElement(using: &rng)!)
    }
  }

  @Test func aClockReadsBackFromItsText() {
    for clock in Self.randomClocks(count: 1000, seed: 1) {
      #expect(clock.description.utf8.count == 13 + 1 + 5 + 1 + 16)
      #expect(SyncClock(clock.description) == clock, "\(clock)")
    }
  }

  @Test func textsSortAsTheirClocksDo() {
    let clocks = Self.randomClocks(count: 600, seed: 2)
    #expect(clocks.sorted().map(\.description) == clocks.map(\.description).sorted())
    for (x, y) in zip(clocks, clocks.reversed()) {
      #expect((x < y) == (x.description < y.description), "\(x) \(y)")
    }
  }

  @Test(arguments: [
    "", "1795651200000-00000", "1795651200000-00000-aaaaaaaaaaaaaaaa-x",
    "795651200000-00000-aaaaaaaaaaaaaaaa", "1795651200000-0000-aaaaaaaaaaaaaaaa",
    "1795651200000-00000-AAAAAAAAAAAAAAAA", "1795651200000-00000-aaaaaaaaaaaaaaa",
    "+795651200000-00000-aaaaaaaaaaaaaaaa", "1795651200000--0000-aaaaaaaaaaaaaaaa",
    "17956512000x0-00000-aaaaaaaaaaaaaaaa",
  ])
  func aTextThatIsNotAClockIsRefused(text: String) {
    #expect(SyncClock(text) == nil)
  }

  @Test func aFirstTickIsTheWallClock() {
    #expect(SyncClock.tick(after: nil, now: 5000, device: Sample.a) == Sample.clock(5000))
    #expect(SyncClock.tick(after: (4000, 7), now: 5000, device: Sample.a) == Sample.clock(5000))
  }

  @Test func aTickWithinTheSameMillisecondCountsOn() {
    #expect(SyncClock.tick(after: (5000, 7), now: 5000, device: Sample.a) == Sample.clock(5000, 8))
  }

  @Test func aTickAfterALaterClockNeverGoesBack() {
    // the wall clock was set back an hour behind what was seen
    let seen = Sample.clock(Sample.now, 3, Sample.b)
    let next = SyncClock.tick(
      after: (seen.wall, seen.counter), now: Sample.now - 3_600_000, device: Sample.a)
    #expect(next == Sample.clock(Sample.now, 4))
    #expect(next > seen)
  }

  @Test func ticksAlwaysGoForwardWhateverTheWallClockDoes() {
    var rng = SplitMix64(seed: 3)
    var last: SyncClock?
    var now = Sample.now
    for _ in 0..<5000 {
      // the wall clock mostly stands or creeps on, and now and then jumps back or ahead
      switch Int.random(in: 0..<10, using: &rng) {
      case 0: now -= Int.random(in: 1...86_400_000, using: &rng)
      case 1: now += Int.random(in: 1...86_400_000, using: &rng)
      case 2...5: break
      default: now += Int.random(in: 0...3, using: &rng)
      }
      let next = SyncClock.tick(
        after: last.map { ($0.wall, $0.counter) }, now: now, device: Sample.a)
      if let last { #expect(next > last, "\(last) then \(next)") }
      #expect(next.wall >= now)
      #expect(next.counter <= SyncClock.maxCounter)
      last = next
    }
  }

  @Test func aFullCounterMovesTheWallOn() {
    let full = Sample.clock(5000, SyncClock.maxCounter)
    let next = SyncClock.tick(after: (full.wall, full.counter), now: 4000, device: Sample.a)
    #expect(next == Sample.clock(5001, 0))
    #expect(next > full)
    #expect(next.description > full.description)
    #expect(SyncClock(next.description) == next)
  }

  @Test func millisecondsOfAnInstantRoundDown() throws {
    let instant = try #require(InstantFormat.parse("2026-11-26T00:00:00Z"))
    #expect(SyncClock.milliseconds(instant) == Sample.now)
    #expect(SyncClock.milliseconds(Instant(microseconds: -1)) == -1)
    #expect(SyncClock.milliseconds(Instant(microseconds: 1999)) == 1)
  }

  @Test func aDeviceIDIsSixteenLowercaseHexDigits() {
    #expect(SyncDevice.isID(Sample.a))
    #expect(!SyncDevice.isID("AAAAAAAAAAAAAAAA"))
    #expect(!SyncDevice.isID("aaaaaaaaaaaaaaa"))
    #expect(!SyncDevice.isID("aaaaaaaaaaaaaaaaa"))
    #expect(!SyncDevice.isID("gaaaaaaaaaaaaaaa"))
    for _ in 0..<200 { #expect(SyncDevice.isID(SyncDevice.newID())) }
  }
}

// MARK: - SyncLine

@Suite struct SyncLineTests {
  static let changes: [SyncChange] = [
    SyncChange(
      clock: Sample.clock(Sample.now - 1000, 2),
      key: .entry(day: Sample.day, flow: "prep", id: nil), value: Sample.prep(water: true),
      seen: [Sample.b: Sample.clock(Sample.now - 5000, 0, Sample.b)]),
    SyncChange(
      clock: Sample.clock(Sample.now), key: .entry(day: Sample.day, flow: "need-help", id: "n-1"),
      value: SyncValue(
        answers:
          HelpNote(
            id: "n-1", day: Sample.day, category: .stress, note: "a/b \"c\"", at: Sample.savedAt
          )
          .flowEntry.stored.answers, savedAt: Sample.savedAt)),
    SyncChange(
      clock: Sample.clock(Sample.now), key: .entry(day: Sample.day, flow: "checkin", id: nil),
      value: nil),
    SyncChange(
      clock: Sample.clock(Sample.now), key: .pause(firstDay: Sample.day),
      value: SyncValue(lastDay: Sample.day.adding(days: Pause.maxDays - 1))),
    SyncChange(
      clock: Sample.clock(Sample.now), key: .slot(.evening),
      value: SyncValue(expression: "Mon..Fri *-*-* 21:00:00", enabled: true)),
    SyncChange(
      clock: Sample.clock(Sample.now), key: .slot(.plan(plan: "walking", slot: "noon")),
      value: SyncValue(expression: "*-*-* 12:00:00", enabled: false)),
    SyncChange(
      clock: Sample.clock(Sample.now), key: .celebrations, value: SyncValue(value: "off")),
  ]

  @Test(arguments: changes)
  func aChangeReadsBackFromItsLine(change: SyncChange) {
    let line = SyncLine.line(change)
    #expect(line.hasSuffix("\n"))
    #expect(line.dropLast().contains("\n") == false)
    #expect(Sample.read(Sample.bytes(line)) == .success(change))
  }

  @Test func twoEqualValuesHaveOneText() {
    let x = SyncValue(answers: ["b": "2", "a": "1"], savedAt: Sample.savedAt)
    let y = SyncValue(answers: ["a": "1", "b": "2"], savedAt: Sample.savedAt)
    #expect(x.text == y.text)
    #expect(SyncValue(text: x.text) == x)
    #expect(SyncValue(text: "{") == nil)
  }

  static let good = SyncLine.line(changes[0])

  @Test func aLineWithOneByteChangedFailsItsChecksum() {
    var line = Sample.bytes(Self.good)
    // a byte of the JSON (past the checksum and its space)
    for index in [9, 12, line.count / 2, line.count - 1] {
      var flipped = line
      flipped[index] ^= 0x01
      #expect(Sample.reason(Sample.read(flipped)) == "its checksum fails", "byte \(index)")
    }
    // cut short (a half-copied line given its newline)
    line.removeLast(10)
    #expect(Sample.reason(Sample.read(line)) == "its checksum fails")
  }

  @Test(arguments: ["", "0000000", "hello world", "0000000g {}", "00000000{}", "12345678 "])
  func aLineThatIsNotAChecksumAndAChangeIsRefused(text: String) {
    #expect(Sample.reason(Sample.read(Array(text.utf8))) == "it is not a checksum and a change")
  }

  @Test func truncatedJSONIsRefusedEvenWithItsChecksum() {
    let json = String(Self.good.dropFirst(9).dropLast())
    for cut in [1, 2, json.count / 2] {
      let line = Sample.framed(String(json.dropLast(cut)))
      #expect(Sample.reason(Sample.read(line)) == "it is not a change Nudge reads")
    }
    #expect(Sample.reason(Sample.read(Sample.framed("[]"))) == "it is not a change Nudge reads")
  }

  @Test func aClockThatIsNotAClockIsRefused() {
    let line = Sample.framed(#"{"c":"yesterday","k":"setting/celebrations","v":{"value":"on"}}"#)
    #expect(
      Sample.reason(Sample.read(line))
        == "its clock 'yesterday' is not a Nudge clock (13 digits of milliseconds, 5 of a counter, the device's id, joined by '-')"
    )
    // a clock of 1998 written without its leading zero: said as a clock of the wrong shape
    let short = Sample.framed(
      #"{"c":"883612800000-00000-aaaaaaaaaaaaaaaa","k":"setting/celebrations","v":{"value":"on"}}"#)
    #expect(Sample.reason(Sample.read(short))?.contains("is not a Nudge clock (13 digits") == true)
  }

  func line(wall: Int, device: String = Sample.a) -> [UInt8] {
    Sample.bytes(
      SyncLine.line(
        SyncChange(
          clock: Sample.clock(wall, 0, device), key: .celebrations, value: SyncValue(value: "on"))))
  }

  @Test func aChangeFromMoreThanAnHourAheadIsRefused() {
    let limit = Sample.now + SyncClock.allowedAheadMilliseconds
    #expect(
      Sample.reason(Sample.read(line(wall: limit + 1)))
        == SyncRefusal.ahead)
    // a clock a little fast is taken
    #expect(Sample.reason(Sample.read(line(wall: limit))) == nil)
  }

  @Test func aChangeFromBefore2000IsRefused() {
    #expect(
      Sample.reason(Sample.read(line(wall: SyncClock.earliestWall - 1)))
        == "it is dated before 2000")
    #expect(Sample.reason(Sample.read(line(wall: 0))) == "it is dated before 2000")
    #expect(Sample.reason(Sample.read(line(wall: SyncClock.earliestWall))) == nil)
  }

  @Test func anotherDevicesChangeInALogIsRefusedButTakenFromASnapshot() {
    let theirs = line(wall: Sample.now, device: Sample.b)
    #expect(
      Sample.reason(Sample.read(theirs, device: Sample.a))
        == "it claims to be another device's change")
    #expect(Sample.reason(Sample.read(theirs, device: Sample.b)) == nil)
    #expect(Sample.reason(Sample.read(theirs, device: Sample.a, anyDevice: true)) == nil)
  }

  func wire(_ key: String, _ value: String? = nil, seen: String? = nil) -> [UInt8] {
    let clock = Sample.clock(Sample.now).description
    return Sample.framed(
      #"{"c":"\#(clock)","k":"\#(key)""# + (value.map { #","v":\#($0)"# } ?? "")
        + (seen.map { #","s":\#($0)"# } ?? "") + "}")
  }

  @Test func whatItSawMustBeEachDevicesOwnClock() {
    let b = Sample.clock(Sample.now - 1, 0, Sample.b).description
    let ok = wire("setting/celebrations", #"{"value":"on"}"#, seen: #"{"\#(Sample.b)":"\#(b)"}"#)
    #expect(
      Sample.read(ok).map(\.seen) == .success([Sample.b: Sample.clock(Sample.now - 1, 0, Sample.b)])
    )
    for seen in [
      #"{"\#(Sample.c)":"\#(b)"}"#, #"{"\#(Sample.b)":"soon"}"#, #"{"someone":"\#(b)"}"#,
    ] {
      #expect(
        Sample.reason(Sample.read(wire("setting/celebrations", #"{"value":"on"}"#, seen: seen)))
          == "what it saw is not a list of clocks of its time", "\(seen)")
    }
  }

  static let refusedKeys: [(key: String, value: String?, reason: String)] = [
    ("widget/3", #"{"value":"on"}"#, "unknown kind 'widget'"),
    ("habit/3", #"{"value":"on"}"#, "a habit's id is not 16 to 32 lowercase hex digits"),
    ("habitday/0123456789abcdef/2026-13-01", #"{"done":true}"#, "a habit day's day is not a date"),
    ("plan/../x", #"{"enabled":true}"#, "its key has 3 parts, not the 2 of plan/NAME"),
    ("plan/Sleep", #"{"enabled":true}"#, "a plan's name is not one a plan file can have"),
    ("", nil, "unknown kind ''"),
    ("entry/2026-11-19", nil, "its key has 2 parts, not the 3 or 4 of entry/DAY/FLOW[/ID]"),
    (
      "entry/2026-11-19/review/a/b", nil,
      "its key has 5 parts, not the 3 or 4 of entry/DAY/FLOW[/ID]"
    ),
    ("pause/2026-11-19/x", nil, "its key has 3 parts, not the 2 of pause/NAME"),
    ("setting/terminal", #"{"value":"xterm -e rm"}"#, "the setting 'terminal' does not travel"),
    ("setting/rollover-hour", #"{"value":"4"}"#, "the setting 'rollover-hour' does not travel"),
    ("entry/2026-02-30/prep", nil, "an entry's day is not a date"),
    ("entry/2026-11-19/no such flow", nil, "an entry's flow is not a flow's name"),
    ("entry/2026-11-19/need-help", nil, "an entry of need-help without an id"),
    ("entry/2026-11-19/prep/n1", nil, "an entry of prep with an id"),
    ("pause/someday", nil, "a pause's day is not a date"),
    ("slot/teatime", nil, "a slot's name is not one Nudge has"),
  ]

  @Test(arguments: refusedKeys)
  func aKeyThisNudgeDoesNotTakeIsRefused(key: String, value: String?, reason: String) {
    #expect(Sample.reason(Sample.read(wire(key, value))) == reason)
  }

  func reason(_ key: SyncKey, _ value: SyncValue) -> String? {
    Sample.reason(
      Sample.read(
        Sample.bytes(
          SyncLine.line(SyncChange(clock: Sample.clock(Sample.now), key: key, value: value)))))
  }

  static let prepKey = SyncKey.entry(day: Sample.day, flow: "prep", id: nil)

  @Test func anEntryWithOtherFieldsIsRefused() {
    var value = Sample.prep(water: true)
    value.lastDay = Sample.day
    #expect(
      reason(Self.prepKey, value)
        == "an entry's value has other fields than its answers and saved_at")
    #expect(
      reason(Self.prepKey, SyncValue(answers: Sample.prepAnswers(water: true)))
        == "an entry's value has other fields than its answers and saved_at")
    #expect(reason(Self.prepKey, Sample.prep(water: true)) == nil)
  }

  @Test func anEntryWhoseAnswersItsFlowRefusesIsRefused() throws {
    var answers = Sample.prepAnswers(water: true)
    answers["water"] = "maybe"
    let why = try #require(
      reason(Self.prepKey, SyncValue(answers: answers, savedAt: Sample.savedAt)))
    #expect(why.hasPrefix("the entry is not one its flow saves ("), "\(why)")
    #expect(why.contains("maybe"), "\(why)")
  }

  @Test func anEntryWithTooManyOrTooLongAnswersOrABadTimeIsRefused() {
    let many = Dictionary(uniqueKeysWithValues: (0..<65).map { ("q\($0)", "x") })
    #expect(
      reason(Self.prepKey, SyncValue(answers: many, savedAt: Sample.savedAt))
        == "an entry's answers are too many or too long")
    #expect(
      reason(
        Self.prepKey,
        SyncValue(answers: ["other": String(repeating: "x", count: 8193)], savedAt: Sample.savedAt))
        == "an entry's answers are too many or too long")
    #expect(
      reason(Self.prepKey, SyncValue(answers: Sample.prepAnswers(water: true), savedAt: "now"))
        == "an entry's saved_at is not a time")
  }

  @Test func aPauseLongerThanNudgeTakesIsRefused() {
    let key = SyncKey.pause(firstDay: Sample.day)
    let refused = "a pause ends before it starts or is longer than \(Pause.maxDays) days"
    #expect(reason(key, SyncValue(lastDay: Sample.day.adding(days: Pause.maxDays))) == refused)
    #expect(reason(key, SyncValue(lastDay: Sample.day.adding(days: -1))) == refused)
    #expect(reason(key, SyncValue(lastDay: Sample.day.adding(days: Pause.maxDays - 1))) == nil)
    #expect(reason(key, SyncValue(lastDay: Sample.day)) == nil)
    #expect(
      reason(key, SyncValue(lastDay: Sample.day, value: "on"))
        == "a pause's value is not its last day")
  }

  @Test(arguments: [
    "Mon *-*-* 08:00:00\nExecStart=/bin/sh", "*-*-* 08:00:00\r", "\u{1b}[2J*-*-* 08:00:00", "",
    String(repeating: "*", count: 257),
  ])
  func aSlotExpressionNotOnOneLineIsRefused(expression: String) {
    #expect(
      reason(.slot(.morning), SyncValue(expression: expression, enabled: true))
        == "a slot's expression is not a calendar expression on one line")
  }

  @Test func aSlotValueNeedsItsExpressionAndWhetherItIsOn() {
    #expect(
      reason(.slot(.morning), SyncValue(expression: "*-*-* 08:00:00"))
        == "a slot's value is not an expression and whether it is on")
    #expect(reason(.slot(.morning), SyncValue(expression: "*-*-* 08:00:00", enabled: false)) == nil)
  }

  @Test(arguments: ["maybe", "ON", "", "on "])
  func celebrationsOtherThanOnOrOffAreRefused(value: String) {
    #expect(
      reason(.celebrations, SyncValue(value: value)) == "the celebrations setting is not on or off")
  }

  static let habitKey = SyncKey.habit(uid: "0123456789abcdef")

  @Test func aHabitIsTakenAsItsDefinitionAloneHeldToWhatHabitAddTakes() {
    let read = ExportHabit(
      Habit(name: "Read", target: 20, unit: "pages", since: Sample.day), days: [])
    #expect(reason(Self.habitKey, SyncValue(habit: read)) == nil)
    var withDays = read
    withDays.days = [HabitCheck(day: Sample.day, done: true, value: 3, savedAt: Sample.savedAt)]
    #expect(
      reason(Self.habitKey, SyncValue(habit: withDays))
        == "a habit's value is not its definition alone")
    #expect(
      reason(Self.habitKey, SyncValue(value: "on", habit: read))
        == "a habit's value is not its definition alone")
    var noUnit = read
    noUnit.unit = nil
    #expect(
      reason(Self.habitKey, SyncValue(habit: noUnit))?.hasPrefix("the habit is not one") == true)
    var hostile = read
    hostile.name = "Read\u{1b}]0;x\u{7}"
    #expect(
      reason(Self.habitKey, SyncValue(habit: hostile))?.hasPrefix("the habit is not one") == true)
  }

  @Test func aHabitDayIsDoneOrSkippedWithAnAmountOnlyWhenDone() {
    let key = SyncKey.habitDay(uid: "0123456789abcdef", day: Sample.day)
    #expect(reason(key, SyncValue(savedAt: Sample.savedAt, done: true, amount: 12)) == nil)
    #expect(reason(key, SyncValue(savedAt: Sample.savedAt, done: false)) == nil)
    #expect(
      reason(key, SyncValue(savedAt: Sample.savedAt, done: false, amount: 3))?.hasPrefix(
        "a habit day's amount is a whole number") == true)
    #expect(
      reason(key, SyncValue(savedAt: Sample.savedAt, done: true, amount: -1))?.hasPrefix(
        "a habit day's amount is a whole number") == true)
    // a no, and a note, travel; a day done and failed at once, or a note of two lines, do not
    #expect(reason(key, SyncValue(savedAt: Sample.savedAt, done: false, failed: true)) == nil)
    #expect(
      reason(key, SyncValue(savedAt: Sample.savedAt, done: true, note: "on the train")) == nil)
    #expect(
      reason(key, SyncValue(savedAt: Sample.savedAt, done: true, failed: true))
        == "a habit day is done or failed, not both")
    #expect(
      reason(key, SyncValue(savedAt: Sample.savedAt, done: true, note: "one\ntwo"))?.contains(
        "note is not one line") == true)
    #expect(
      reason(
        key,
        SyncValue(savedAt: Sample.savedAt, done: true, note: String(repeating: "x", count: 1 << 20))
      )?.contains("note is not one line") == true)
    #expect(
      reason(key, SyncValue(savedAt: "yesterday", done: true))
        == "a habit day's saved_at is not a time")
    #expect(
      reason(key, SyncValue(done: true))
        == "a habit day's value is not done, skipped or failed and when")
    #expect(
      reason(key, SyncValue(savedAt: Sample.savedAt, lastDay: Sample.day, done: true))
        == "a habit day's value is not done, skipped or failed and when")
  }

  @Test func aPlanFileIsItsTextAloneOfAtMostAPlansSize() {
    #expect(reason(.planFile("walk"), SyncValue(planText: "format = 1\n")) == nil)
    #expect(
      reason(
        .planFile("walk"), SyncValue(planText: String(repeating: "#", count: PlanFile.maxBytes + 1))
      )?
      .hasPrefix("a plan file's text is larger than") == true)
    #expect(
      reason(.planFile("walk"), SyncValue(value: "x", planText: "format = 1\n"))
        == "a plan file's value is not its text")
    #expect(
      SyncKey.parse("planfile/Walk")
        == .failure(.init("a plan file's name is not one a plan file can have")))
  }

  @Test func aPlanChoiceIsWhetherItIsOnAndNothingElse() {
    #expect(reason(.planChoice("sleep"), SyncValue(enabled: true)) == nil)
    #expect(
      reason(.planChoice("sleep"), SyncValue(value: "on"))
        == "a plan's value is not whether it is on")
  }

  @Test func aHeaderReadsBackFromItsLine() {
    let header = SyncHeader(device: Sample.a, name: "Ana's laptop ✓", generation: 3)
    let line = SyncLine.line(header)
    #expect(line.hasSuffix("\n"))
    #expect(SyncLine.header(Sample.bytes(line)) == .success(header))
    #expect(header.nudgeSync == 1)
  }

  @Test(arguments: [
    #"{"device":"aaaaaaaaaaaaaaaa","generation":0,"name":"laptop","nudge_sync":2}"#,
    #"{"device":"AAAAAAAAAAAAAAAA","generation":0,"name":"laptop","nudge_sync":1}"#,
    #"{"device":"aaaaaaaaaaaaaaaa","generation":-1,"name":"laptop","nudge_sync":1}"#,
    #"{"device":"aaaaaaaaaaaaaaaa","generation":0,"nudge_sync":1}"#,
    #"{"c":"1795651200000-00000-aaaaaaaaaaaaaaaa","k":"setting/celebrations"}"#,
  ])
  func aFirstLineThatIsNotAHeaderIsRefused(json: String) {
    #expect(
      SyncLine.header(Sample.framed(json))
        == .failure(SyncRefusal("its first line is not a Nudge sync header")))
  }

  /// A header whose computer's name Nudge would not show is said as such (it read "not a
  /// Nudge sync header", issue 56).
  @Test(arguments: [
    #"{"device":"aaaaaaaaaaaaaaaa","generation":0,"name":"","nudge_sync":1}"#,
    #"{"device":"aaaaaaaaaaaaaaaa","generation":0,"name":" laptop","nudge_sync":1}"#,
    #"{"device":"aaaaaaaaaaaaaaaa","generation":0,"name":"lap\u001b[2Jtop","nudge_sync":1}"#,
    #"{"device":"aaaaaaaaaaaaaaaa","generation":0,"name":"lap\u202etop","nudge_sync":1}"#,
  ])
  func aHeaderWhoseNameIsNotShownSaysSo(json: String) {
    guard case .failure(let why) = SyncLine.header(Sample.framed(json)) else {
      Issue.record("taken: \(json)")
      return
    }
    #expect(why.reason.hasPrefix("its computer's name '"), "\(why.reason)")
    #expect(why.reason.contains("not one Nudge shows"))
    #expect(!why.reason.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x202E })
  }

  @Test func aHeaderWithAByteChangedFailsItsChecksum() {
    var line = Sample.bytes(SyncLine.line(SyncHeader(device: Sample.a, name: "x", generation: 0)))
    line[20] ^= 0x20
    #expect(SyncLine.header(line) == .failure(SyncRefusal("its checksum fails")))
  }

  @Test func crc32IsZlibs() {
    #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
    #expect(CRC32.checksum([UInt8]()) == 0)
  }
}

// MARK: - SyncKeyState, two versions at a time

/// Two versions merged into a key's state as the stored winner and one arriving: whether the
/// arriving one wins, and the conflict kept (the expectations of a pair, in one line each).
enum Pairwise {
  struct Decision: Equatable {
    var takes: Bool
    var kept: SyncVersion?
  }

  static func decide(stored: SyncVersion?, incoming: SyncVersion) -> Decision {
    var state = SyncKeyState()
    if let stored { _ = state.merge(stored) }
    let before = state
    let takes = state.merge(incoming) == .won && before != state
    return Decision(takes: takes, kept: state.conflicts.first)
  }
}

@Suite struct SyncMergeTests {
  let x = Sample.prep(water: true)
  let y = Sample.prep(water: false)

  @Test func theFirstVersionOfAKeyIsTaken() {
    let v = SyncVersion(clock: Sample.clock(1000), value: x)
    #expect(Pairwise.decide(stored: nil, incoming: v) == .init(takes: true, kept: nil))
  }

  @Test func theLaterClockWinsWhateverTheOrder() {
    let early = SyncVersion(clock: Sample.clock(1000, 5, Sample.b), value: x)
    let late = SyncVersion(
      clock: Sample.clock(1000, 6, Sample.a), value: y, seen: [Sample.b: early.clock])
    #expect(Pairwise.decide(stored: early, incoming: late).takes)
    #expect(!Pairwise.decide(stored: late, incoming: early).takes)
    // a tie of wall and counter goes to the larger device id
    let tieA = SyncVersion(clock: Sample.clock(1000, 0, Sample.a), value: x)
    let tieB = SyncVersion(clock: Sample.clock(1000, 0, Sample.b), value: y)
    #expect(Pairwise.decide(stored: tieA, incoming: tieB).takes)
    #expect(!Pairwise.decide(stored: tieB, incoming: tieA).takes)
  }

  @Test func theSameChangeTwiceIsIgnored() {
    let v = SyncVersion(clock: Sample.clock(1000, 0, Sample.b), value: x)
    #expect(Pairwise.decide(stored: v, incoming: v) == .init(takes: false, kept: nil))
    let tombstone = SyncVersion(clock: Sample.clock(1000, 0, Sample.b), value: nil)
    #expect(
      Pairwise.decide(stored: tombstone, incoming: tombstone) == .init(takes: false, kept: nil))
  }

  @Test func editsMadeApartKeepTheEarlierAsTheLoserWhateverTheOrder() {
    let onA = SyncVersion(clock: Sample.clock(1000, 0, Sample.a), value: x)
    let onB = SyncVersion(clock: Sample.clock(2000, 0, Sample.b), value: y)
    let bArrives = Pairwise.decide(stored: onA, incoming: onB)
    let aArrives = Pairwise.decide(stored: onB, incoming: onA)
    #expect(bArrives == .init(takes: true, kept: onA))
    #expect(aArrives == .init(takes: false, kept: onA))
  }

  @Test func anEditMadeAfterSeeingTheOtherIsNoConflict() {
    let onA = SyncVersion(clock: Sample.clock(1000, 0, Sample.a), value: x)
    for seen in [onA.clock, Sample.clock(1500, 0, Sample.a)] {
      let onB = SyncVersion(
        clock: Sample.clock(2000, 0, Sample.b), value: y, seen: [Sample.a: seen])
      #expect(Pairwise.decide(stored: onA, incoming: onB) == .init(takes: true, kept: nil))
      #expect(Pairwise.decide(stored: onB, incoming: onA) == .init(takes: false, kept: nil))
    }
    // having seen only an earlier change of A's is not having seen this one
    let stale = SyncVersion(
      clock: Sample.clock(2000, 0, Sample.b), value: y, seen: [Sample.a: Sample.clock(999)])
    #expect(Pairwise.decide(stored: onA, incoming: stale) == .init(takes: true, kept: onA))
    // nor is having seen a third device
    let other = SyncVersion(
      clock: Sample.clock(2000, 0, Sample.b), value: y,
      seen: [Sample.c: Sample.clock(1500, 0, Sample.c)])
    #expect(Pairwise.decide(stored: onA, incoming: other) == .init(takes: true, kept: onA))
  }

  @Test func aDevicesOwnLaterEditIsNoConflict() {
    let first = SyncVersion(clock: Sample.clock(1000, 0, Sample.a), value: x)
    let second = SyncVersion(clock: Sample.clock(1000, 1, Sample.a), value: y)
    #expect(Pairwise.decide(stored: first, incoming: second) == .init(takes: true, kept: nil))
    #expect(Pairwise.decide(stored: second, incoming: first) == .init(takes: false, kept: nil))
  }

  @Test func theSameValueMadeApartIsNoConflict() {
    let onA = SyncVersion(clock: Sample.clock(1000, 0, Sample.a), value: x)
    let onB = SyncVersion(clock: Sample.clock(2000, 0, Sample.b), value: x)
    #expect(Pairwise.decide(stored: onA, incoming: onB) == .init(takes: true, kept: nil))
    #expect(Pairwise.decide(stored: onB, incoming: onA) == .init(takes: false, kept: nil))
    let goneA = SyncVersion(clock: Sample.clock(1000, 0, Sample.a), value: nil)
    let goneB = SyncVersion(clock: Sample.clock(2000, 0, Sample.b), value: nil)
    #expect(Pairwise.decide(stored: goneA, incoming: goneB) == .init(takes: true, kept: nil))
  }

  @Test func aRemovalThatWinsOverAnEditKeepsTheEdit() {
    let edit = SyncVersion(clock: Sample.clock(1000, 0, Sample.a), value: x)
    let removal = SyncVersion(clock: Sample.clock(2000, 0, Sample.b), value: nil)
    #expect(Pairwise.decide(stored: edit, incoming: removal) == .init(takes: true, kept: edit))
    #expect(Pairwise.decide(stored: removal, incoming: edit) == .init(takes: false, kept: edit))
  }

  @Test func anEditThatWinsOverARemovalKeepsNothing() {
    let removal = SyncVersion(clock: Sample.clock(1000, 0, Sample.a), value: nil)
    let edit = SyncVersion(clock: Sample.clock(2000, 0, Sample.b), value: x)
    #expect(Pairwise.decide(stored: removal, incoming: edit) == .init(takes: true, kept: nil))
    #expect(Pairwise.decide(stored: edit, incoming: removal) == .init(takes: false, kept: nil))
  }

  @Test func hasSeenReadsItsWritersClocks() {
    let v = SyncVersion(
      clock: Sample.clock(2000, 0, Sample.b), value: x, seen: [Sample.a: Sample.clock(1500)])
    #expect(v.hasSeen(SyncVersion(clock: Sample.clock(1500), value: nil)))
    #expect(!v.hasSeen(SyncVersion(clock: Sample.clock(1500, 1), value: nil)))
    #expect(v.hasSeen(SyncVersion(clock: Sample.clock(1999, 0, Sample.b), value: nil)))
    #expect(!v.hasSeen(SyncVersion(clock: Sample.clock(2001, 0, Sample.b), value: nil)))
    #expect(!v.hasSeen(SyncVersion(clock: Sample.clock(1, 0, Sample.c), value: nil)))
  }
}

// MARK: - Convergence

/// Random changes from three devices, each now and then taking in what another wrote (so what
/// each change's writer had seen is what a device could have seen), merged into replicas in
/// different orders.
@Suite struct SyncConvergenceTests {
  struct Kept: Hashable, CustomStringConvertible {
    var key: String
    var clock: SyncClock
    var description: String { "\(key)@\(clock)" }
  }

  /// A device's state as the store keeps it: each key's winning version, the kept losers.
  struct Replica {
    var states: [String: SyncKeyState] = [:]

    var winners: [String: SyncVersion] { states.compactMapValues(\.winner) }
    var kept: Set<Kept> {
      Set(states.flatMap { key, state in state.conflicts.map { Kept(key: key, clock: $0.clock) } })
    }

    /// Merges as `AppDatabase.mergeSyncChange` does: into the key's `SyncKeyState`.
    mutating func merge(_ change: SyncChange) {
      let incoming = SyncVersion(clock: change.clock, value: change.value, seen: change.seen)
      _ = states[change.key.description, default: SyncKeyState()].merge(incoming)
    }
  }

  static let keys: [SyncKey] = [
    .entry(day: Sample.day, flow: "prep", id: nil), .pause(firstDay: Sample.day),
    .slot(.evening), .celebrations, .habit(uid: "0123456789abcdef"),
    .habitDay(uid: "0123456789abcdef", day: Sample.day), .planChoice("sleep"), .planFile("walk"),
  ]

  static func value(for key: SyncKey, _ n: Int) -> SyncValue? {
    guard n > 0 else { return nil }
    switch key {
    case .entry: return Sample.prep(water: n % 2 == 0)
    case .pause: return SyncValue(lastDay: Sample.day.adding(days: n))
    case .slot: return SyncValue(expression: "*-*-* 2\(n):00:00", enabled: true)
    case .celebrations: return SyncValue(value: n % 2 == 0 ? "on" : "off")
    case .habit:
      return SyncValue(habit: ExportHabit(Habit(name: "Read \(n)", since: Sample.day), days: []))
    case .habitDay: return SyncValue(savedAt: "2026-11-25T20:00:00Z", done: n % 2 == 0)
    case .planChoice: return SyncValue(enabled: n % 2 == 0)
    case .planFile: return SyncValue(planText: "format = \(n)\n")
    }
  }

  /// `count` changes made by three devices that now and then read each other's logs.
  static func history(count: Int, seed: UInt64) -> [SyncChange] {
    var rng = SplitMix64(seed: seed)
    let devices = [Sample.a, Sample.b, Sample.c]
    var made: [String: [SyncChange]] = [:]
    var last: [String: SyncClock] = [:]
    var seen: [String: [String: SyncClock]] = [:]
    var changes: [SyncChange] = []
    var now = Sample.now
    for _ in 0..<count {
      let device = devices.randomElement(using: &rng)!
      // now and then it takes in everything another device has written so far
      if Int.random(in: 0..<4, using: &rng) == 0 {
        let other = devices.filter { $0 != device }.randomElement(using: &rng)!
        if let latest = made[other]?.last?.clock {
          seen[device, default: [:]][other] = latest
          if last[device].map({ $0 < latest }) ?? true { last[device] = latest }
        }
      }
      now += Int.random(in: -2000...3000, using: &rng)
      let clock = SyncClock.tick(
        after: last[device].map { ($0.wall, $0.counter) }, now: now, device: device)
      last[device] = clock
      let key = keys.randomElement(using: &rng)!
      let change = SyncChange(
        clock: clock, key: key, value: value(for: key, Int.random(in: 0...3, using: &rng)),
        seen: seen[device] ?? [:])
      made[device, default: []].append(change)
      changes.append(change)
    }
    return changes
  }

  static func replica(_ changes: [SyncChange]) -> Replica {
    var replica = Replica()
    for change in changes { replica.merge(change) }
    return replica
  }

  @Test(arguments: 1...5 as ClosedRange<UInt64>)
  func everyOrderOfArrivalEndsWithTheSameWinners(seed: UInt64) {
    let changes = Self.history(count: 200, seed: seed)
    var rng = SplitMix64(seed: seed &+ 100)
    let one = Self.replica(changes.shuffled(using: &rng))
    let two = Self.replica(changes.shuffled(using: &rng))
    let inOrder = Self.replica(changes)
    #expect(one.winners == two.winners)
    #expect(one.winners == inOrder.winners)
    // the winner of each key is its change with the latest clock
    for key in Self.keys {
      let latest = changes.filter { $0.key == key }.max { $0.clock < $1.clock }
      #expect(one.winners[key.description]?.clock == latest?.clock, "\(key)")
    }
    // merging everything again changes no winner
    var again = one
    for change in changes.shuffled(using: &rng) { again.merge(change) }
    #expect(again.winners == one.winners)
  }

  /// Each replica's kept losers, for `seeds` histories merged in two random orders.
  static func keptInTwoOrders(seeds: ClosedRange<UInt64>) -> [(Set<Kept>, Set<Kept>)] {
    seeds.map { seed in
      let changes = Self.history(count: 200, seed: seed)
      var rng = SplitMix64(seed: seed &+ 100)
      return (
        Self.replica(changes.shuffled(using: &rng)).kept,
        Self.replica(changes.shuffled(using: &rng)).kept
      )
    }
  }

  @Test func everyOrderOfArrivalKeepsTheSameLosers() {
    for (seed, (one, two)) in zip(1..., Self.keptInTwoOrders(seeds: 1...5)) {
      #expect(
        one == two,
        "seed \(seed): only in one: \(one.subtracting(two)), only in two: \(two.subtracting(one))"
      )
    }
  }

  /// The smallest case of the above, with two devices: A edits a key twice (the second edit
  /// replaces the first on A), C edits it once later without having seen either.
  @Test func twoEditsOfOneDeviceAndOneOfAnotherKeepTheSameLosersInEitherOrder() {
    func change(_ clock: SyncClock, _ time: String) -> SyncChange {
      SyncChange(
        clock: clock, key: .slot(.evening), value: SyncValue(expression: time, enabled: true))
    }
    let first = change(Sample.clock(1000), "*-*-* 21:00:00")
    let second = change(Sample.clock(2000), "*-*-* 22:00:00")
    let other = change(Sample.clock(3000, 0, Sample.c), "*-*-* 23:00:00")
    // A (its own edits in order, then C's): C's edit wins, A's second edit is the loser
    let onA = Self.replica([first, second, other])
    #expect(onA.kept == [Kept(key: "slot/evening", clock: second.clock)])
    #expect(onA.winners["slot/evening"]?.clock == other.clock)
    // C (its own edit, then A's log): the same winner
    let onC = Self.replica([other, first, second])
    #expect(onC.winners == onA.winners)
    #expect(onC.kept == onA.kept)
  }

  /// A conflict settled by a version that had seen its loser comes back when a change already
  /// taken in is merged again (as a device's snapshot brings every key's latest version again).
  @Test func mergingAChangeAgainBringsBackNoSettledConflict() {
    let x = SyncChange(clock: Sample.clock(1000), key: .celebrations, value: SyncValue(value: "on"))
    let y = SyncChange(
      clock: Sample.clock(2000, 0, Sample.b), key: .celebrations, value: SyncValue(value: "off"))
    let z = SyncChange(
      clock: Sample.clock(3000, 0, Sample.b), key: .celebrations, value: SyncValue(value: "on"),
      seen: [Sample.a: x.clock])
    let w = SyncChange(
      clock: Sample.clock(4000, 0, Sample.c), key: .celebrations, value: SyncValue(value: "off"))
    var replica = Self.replica([x, y])
    #expect(replica.kept == [Kept(key: "setting/celebrations", clock: x.clock)])
    replica.merge(z)
    #expect(replica.kept.isEmpty)
    replica.merge(w)
    #expect(replica.kept == [Kept(key: "setting/celebrations", clock: z.clock)])
    let before = replica
    replica.merge(x)
    #expect(replica.winners == before.winners)
    #expect(replica.kept == before.kept)
  }
}

// MARK: - Pauses two computers made

@Suite struct DisjointPauseTests {
  func day(_ text: String) -> Day { Day(text)! }

  @Test func overlappingPausesBecomeOnesThatDoNotOverlap() {
    let laptop = Pause(firstDay: day("2026-11-01"), lastDay: day("2026-11-05"))
    let desktop = Pause(firstDay: day("2026-11-03"), lastDay: day("2026-11-08"))
    let inside = Pause(firstDay: day("2026-11-04"), lastDay: day("2026-11-04"))
    let later = Pause(firstDay: day("2026-11-20"), lastDay: day("2026-11-21"))
    let out = Pause.disjoint([later, desktop, inside, laptop])
    #expect(
      out == [
        laptop, Pause(firstDay: day("2026-11-06"), lastDay: day("2026-11-08")), later,
      ])
    // the same days off, none twice
    let days = out.flatMap { $0.days(through: day("2026-12-31")) }
    #expect(Set(days).count == days.count)
    let all = [laptop, desktop, inside, later].flatMap { $0.days(through: day("2026-12-31")) }
    #expect(Set(days) == Set(all))
  }
}

// MARK: - An entry for a day after it was made

@Suite struct SyncEntryDayTests {
  @Test func anEntryForADayAfterItWasMadeIsRefused() {
    let device = "aaaaaaaaaaaaaaaa"
    let wall = 1_795_590_000_000  // 2026-11-25T03:00:00Z
    func line(_ day: String) -> [UInt8] {
      // saved on its own day's clock (the next day's: a device in a zone ahead of UTC)
      let change = SyncChange(
        clock: SyncClock(wall: wall, counter: 0, device: device),
        key: .entry(day: Day(day)!, flow: "prep", id: nil),
        value: SyncValue(
          answers: ["sticky-notes": "yes", "produce": "no", "water": "no", "breakfast": "no"],
          savedAt: day == "2026-11-26" ? "2026-11-26T01:00:00+14:00" : "2026-11-25T03:00:00+00:00"))
      return Array(SyncLine.line(change).utf8.dropLast())
    }
    // the day it was made, and the next (a zone ahead of UTC), are taken
    for day in ["2026-11-24", "2026-11-25", "2026-11-26"] {
      #expect((try? SyncLine.change(line(day), device: device, now: wall).get()) != nil, "\(day)")
    }
    for day in ["2026-11-27", "9998-12-31"] {
      guard case .failure(let why) = SyncLine.change(line(day), device: device, now: wall) else {
        Issue.record("\(day) taken")
        continue
      }
      #expect(why.reason.contains("a day no flow could have saved"), "\(why.reason)")
    }
  }
}
