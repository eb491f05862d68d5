import Foundation
import Testing

@testable import NudgeCore

/// Issue 56: whatever one door takes, every other door takes too. Values at every boundary go
/// through a sync line and through an import document; both must give the same verdict, and
/// the findings' forged values must be refused by both.
@Suite struct DoorsAgreeTests {
  static let device = "aaaaaaaaaaaaaaaa"
  /// 2026-11-25T12:00:00Z
  static let wall = 1_795_608_000_000

  /// What a sync line of `key` holding `value` comes to: nil when taken, else why not.
  func syncVerdict(_ key: String, _ value: [String: Any]) -> String? {
    let wire: [String: Any] = [
      "c": SyncClock(wall: Self.wall - 1000, counter: 0, device: Self.device).description,
      "k": key, "v": value,
    ]
    let json = try! JSONSerialization.data(withJSONObject: wire, options: [.sortedKeys])
    let sum = String(CRC32.checksum(json), radix: 16)
    let line = Array((String(repeating: "0", count: 8 - sum.count) + sum + " ").utf8) + Array(json)
    switch SyncLine.change(line, device: Self.device, now: Self.wall) {
    case .success: return nil
    case .failure(let why): return why.reason
    }
  }

  /// What an import of a document holding the one entry comes to: nil when taken.
  func importVerdict(_ list: String, _ item: [String: Any]) -> String? {
    var document: [String: Any] = [
      "format": "nudge-export", "version": 3, "settings": [String: String](), "prep": [],
      "review": [], "checkin": [], "help": [],
    ]
    document[list] = [item]
    let data = try! JSONSerialization.data(withJSONObject: document)
    do throws(InputError) {
      try ExportDocument.decode(data).validate()
      return nil
    } catch {
      return error.message
    }
  }

  static let texts: [String] = [
    "fine", "a", String(repeating: "x", count: FreeText.maxLength),
    String(repeating: "x", count: FreeText.maxLength + 1), String(repeating: "y", count: 5000),
    "esc \u{1B}[2J", "bell \u{07}", "bidi \u{202E}kcah", " leading", "trailing ", "", "line\nbreak",
    "zero\u{0}width", "naïve ✓",
  ]
  static let savedTimes: [String] = [
    "2026-11-20T21:30:00+01:00", "2026-11-19T23:59:59+01:00", "2026-11-20T00:00:00+01:00",
    "2026-11-17T08:00:00+01:00", "@-9223372036854775808", "@9223372036854775807",
    "2026-11-20T21:30:00+99:00", "not a time", "1969-12-31T23:59:59Z",
  ]
  static let days = ["2026-11-20", "1969-12-31", "1969-12-30", "0000-01-01", "9999-12-31"]

