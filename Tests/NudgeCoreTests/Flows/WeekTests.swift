import Testing

@testable import NudgeCore

@Suite struct WeekTests {
  let monday = Day("2026-11-16")!

  func day(
    _ offset: Int, prep: Bool = false, followed: Bool? = nil, help: [(String, HelpCategory)] = []
  )
    -> HistoryDay
  {
    let date = monday.adding(days: offset)
    return HistoryDay(
      date: date,
      prep: prep ? PrepEntry(day: date, water: true, savedAt: "\(date)T22:40:00+01:00") : nil,
      review: followed == nil
        ? nil
        : ReviewEntry(
          day: date, commitTo: "walk", commitFrom: "the bus", savedAt: "\(date)T07:00:00+01:00"),
      checkin: followed.map {
        CheckinEntry(day: date, followed: $0, savedAt: "\(date)T21:00:00+01:00")
      },
      help: help.enumerated().map { i, h in
        HelpNote(
          id: "\(date)-\(i)", day: date, category: h.1, note: nil, at: "\(date)T\(h.0):00+01:00")
      })
  }

  @Test func aWeekIsSummedUpInAFewLines() {
    let days = [
      day(0, prep: true, followed: true, help: [("15:10", .stress)]),
      day(1, prep: true, followed: false, help: [("16:00", .stress), ("09:00", .habit)]),
      day(2), day(3, prep: true), day(4, followed: true, help: [("15:30", .stress)]), day(5),
      day(6),
    ]
    let before = (0..<7).map { HistoryDay(date: monday.adding(days: $0 - 7)) }
    let week = WeekSummary(days: days, before: before)
    #expect(week.daysDone == 4)
    #expect(week.swapsAnswered == 3 && week.swapsFollowed == 2)
    #expect(week.cravingsByCategory.first == .init(category: .stress, count: 3))
    #expect(week.prepMissing.first?.count == 3)
    let text = week.lines.joined(separator: "\n")
    #expect(text.contains("Days with a flow: 4 of 7 (the week before: 0)."))
    #expect(text.contains("Cravings: 3 of 4 were stress, all in the afternoon."))
    #expect(text.contains("Swaps: followed in 2 of 3 check-ins."))
    #expect(text.contains("You committed: I will walk instead of the bus (3 days)."))
  }

  @Test(arguments: [
    ("00:10", "night"), ("03:00", "night"), ("04:59", "night"), ("05:00", "morning"),
    ("11:59", "morning"), ("12:00", "afternoon"), ("16:59", "afternoon"), ("17:00", "evening"),
    ("23:59", "evening"),
  ])
  func aCravingsTimeHasItsPartOfTheDay(time: String, part: String) {
    let week = WeekSummary(days: [day(0, help: [(time, .habit)])], before: [])
    #expect(week.cravingsByTime == [part: 1])
    let said = part == "night" ? "at night" : "in the \(part)"
    #expect(week.lines.contains("Cravings: one, habit, \(said)."), "\(week.lines)")
  }

  @Test func cravingsAt3amAreNightNotMorning() {
    let week = WeekSummary(
      days: [
        day(0, help: [("03:00", .stress), ("02:10", .stress)]), day(1, help: [("09:00", .habit)]),
      ],
      before: [])
    #expect(week.lines.contains("Cravings: 2 of 3 were stress, all at night."), "\(week.lines)")
  }

  @Test func aFlowDoneWellAwayFromItsReminderSuggestsMovingIt() {
    let late = Array(repeating: 22 * 60 + 40, count: 5) + [21 * 60 + 30, 21 * 60 + 35]
    let move = SlotSuggestion.better(slotMinutes: 21 * 60 + 30, times: late)
    #expect(move?.usual == 22 * 60 + 40)
    #expect(move?.suggested == 22 * 60 + 15)
    // four days away is not enough
    #expect(SlotSuggestion.better(slotMinutes: 21 * 60 + 30, times: Array(late.dropFirst())) == nil)
  }
}
