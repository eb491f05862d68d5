import Foundation
import Testing

@testable import NudgeCore

@Suite struct SettingsTests {
  @Test(arguments: [
    ("rollover-hour", "0", "0"), ("rollover-hour", " 4 ", "4"), ("celebrations", "OFF", "off"),
    ("celebrations", "yes", "on"), ("staleness.morning", "90m", "1h30m"),
    ("staleness.evening", "2h30m", "2h30m"), ("terminal", "xterm -e", "xterm -e"),
  ])
  func acceptsAndCanonicalisesValues(key: String, value: String, expected: String) throws {
    #expect(try SettingKey.named(key).validate(value) == expected)
  }

  @Test(arguments: [
    ("rollover-hour", "13"), ("rollover-hour", "-1"), ("rollover-hour", "4h"),
    ("celebrations", "maybe"), ("staleness.midday", "0m"), ("staleness.midday", "25h"),
    ("staleness.midday", "4"), ("terminal", "xterm -e 'unclosed"),
  ])
  func refusesInvalidValuesSayingWhatIsAllowed(key: String, value: String) throws {
    let setting = try SettingKey.named(key)
    let error = #expect(throws: InputError.self) { try setting.validate(value) }
    #expect(error?.message.contains(setting.allowed) == true)
  }

  @Test func unknownKeyListsTheKeys() {
    let error = #expect(throws: InputError.self) { try SettingKey.named("colour") }
    #expect(error?.message.contains("rollover-hour, celebrations") == true)
  }

  @Test func storedGarbageFallsBackToDefaults() {
    let s = Settings(stored: ["rollover-hour": "99", "celebrations": "off"])
    #expect(s.rolloverHour == 4)
    #expect(!s.celebrationsOn)
    #expect(s.stalenessSeconds(for: .morning) == 4 * 3600)
  }

  @Test func splitsCommandLinesWithoutAShell() throws {
    #expect(
      try CommandLineWords.split(#"tmux new-window -n "nudge flow" 'a b' c\ d"#) == [
        "tmux", "new-window", "-n", "nudge flow", "a b", "c d",
      ])
    #expect(throws: InputError.self) { try CommandLineWords.split("a \"b") }
  }

  @Test func freeTextRefusesControlCharactersAndTrims() throws {
    #expect(try FreeText.clean("  water  ", field: "x") == "water")
    #expect(try FreeText.clean("   ", field: "x") == nil)
    #expect(throws: InputError.self) { try FreeText.clean("a\u{1B}[31mb", field: "x") }
    #expect(throws: InputError.self) {
      try FreeText.clean(String(repeating: "a", count: 1001), field: "x")
    }
  }
}

@Suite struct HelpPatternTests {
  func note(_ day: String, _ category: HelpCategory) -> HelpNote {
    HelpNote(
      id: UUID().uuidString, day: Day(day)!, category: category, note: nil, at: day + "T12:00:00Z")
  }