  @Test func aReviewAtEveryBoundaryGetsOneVerdictFromSyncAndImport() {
    var compared = 0
    for day in Self.days {
      for why in Self.texts {
        for saved in Self.savedTimes {
          let sync = syncVerdict(
            "entry/\(day)/review",
            ["answers": ["why": why, "commit_to": "walk"], "saved_at": saved])
          let imported = importVerdict(
            "review", ["day": day, "why": why, "commit_to": "walk", "saved_at": saved])
          #expect(
            (sync == nil) == (imported == nil),
            "\(day) \(VisibleText.escaped(why).prefix(30)) \(saved): sync \(sync ?? "took it"), import \(imported ?? "took it")"
          )
          compared += 1
        }
      }
    }
    #expect(compared == Self.days.count * Self.texts.count * Self.savedTimes.count)
  }

  @Test func aHelpNoteAtEveryBoundaryGetsOneVerdictFromSyncAndImport() {
    for day in ["2026-11-20", "2026-11-19", "2026-11-18", "2026-11-21"] {
      for at in ["2026-11-20T10:00:00+01:00", "2026-11-20T03:00:00+01:00", "2026-11-20T23:00:00Z"] {
        for note in Self.texts.prefix(8) {
          let sync = syncVerdict(
            "entry/\(day)/need-help/n1",
            ["answers": ["category": "stress", "note": note], "saved_at": at])
          let imported = importVerdict(
            "help", ["id": "n1", "day": day, "category": "stress", "note": note, "at": at])
          #expect(
            (sync == nil) == (imported == nil),
            "\(day) \(at) \(note.prefix(20)): sync \(sync ?? "took it"), import \(imported ?? "took it")"
          )
        }
      }
    }
  }

  @Test func aPauseAtEveryBoundaryGetsOneVerdictFromSyncAndImport() {
    for first in Self.days + ["2026-11-21"] {
      for last in ["2026-11-20", "2026-11-25", "2027-11-20", "9999-12-31", "1969-12-31"] {
        let sync = syncVerdict("pause/\(first)", ["last_day": last])
        let imported = importVerdict("pauses", ["first_day": first, "last_day": last])
        #expect(
          (sync == nil) == (imported == nil),
          "\(first)..\(last): sync \(sync ?? "took it"), import \(imported ?? "took it")")
      }
    }
  }

  /// The findings of issue 56, item 3: each was taken by sync and refused by import.
  @Test(arguments: [
    (
      "entry/2026-11-20/review", ["why": "esc \u{1B}[31m", "commit_to": "walk"],
      "2026-11-20T07:00:00+01:00"
    ),
    (
      "entry/2026-11-20/review", ["why": String(repeating: "w", count: 5000), "commit_to": "walk"],
      "2026-11-20T07:00:00+01:00"
    ),
    ("entry/2026-11-20/review", ["commit_to": "walk"], "2026-11-14T07:00:00+01:00"),
    ("entry/2026-11-18/need-help/n1", ["category": "stress"], "2026-11-20T10:00:00+01:00"),
    ("entry/2026-11-20/review", ["commit_to": "walk"], "@-9223372036854775808"),
  ])
  func theForgedLinesOfTheFindingAreRefused(key: String, answers: [String: String], saved: String) {
    #expect(syncVerdict(key, ["answers": answers, "saved_at": saved]) != nil)
  }

  @Test func aPauseBeforeTheDaysNudgeKeepsIsRefused() {
    let why = syncVerdict("pause/0000-01-01", ["last_day": "0000-01-02"])
    #expect(why?.contains("outside the days Nudge keeps") == true, "\(why ?? "taken")")
  }

  @Test func aSlotThatFiresMoreThanOnceAMinuteIsRefused() {
    for expression in ["*-*-* 00:00:00/0.000001", "*:*:*", "*:*:0/30"] {
      let why = syncVerdict("slot/morning", ["expression": expression, "enabled": true])
      #expect(why?.contains("at most once a minute") == true, "\(expression): \(why ?? "taken")")
    }
    #expect(syncVerdict("slot/morning", ["expression": "*:*", "enabled": true]) == nil)
  }
}

/// Issue 56, item 1 and "time arithmetic that cannot trap": every time parser over the values
/// at the ends of a 64-bit integer answers (nil, or a time in range) instead of trapping.
@Suite struct TimeParsersCannotTrapTests {
  static let extremes = [
    "@-9223372036854775808", "@9223372036854775807", "@-9223372036854775809",
    "@99999999999999999999999", "@-1099511627776", "@1099511627776", "@1099511627775", "@-0",
    "@+5", "@", "@ 5", "9999-12-31T23:59:59+99:59", "0000-01-01T00:00:00-99:59",
    "9999-12-31T23:59:59.99999999999999999999Z",
  ]

  @Test func instantsAtTheEndsOfAnIntegerAreRefusedOrInRange() {
    for text in Self.extremes {
      if let instant = InstantFormat.parse(text) {
        #expect(abs(instant.seconds) < 1 << 40, "\(text)")
      }
    }
    #expect(InstantFormat.parse("@-9223372036854775808") == nil)
    #expect(InstantFormat.parse("@1099511627775") == Instant(seconds: 1_099_511_627_775))
    #expect(InstantFormat.offset(of: "@-9223372036854775808") == nil)
  }

  @Test func aSyncClockAtTheEndsOfAnIntegerIsRefusedOrInRange() {
    for wall in ["9999999999999", "0000000000000", "9223372036854775807"] {
      let clock = SyncClock("\(wall)-99999-aaaaaaaaaaaaaaaa")
      #expect(clock == nil || clock!.wall <= 9_999_999_999_999)
    }
  }
}

/// Issue 56, item 2: the firing loop is bounded whatever the expression's next elapse does.
@Suite struct FiringLoopBoundTests {
  @Test func anElapseThatIsNotLaterThanItsStartEndsTheWalk() {
    // next(t) == t: the sub-second expression's elapses, in whole seconds
    let due = FiringRule.dueElapse(atOrBefore: 1_000_000, lastTrigger: 999_000, lookback: 86400) {
      $0 + 1 <= 999_500 ? $0 + 1 : $0
    }
    #expect(due == 999_500)
    // next(t) == t from the start: the walk ends where it began, an hour back
    let latest = FiringRule.latestElapse(atOrBefore: 1_000_000, lookback: 400 * 86400) { $0 }
    #expect(latest == 1_000_000 - 3601)
  }

  @Test func everySecondForEightDaysFindsTheLatestWithoutWalkingEveryOne() {
    var calls = 0
    let now = 1_000_000_000
    let due = FiringRule.dueElapse(atOrBefore: now, lastTrigger: now - 8 * 86400, lookback: 86400) {
      calls += 1
      return $0 + 1
    }
    #expect(due == now)
    #expect(calls < 3 * FiringRule.maxSteps, "\(calls) steps")
  }

