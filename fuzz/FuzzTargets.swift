// libFuzzer entry point for Nudge's parsers, compiled together with the NudgeCore sources by
// `scripts/fuzz` (swiftc -sanitize=fuzzer,address). NUDGE_FUZZ_TARGET picks the parser:
// `link` (DeepLink.parse), `calendar` (CalendarSpec.parse, normalisation and the next elapse),
// `import` (ExportDocument.decode and validate; what is accepted encodes and reads back equal),
// `plaintime` (PlainTime: the plain times `schedule set` takes, and their description) or
// `lineeditor` (KeyDecoder and LineBuffer: any bytes typed or pasted into a prompt) or `time`
// (every time parser: instants, offsets, days, day words, pause lengths, durations, sync
// clocks, a sync line's saved_at, and each accepted value put through the arithmetic that
// follows; a reminder's time walked by the firing rule). Refusals
// are expected; a crash, a sanitizer report or a timeout is a bug.
import Foundation

enum FuzzTarget: String {
  case link, calendar, `import`, plaintime, lineeditor, time

  static let chosen: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["NUDGE_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
      fatalError("set NUDGE_FUZZ_TARGET to link, calendar, import, plaintime, lineeditor or time")
    }
    return target
  }()
}

let berlin: ZoneRules =
  FileManager.default.contents(atPath: "/usr/share/zoneinfo/Europe/Berlin")
  .flatMap { ZoneRules(tzif: [UInt8]($0), name: "Europe/Berlin") } ?? .utc

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let data = Data(bytes: bytes, count: count)
  switch FuzzTarget.chosen {
  case .link:
    let text = String(decoding: data, as: UTF8.self)
    if let link = try? DeepLink.parse(text) {
      // an accepted link must be one of the grammar's and round-trip to its arguments
      precondition(text.hasPrefix("nudge://") && text.utf8.count <= 256)
      precondition(!link.arguments.isEmpty)
    }
  case .calendar:
    let text = String(decoding: data, as: UTF8.self)
    if let spec = try? CalendarSpec.parse(
      text, localZone: berlin, zoneExists: { $0 == "Europe/Berlin" || $0 == "UTC" })
    {
      let again = try? CalendarSpec.parse(
        spec.normalized, localZone: berlin, zoneExists: { $0 == "Europe/Berlin" || $0 == "UTC" })
      precondition(again?.normalized == spec.normalized, "normalisation is not stable")
      _ = spec.nextElapse(
        after: 1_795_000_000, localZone: berlin,
        zoneFor: { $0 == "Europe/Berlin" ? berlin : $0 == "UTC" ? .utc : nil })
    }
  case .import:
    if let document = try? ExportDocument.decode(data) {
      // what import takes, export writes and import takes back, unchanged
      let written = try! document.encoded()
      let again = try? ExportDocument.decode(written)
      precondition(again == document, "an accepted document does not read back")
    }
  case .plaintime:
    let text = String(decoding: data, as: UTF8.self)
    if let expression = PlainTime.expression(text) {
      // a plain time becomes an expression the calendar parser takes
      precondition(
        (try? CalendarSpec.parse(expression, localZone: berlin, zoneExists: { _ in false }))
          != nil, "'\(expression)' from a plain time does not parse")
      _ = PlainTime.describe(expression)
    }
    for slot in ReminderSource.allCases {
      _ = PlainTime.expression(text, for: slot, current: "Sun *-*-* 18:00:00")
    }
    _ = PlainTime.describe(text)
  case .time:
    let text = String(decoding: data, as: UTF8.self)
    let today = Day(year: 2026, month: 11, day: 20)
    if let instant = InstantFormat.parse(text) {
      // what parses is in range, and the arithmetic after it cannot trap
      precondition(abs(instant.seconds) < 1 << 40, "an instant out of range parsed")
      _ = InstantFormat.format(instant, in: berlin)
      _ = InstantFormat.clock(text, in: berlin)
      _ = SupportedTime.holds(stored: instant)
      _ = instant.adding(seconds: 86400).seconds(since: instant)
      _ = LocalTime(instant, in: berlin)
    }
    if let offset = InstantFormat.offset(of: text) { precondition(abs(offset) < 100 * 3600) }
    if let day = Day(text) {
      _ = day.adding(days: 400)
      _ = day.weekday
    }
    _ = Day.named(text, today: today, toward: .future)
    _ = Day.named(text, today: today, toward: .past)
    _ = try? Pause.days(from: nil, until: nil, for: text, today: today)
    _ = try? Pause.days(from: text, until: text, for: nil, today: today)
    if let seconds = DurationText.parseSeconds(text) {
      _ = DurationText.format(seconds: seconds)
      _ = DurationText.spoken(seconds: seconds)
    }
    if let clock = SyncClock(text) {
      _ = SyncClock.tick(after: (clock.wall, clock.counter), now: 1_795_000_000_000, device: clock.device)
    }
    _ = try? HabitFrequency.parse(text)
    // a sync line whose saved_at is the input: refused or taken, never a trap
    let value = SyncValue(answers: ["why": "w", "commit_to": "c"], savedAt: text)
    let line = SyncLine.line(
      SyncChange(
        clock: SyncClock(wall: 1_795_000_000_000, counter: 0, device: "aaaaaaaaaaaaaaaa"),
        key: .entry(day: today, flow: "review", id: nil), value: value))
    _ = SyncLine.change(
      Array(line.utf8.dropLast()), device: "aaaaaaaaaaaaaaaa", now: 1_795_000_000_000)
    // a reminder's time the firing rule walks: bounded whatever the expression
    if let spec = try? CalendarSpec.parse(text, localZone: berlin, zoneExists: { _ in false }),
      spec.reminderProblem == nil
    {
      let next = { (t: Int) in spec.nextElapse(after: t, localZone: berlin, zoneFor: { _ in nil }) }
      _ = FiringRule.dueElapse(
        atOrBefore: 1_795_000_000, lastTrigger: 1_795_000_000 - 8 * 86400,
        lookback: FiringRule.lookback, next: next)
    }
  case .lineeditor:
    var rest = data[...]
    var buffer = LineBuffer(history: ["earlier answer"])
    while let key = KeyDecoder.next({ rest.popFirst() }) {
      let pending = !rest.isEmpty && rest.first! % 3 != 0
      switch buffer.apply(key, inputPending: pending) {
      case .done(let text): precondition(text.count <= LineBuffer.maxCharacters)
      default: break
      }
      precondition(buffer.cursor >= 0 && buffer.cursor <= buffer.line.count)
      precondition(buffer.line.count <= LineBuffer.maxCharacters)
      _ = VisibleText.escaped(buffer.text)
    }
  }
  return 0
}
