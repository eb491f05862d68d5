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