  @Test func namesTheMostFrequentCategoryOfTheWeek() {
    let notes = [
      note("2026-11-14", .habit),  // eight days ago: outside the week
      note("2026-11-15", .stress), note("2026-11-16", .stress), note("2026-11-18", .habit),
      note("2026-11-19", .stress), note("2026-11-20", .physical), note("2026-11-21", .stress),
    ]
    #expect(
      HelpPattern.line(notes: notes, today: Day("2026-11-21")!, latest: .stress)
        == "4 of your 6 captures this week were stress.")
    let two = [note("2026-11-20", .habit), note("2026-11-21", .stress)]
    #expect(
      HelpPattern.line(notes: two, today: Day("2026-11-21")!, latest: .habit)
        == "1 of your 2 captures this week was habit.")
  }

  @Test func firstCaptureIsEncouraged() {
    #expect(
      HelpPattern.line(
        notes: [note("2026-11-21", .other)], today: Day("2026-11-21")!, latest: .other)?.contains(
          "first capture") == true)
  }

  @Test func snoozeLengthIsASettingBetweenTenSecondsAndTwelveHours() throws {
    #expect(try SettingKey.snooze.validate("1m") == "1m")
    #expect(try SettingKey.snooze.validate("90s") == "1m30s")
    #expect(throws: InputError.self) { try SettingKey.snooze.validate("5s") }
    #expect(throws: InputError.self) { try SettingKey.snooze.validate("13h") }
    #expect(Settings().snoozeSeconds == 900)
    #expect(Settings(stored: ["snooze": "1m"]).snoozeSeconds == 60)
    #expect(DurationText.spoken(seconds: 900) == "15 min")
    #expect(DurationText.spoken(seconds: 5400) == "1 h 30 min")
    #expect(DurationText.spoken(seconds: 10) == "10 s")
  }

  @Test func reminderButtonsOpenOnceAndOfferWhatMakesSense() {
    let evening = DesktopNotification.reminder(.evening, streak: 3, snoozeSeconds: 600)
    #expect(evening.actions.map(\.id) == ["default", "done", "snooze"])
    #expect(evening.actions.map(\.label) == ["Open", "All prepped", "Snooze 10 min"])
    #expect(evening.icon == "nudge")
    #expect(evening.body.contains("3-day streak"))
    let prepped = DesktopNotification.reminder(.evening, streak: 3, offering: .flow(.checkin))
    #expect(prepped.actions.map(\.id) == ["default", "snooze"])
    #expect(prepped.title == "Check in on today")
    #expect(Slot.evening.offer(done: [.prep]) == .flow(.checkin))
    #expect(Slot.evening.offer(done: [.prep, .checkin]) == nil)
    #expect(Slot.morning.offer(done: [.prep]) == .flow(.review))
    let morning = DesktopNotification.reminder(.morning, streak: 0)
    #expect(morning.actions.map(\.label) == ["Open", "Snooze 15 min"])
    // the weekly look back: read, never done; Open and Snooze only; off until turned on
    let week = DesktopNotification.reminder(.weekly, streak: 4)
    #expect(week.title == "Your week")
    #expect(week.actions.map(\.label) == ["Open", "Snooze 15 min"])
    #expect(Slot.weekly.offer(done: Set(Flow.allCases)) == .week)
    #expect(Slot.weekly.deepLink == .week && DeepLink.week.slot == .weekly)
    #expect(Slot.weekly.defaultExpression == "Sun *-*-* 18:00:00" && !Slot.weekly.enabledByDefault)
    #expect(
      ReminderOffer.week.command == "week" && ReminderOffer.flow(.needHelp).command == "need-help")
    let celebration = DesktopNotification.celebration(
      Celebration(tier: .spark, message: "Nice.", achievements: []))
    #expect(celebration.actions == [.init("default", "Replay")])
  }
}

@Suite struct PlainTimeTests {
  @Test(arguments: [
    ("9pm", "*-*-* 21:00:00"), ("7:30 am", "*-*-* 07:30:00"), ("7:30am", "*-*-* 07:30:00"),
    ("weekdays 7:30", "Mon..Fri *-*-* 07:30:00"), ("weekends 9am", "Sat,Sun *-*-* 09:00:00"),
    ("Mon,Wed,Fri 18:00", "Mon,Wed,Fri *-*-* 18:00:00"), ("12am", "*-*-* 00:00:00"),
    ("12pm", "*-*-* 12:00:00"), ("noon", "*-*-* 12:00:00"),
    ("9am weekdays", "Mon..Fri *-*-* 09:00:00"),
    ("every day at 21:30", "*-*-* 21:30:00"),
    ("mondays and thursdays 6:15 pm", "Mon,Thu *-*-* 18:15:00"),
    ("mon-fri 7:00", "Mon..Fri *-*-* 07:00:00"),
    // a bare hour is on the 24-hour clock, as a newcomer types it
    ("7", "*-*-* 07:00:00"), ("19", "*-*-* 19:00:00"), ("7pm", "*-*-* 19:00:00"),
    ("weekdays 7", "Mon..Fri *-*-* 07:00:00"),
  ])
  func plainWordsBecomeSystemdExpressions(text: String, expression: String) {
    #expect(PlainTime.expression(text) == expression)
  }

  @Test(arguments: [
    "daily", "13pm", "24", "7:3", "25:00", "7:60", "Mon..Fri *-*-* 07:00:00", "*:0/15",
    "tomorrow 9am",
  ])
  func otherTextIsLeftToSystemd(text: String) {
    #expect(PlainTime.expression(text) == nil)
  }

  @Test func expressionsAreSaidBackInPlainWords() {
    #expect(PlainTime.describe("*-*-* 07:00:00") == "07:00")
    #expect(PlainTime.describe("Mon..Fri *-*-* 21:30:00") == "weekdays 21:30")
    #expect(PlainTime.describe("Sat,Sun *-*-* 09:00:00") == "weekends 09:00")
    #expect(PlainTime.describe("Mon,Wed,Fri *-*-* 18:00:00") == "Mon,Wed,Fri 18:00")
    #expect(PlainTime.describe("*-*-* 07:00:30") == nil)
    #expect(PlainTime.describe("*-*-* 07:00:00 UTC") == nil)
    #expect(PlainTime.describe("*:0/15") == nil)
    #expect(PlainTime.hour(of: "*-*-* 00:00:00") == 0)
    #expect(!Slot.morning.usualHours.contains(0))
  }
}
