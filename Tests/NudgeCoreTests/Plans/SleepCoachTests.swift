import Testing

@testable import NudgeCore

/// The sleep plan's recommender: plain rules over the last seven nights, one line of why,
/// the same nights giving the same challenge.
@Suite struct SleepCoachTests {
  let catalogue = try! PlanFile.read(BuiltInPlans.texts[1].text).challenges

  func night(_ bed: String, _ wake: String, rested: Int = 4) -> SleepCoach.Night {
    func minutes(_ text: String) -> Int {
      let parts = text.split(separator: ":").map { Int($0)! }
      return parts[0] * 60 + parts[1]
    }
    return SleepCoach.Night(bedtime: minutes(bed), wake: minutes(wake), rested: rested)
  }

  @Test func theCatalogueHasTwentyFourChallengesInSixCategories() {
    #expect(catalogue.count >= 24)
    let categories = Set(catalogue.map(\.category))
    #expect(
      categories == [
        "consistency", "routine", "screens", "caffeine-alcohol", "light-temperature", "wind-down",
      ])
    for category in categories {
      #expect(catalogue.filter { $0.category == category }.count >= 4, "\(category)")
    }
  }

  @Test func aVaryingBedtimeAsksForTheSameBedtimeAndSaysBy() throws {
    let nights = [
      night("22:50", "07:00"), night("23:00", "07:00"), night("00:30", "07:10"),
      night("23:10", "07:00"), night("22:55", "06:50"),
    ]
    let pick = try #require(SleepCoach.pick(nights: nights, catalogue: catalogue))
    #expect(
      SleepCoach.line(pick)
        == "Same bedtime tonight: lights out by 23:00 — your bedtime varied by 1 h 40 this week")
    #expect(pick.challenge.category == "consistency")
    // asking for another gives the next of the same need, then the next need's
    let another = try #require(
      SleepCoach.pick(nights: nights, catalogue: catalogue, declined: ["same-bedtime"]))
    #expect(another.challenge.id == "same-wake")
    // and the same nights always give the same pick
    #expect(SleepCoach.pick(nights: nights, catalogue: catalogue) == pick)
  }

  @Test func eachRuleHasItsCategoryAndReason() throws {
    func picked(_ nights: [SleepCoach.Night], yesterday: String? = nil) -> (String, String)? {
      SleepCoach.pick(nights: nights, catalogue: catalogue, yesterday: yesterday).map {
        ($0.challenge.id, $0.reason)
      }
    }
    #expect(
      picked([])! == ("same-steps", "no nights logged yet: a small routine is the place to start"))
    let late = Array(repeating: night("00:40", "08:30"), count: 4)
    #expect(picked(late)! == ("screens-off-hour", "your bedtime averaged 00:40 this week"))
    let tired = Array(repeating: night("23:00", "07:00", rested: 2), count: 3)
    #expect(
      picked(tired)!
        == ("no-coffee-after-two", "you woke rested 2.0 out of 5 on average this week"))
    let short = Array(repeating: night("23:30", "05:50"), count: 3)
    #expect(picked(short)! == ("same-steps", "you slept 6 h 20 a night on average this week"))
    let steady = Array(repeating: night("23:00", "07:00"), count: 7)
    #expect(picked(steady)! == ("read-paper", "a steady week: keep the evening calm"))
    // not yesterday's when another of the need will do
    #expect(picked(steady, yesterday: "read-paper")!.0 == "breathing")
    // only the last seven nights count
    let old = Array(repeating: night("03:00", "07:00"), count: 10) + steady
    #expect(picked(old)!.0 == "read-paper")
  }
}