  /// Every minute of some hours, found past the walk's bound: the latest is found, not one
  /// before it (the review's case: 09:00-17:59, last trigger 2.3 days back, now 18:00).
  @Test(arguments: [(9, 17, 18, 2.3), (9, 9, 12, 7.0), (0, 23, 23, 8.0), (9, 17, 17, 3.0)])
  func everyMinuteOfSomeHoursFindsTheLatest(from: Int, to: Int, nowHour: Int, daysBack: Double) {
    let midnight = 1_000_000_000 - 1_000_000_000 % 86400
    let now = midnight + nowHour * 3600 + (nowHour == to ? 30 * 60 : 0)
    func next(_ t: Int) -> Int? {
      let day = t - ((t % 86400) + 86400) % 86400
      let start = day + from * 3600
      let end = day + to * 3600 + 59 * 60
      if t < start { return start }
      if t < end { return t - (t - start) % 60 + 60 }
      return day + 86400 + from * 3600
    }
    // the latest by walking every minute, the slow way
    var expected = now - 8 * 86400
    while let n = next(expected), n <= now { expected = n }
    let due = FiringRule.dueElapse(
      atOrBefore: now, lastTrigger: now - Int(daysBack * 86400), lookback: 86400, next: next)
    #expect(due == expected, "\(from)-\(to) now \(nowHour):xx back \(daysBack) d")
  }
}

/// A reminder's time is at most once a minute (`CalendarSpec.reminderProblem`).
@Suite struct ReminderTimeTests {
  @Test(arguments: [
    ("07:30", true), ("*:*", true), ("*:0/5", true), ("hourly", true), ("07:30:15", true),
    ("07:30:15.5", true), ("*:*:*", false), ("*-*-* 00:00:00/0.000001", false),
    ("*:*:0/30", false), ("07:00:00,30", false), ("07:00:00.5/1", false), ("minutely", true),
  ])
  func onlyOnceAMinuteOrLessIsAReminderTime(expression: String, taken: Bool) throws {
    let spec = try CalendarSpec.parse(expression, localZone: .utc, zoneExists: { _ in true })
    #expect((spec.reminderProblem == nil) == taken, "\(expression): \(spec.reminderProblem ?? "")")
  }
}

/// Issue 56, items 4 and 7: an import's habits are held to what Nudge keeps, and to the days
/// it keeps.
@Suite struct ImportedHabitLimitsTests {
  func document(habits: [[String: Any]]) -> Result<ExportDocument, InputError> {
    let json: [String: Any] = [
      "format": "nudge-export", "version": 3, "settings": [String: String](), "prep": [],
      "review": [], "checkin": [], "help": [], "habits": habits,
    ]
    let data = try! JSONSerialization.data(withJSONObject: json)
    return Result { () throws(InputError) in try ExportDocument.decode(data) }
  }

  func habit(_ name: String, since: String = "2026-11-01", days: [String] = []) -> [String: Any] {
    [
      "name": name, "question": "Did you?", "every": "daily", "since": since, "archived": false,
      "days": days.map { ["day": $0, "done": true, "saved_at": "\($0)T21:00:00+01:00"] },
    ]
  }

  func verdict(_ decoded: Result<ExportDocument, InputError>) -> String? {
    do throws(InputError) {
      let doc = try decoded.get()
      try doc.validate()
      try doc.checkNotAfter(
        day: Day(year: 2026, month: 11, day: 20), now: Instant(seconds: 1_795_600_000))
      return nil
    } catch { return error.message }
  }

  @Test func moreHabitsThanNudgeKeepsAreRefused() {
    #expect(verdict(document(habits: (1...Habit.maxCount).map { habit("h\($0)") })) == nil)
    let refused = verdict(document(habits: (1...Habit.maxCount + 1).map { habit("h\($0)") }))
    #expect(
      refused?.contains("101 habits, more than the 100 Nudge keeps") == true, "\(refused ?? "")")
  }

  @Test func aHabitDayOrStartOutsideTheDaysNudgeKeepsIsRefused() {
    #expect(verdict(document(habits: [habit("a", days: ["2026-11-19"])])) == nil)
    for (since, day) in [
      ("2026-11-01", "1969-12-30"), ("9999-12-31", "2026-11-19"), ("2026-11-01", "2026-12-30"),
    ] {
      #expect(
        verdict(document(habits: [habit("a", since: since, days: [day])])) != nil, "\(since) \(day)"
      )
    }
    // a year before 0001 is no day at all
    #expect(verdict(document(habits: [habit("a", days: ["-0001-01-01"])])) != nil)
  }
}
