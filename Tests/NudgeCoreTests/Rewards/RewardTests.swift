import Testing

@testable import NudgeCore

@Suite struct RewardTests {
  @Test func tenThousandSeededDrawsMatchTheWeightsAndNeverRepeatTheLastTen() {
    var rng = SplitMix64(seed: 2026)
    var counts: [CelebrationTier: Int] = [:]
    var recent: [String] = []
    var repeats = 0
    for _ in 0..<10_000 {
      let c = RewardPicker.draw(using: &rng, recentMessages: recent)
      counts[c.tier, default: 0] += 1
      if recent.contains(c.message) { repeats += 1 }
      recent = Array(([c.message] + recent).prefix(RewardPicker.freshness))
    }
    for tier in CelebrationTier.allCases {
      let percent = Double(counts[tier, default: 0]) / 100
      #expect(abs(percent - Double(tier.weight)) <= 1.5, "\(tier): \(percent)%")
    }
    #expect(repeats == 0)
  }

  @Test func atLeastSixtyPhrasesAndThirtyDrawsPerTierAreVaried() {
    let all =
      CelebrationTier.allCases.flatMap(\.messages) + CelebrationMoment.allCases.flatMap(\.messages)
    #expect(Set(all).count >= 60)
    for tier in CelebrationTier.allCases {
      // 30 draws of one tier in a row, as a person keeping the last ten sees them
      var rng = SplitMix64(seed: 7)
      var recent: [String] = []
      var seen: Set<String> = []
      for _ in 0..<30 {
        var c = RewardPicker.draw(using: &rng, recentMessages: recent)
        while c.tier != tier { c = RewardPicker.draw(using: &rng, recentMessages: recent) }
        #expect(!recent.contains(c.message))
        seen.insert(c.message)
        recent = Array(([c.message] + recent).prefix(RewardPicker.freshness))
      }
      #expect(seen.count >= 10, "\(tier): \(seen.count) distinct")
    }
  }

