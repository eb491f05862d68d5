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

  @Test func definedFlowsEarnTheirFirstAndCountForStreakAchievements() {
    let facts = HistoryFacts(
      definedDays: days(0..<3), definedFirsts: ["walk": start, "sleep": start.adding(days: 1)])
    let earned = AchievementRule.evaluate(facts)
    #expect(earned[.firstOf("walk")] == start)
    #expect(earned[.firstOf("sleep")] == start.adding(days: 1))
    #expect(earned[.streak3] == start.adding(days: 2))
    #expect(earned[.firstPrep] == nil)
    // a first is a first, not a milestone; its key reads back
    #expect(Achievement.firstOf("walk").isFirst && !Achievement.streak3.isFirst)
    #expect(Achievement(rawValue: "first-walk") == .firstOf("walk"))
    #expect(Achievement(rawValue: "first-") == nil && Achievement(rawValue: "first-Walk!") == nil)
  }

  @Test func theSleepPlansOwnAreEarnedByItsNightsAndChallenges() {
    // seven challenges completed, on the seventh
    let completed = HistoryFacts(challengesCompleted: days(0..<6))
    #expect(AchievementRule.evaluate(completed)[.sleepChallenges7] == nil)
    let seven = HistoryFacts(challengesCompleted: days(0..<7).union(days(9..<10)))
    #expect(AchievementRule.evaluate(seven)[.sleepChallenges7] == start.adding(days: 6))
    // seven nights in a row within 30 minutes (across midnight): 23:50 and 00:15 are close
    var bedtimes: [Day: Int] = [:]
    for offset in 0..<10 {
      bedtimes[start.adding(days: offset)] = offset % 2 == 0 ? 23 * 60 + 50 : 15
    }
    bedtimes[start.adding(days: 2)] = 22 * 60  // a late-evening outlier breaks the first week
    let steady = AchievementRule.evaluate(HistoryFacts(bedtimes: bedtimes))
    #expect(steady[.sleepSteadyWeek] == start.adding(days: 9))
    bedtimes[start.adding(days: 5)] = nil  // a night not logged breaks the run
    #expect(AchievementRule.evaluate(HistoryFacts(bedtimes: bedtimes))[.sleepSteadyWeek] == nil)
  }
}
