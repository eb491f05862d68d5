import Foundation
import Testing

@testable import NudgeCore

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
    // a range past Sunday is split there: systemd refuses one that runs backwards
    ("fri-mon 9am", "Fri..Sun,Mon *-*-* 09:00:00"), ("sun-tue 9am", "Sun,Mon..Tue *-*-* 09:00:00"),
    ("Sat..Wed 9am", "Sat..Sun,Mon..Wed *-*-* 09:00:00"), ("mon-mon 9", "Mon..Mon *-*-* 09:00:00"),
    ("sunday,Wed,Mon,Wed-Mon,Wed,23", "Sun,Wed,Mon,Wed..Sun,Mon,Wed *-*-* 23:00:00"),
  ])
  func plainWordsBecomeSystemdExpressions(text: String, expression: String) throws {
    #expect(PlainTime.expression(text) == expression)
    // and the calendar parser (held to systemd by the oracle) takes what they become
    _ = try CalendarSpec.parse(expression, localZone: .utc, zoneExists: { _ in false })
  }

  @Test(arguments: [
    "daily", "13pm", "24", "7:3", "25:00", "7:60", "Mon..Fri *-*-* 07:00:00", "*:0/15",
    "tomorrow 9am",
  ])
  func otherTextIsLeftToSystemd(text: String) {
    #expect(PlainTime.expression(text) == nil)
  }

  @Test func aNumberThatIsNoTimeIsNamedAfterDayWords() {
    #expect(PlainTime.badTimeWord("wed..mon 25") == "25")
    #expect(PlainTime.badTimeWord("sun-tue 7:75") == "7:75")
    #expect(PlainTime.badTimeWord("25") == "25")
    #expect(PlainTime.badTimeWord("weekdays 7:30") == nil)  // a time: nothing wrong
    #expect(PlainTime.badTimeWord("tomorrow 25") == nil)  // not day words
    #expect(PlainTime.badTimeWord("*:0/15") == nil)
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
    #expect(!ReminderSource.morning.usualHours.contains(0))
  }
}