  @Test func theWordingFitsTheMoment() {
    var rng = SplitMix64(seed: 5)
    let first = RewardPicker.draw(
      using: &rng, newAchievements: [.firstPrep],
      moment: .of(
        newAchievements: [.firstPrep], previousDoneDay: nil, day: Day(ordinal: 100),
        firstOfDay: true))
    #expect(CelebrationMoment.first.messages.contains(first.message))
    #expect(first.message != "You are on fire!")
    #expect(
      CelebrationMoment.of(
        newAchievements: [.firstCheckin, .streak7], previousDoneDay: nil, day: Day(ordinal: 9),
        firstOfDay: true) == .milestone)
    let back = CelebrationMoment.of(
      newAchievements: [], previousDoneDay: Day(ordinal: 90), day: Day(ordinal: 100),
      firstOfDay: true)
    #expect(back == .comeback)
    let comeback = RewardPicker.draw(using: &rng, moment: back)
    #expect(CelebrationMoment.comeback.messages.contains(comeback.message))
    #expect(comeback.tier != .quiet)
    #expect(
      CelebrationMoment.of(
        newAchievements: [], previousDoneDay: Day(ordinal: 99), day: Day(ordinal: 100),
        firstOfDay: true) == .regular)
    #expect(
      CelebrationMoment.of(
        newAchievements: [], previousDoneDay: Day(ordinal: 90), day: Day(ordinal: 100),
        firstOfDay: false) == .regular)
  }

  @Test func sameSeedSameDraws() {
    var a = SplitMix64(seed: 42)
    var b = SplitMix64(seed: 42)
    let first = (0..<50).map { _ in RewardPicker.draw(using: &a) }
    let second = (0..<50).map { _ in RewardPicker.draw(using: &b) }
    #expect(first == second)
  }

  @Test func newAchievementAlwaysGetsFireworksWithItsTitle() {
    var rng = SplitMix64(seed: 1)
    for _ in 0..<200 {
      let c = RewardPicker.draw(using: &rng, newAchievements: [.firstHelp])
      #expect(c.tier == .fireworks)
      #expect(c.achievements == [.firstHelp])
    }
  }

  @Test func celebrationsOffIsAlwaysQuiet() {
    var rng = SplitMix64(seed: 3)
    for _ in 0..<200 {
      #expect(
        RewardPicker.draw(using: &rng, newAchievements: [.streak3], celebrationsOn: false).tier
          == .quiet)
    }
  }

  @Test func heatmapLaysOutTwelveWeeksMondayFirst() {
    let today = Day("2026-11-19")!  // a Thursday
    let weeks = Heatmap.weeks(
      12, today: today, doneDays: [today, Day("2026-11-16")!], frozen: [Day("2026-11-17")!])
    #expect(weeks.count == 12)
    #expect(weeks[11] == [.done, .frozen, .missed, .done, .future, .future, .future])
    // nothing before the first day anything was done counts as missed
    #expect(weeks[0].allSatisfy { $0 == .beforeFirstUse })
    #expect(weeks[10].allSatisfy { $0 == .beforeFirstUse })
  }

  @Test func todayIsInProgressNotMissedAndTheRingIsTheLastSevenDays() {
    let today = Day("2026-12-11")!  // a Friday
    let done: Set<Day> = [Day("2026-12-05")!, Day("2026-12-06")!, Day("2026-12-08")!]
    let frozen: Set<Day> = [Day("2026-12-07")!]
    let ring = Heatmap.lastSevenDays(today: today, doneDays: done, frozen: frozen)
    #expect(ring == [.done, .done, .frozen, .done, .missed, .missed, .inProgress])
    let thisWeek = Heatmap.weeks(1, today: today, doneDays: done, frozen: frozen)[0]
    #expect(thisWeek == [.frozen, .done, .missed, .missed, .inProgress, .future, .future])
  }

  @Test func pausedDaysHaveAMarkOfTheirOwnInTheRingAndTheHeatmap() {
    let today = Day("2026-11-21")!  // a Saturday
    let done: Set<Day> = [Day("2026-11-16")!, Day("2026-11-18")!]
    // the 17th to the 19th off, the 18th done all the same; the 21st, today, off too
    let paused: Set<Day> = [
      Day("2026-11-17")!, Day("2026-11-18")!, Day("2026-11-19")!, Day("2026-11-21")!,
      Day("2026-11-22")!,
    ]
    let frozen: Set<Day> = [Day("2026-11-20")!]
    let ring = Heatmap.lastSevenDays(
      today: today, doneDays: done, frozen: frozen, paused: paused)
    #expect(ring == [.beforeFirstUse, .done, .paused, .done, .paused, .frozen, .paused])
    let week = Heatmap.weeks(1, today: today, doneDays: done, frozen: frozen, paused: paused)[0]
    // a day off still to come is blank like any day to come
    #expect(week == [.done, .paused, .done, .paused, .frozen, .paused, .future])
    // a day off before anything was ever done is a day off all the same
    let early = Heatmap.weeks(
      2, today: today, doneDays: done, frozen: [], paused: [Day("2026-11-10")!])[0]
    #expect(early == [.beforeFirstUse, .paused] + Array(repeating: .beforeFirstUse, count: 5))
  }

  @Test func pausedDaysAreThoseOfTheRingAndTheHeatmapUpToToday() {
    let today = Day("2026-11-18")!  // a Wednesday: this week's Monday is the 16th
    let paused = Set(
      Pause(firstDay: Day("2026-08-01")!, lastDay: Day("2026-08-31")!).days(through: today)
        + Pause(firstDay: Day("2026-11-11")!, lastDay: Day("2026-11-25")!).days(through: today)
    )
    // one week: the ring reaches back to the 12th, before this week's Monday
    #expect(
      Heatmap.pausedDays(paused, weeks: 1, today: today).map(\.description) == [
        "2026-11-12", "2026-11-13", "2026-11-14", "2026-11-15", "2026-11-16", "2026-11-17",
        "2026-11-18",
      ])
    // twelve weeks from Monday 31 August: August's pause is older but for its last day
    let twelve = Heatmap.pausedDays(paused, weeks: 12, today: today)
    #expect(twelve.first?.description == "2026-08-31")
    #expect(twelve.count == 1 + 8)
    #expect(twelve == twelve.sorted())
    // a year's worth holds all of August
    #expect(Heatmap.pausedDays(paused, weeks: 53, today: today).count == 31 + 8)
    #expect(Heatmap.mondays(53, today: today).count == 53)
    #expect(Heatmap.mondays(53, today: today).first?.description == "2025-11-17")
  }
}
