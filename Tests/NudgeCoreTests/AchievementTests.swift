import Testing

@testable import NudgeCore

@Suite struct AchievementTests {
  let start = Day("2026-01-01")!

  func days(_ range: Range<Int>) -> Set<Day> { Set(range.map { start.adding(days: $0) }) }

  @Test func firstOfEachFlowIsEarnedOnItsDay() {
    let facts = HistoryFacts(
      prepDays: days(3..<5), reviewDays: days(4..<5), checkinDays: days(9..<10),
      helpDays: days(1..<2))
    let earned = AchievementRule.evaluate(facts)
    #expect(earned[.firstPrep] == start.adding(days: 3))
    #expect(earned[.firstReview] == start.adding(days: 4))
    #expect(earned[.firstCheckin] == start.adding(days: 9))
    #expect(earned[.firstHelp] == start.adding(days: 1))
  }

  @Test(arguments: [
    (Achievement.streak3, 3), (.streak7, 7), (.streak14, 14), (.streak30, 30), (.streak100, 100),
  ])
  func streakAchievementsAtTheirBoundary(achievement: Achievement, length: Int) {
    let justShort = AchievementRule.evaluate(HistoryFacts(helpDays: days(0..<(length - 1))))
    #expect(justShort[achievement] == nil)
    let exactly = AchievementRule.evaluate(HistoryFacts(helpDays: days(0..<length)))
    #expect(exactly[achievement] == start.adding(days: length - 1))
  }

  @Test func frozenDayDoesNotCountTowardsAStreakAchievement() {
    // 7 done, one frozen, 6 more: the streak is 13 long, not 14
    let facts = HistoryFacts(helpDays: days(0..<7).union(days(8..<14)))
    #expect(AchievementRule.evaluate(facts)[.streak14] == nil)
    let longer = HistoryFacts(helpDays: days(0..<7).union(days(8..<15)))
    #expect(AchievementRule.evaluate(longer)[.streak14] == start.adding(days: 14))
  }

  @Test func morningWeekNeedsSevenConsecutiveReviews() {
    #expect(
      AchievementRule.evaluate(HistoryFacts(reviewDays: days(0..<6).union(days(7..<8))))[
        .morningWeek] == nil)
    #expect(
      AchievementRule.evaluate(HistoryFacts(reviewDays: days(2..<9)))[.morningWeek]
        == start.adding(days: 8))
  }

  @Test func perfectWeekNeedsAllThreeFlowsEachDay() {
    let week = days(0..<7)
    var missingOne = week
    missingOne.remove(start.adding(days: 3))
    #expect(
      AchievementRule.evaluate(
        HistoryFacts(prepDays: week, reviewDays: week, checkinDays: missingOne))[.perfectWeek]
        == nil)
    #expect(
      AchievementRule.evaluate(HistoryFacts(prepDays: week, reviewDays: week, checkinDays: week))[
        .perfectWeek] == start.adding(days: 6))
  }

  @Test func tenFollowedSwapsOnTheTenth() {
    let checkins = days(0..<20)
    let followed = Set([0, 2, 3, 5, 7, 8, 11, 12, 13].map { start.adding(days: $0) })
    #expect(
      AchievementRule.evaluate(HistoryFacts(checkinDays: checkins, followedDays: followed))[
        .swaps10] == nil)
    let ten = followed.union([start.adding(days: 17)])
    #expect(
      AchievementRule.evaluate(HistoryFacts(checkinDays: checkins, followedDays: ten))[.swaps10]
        == start.adding(days: 17))
  }

  @Test func evaluationIsAPureFunction() {
    let facts = HistoryFacts(
      prepDays: days(0..<40), reviewDays: days(0..<40), checkinDays: days(0..<40))
    #expect(AchievementRule.evaluate(facts) == AchievementRule.evaluate(facts))
  }
}

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
}
