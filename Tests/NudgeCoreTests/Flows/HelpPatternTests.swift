import Foundation
import Testing

@testable import NudgeCore

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
    #expect(ReminderSource.evening.offer(done: [.prep]) == .flow(.checkin))
    #expect(ReminderSource.evening.offer(done: [.prep, .checkin]) == nil)
    #expect(ReminderSource.morning.offer(done: [.prep]) == .flow(.review))
    let morning = DesktopNotification.reminder(.morning, streak: 0)
    #expect(morning.actions.map(\.label) == ["Open", "Snooze 15 min"])
    // the weekly look back: read, never done; Open and Snooze only; off until turned on
    let week = DesktopNotification.reminder(.weekly, streak: 4)
    #expect(week.title == "Your week")
    #expect(week.actions.map(\.label) == ["Open", "Snooze 15 min"])
    #expect(ReminderSource.weekly.offer(done: Set(Flow.coach)) == .week)
    #expect(ReminderSource.weekly.deepLink == .week && DeepLink.week.slot == .weekly)
    #expect(
      ReminderSource.weekly.defaultExpression == "Sun *-*-* 18:00:00"
        && !ReminderSource.weekly.enabledByDefault)
    #expect(
      Reminder.Offer.week.command == "week" && Reminder.Offer.flow(.needHelp).command == "need-help"
    )
    let celebration = DesktopNotification.celebration(
      Celebration(tier: .spark, message: "Nice.", achievements: []))
    #expect(celebration.actions == [.init("default", "Replay")])
  }
}
