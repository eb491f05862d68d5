import Foundation
import Testing

@testable import NudgeCore

@Suite struct DeepLinkTests {
  @Test(arguments: [
    ("nudge://prep", DeepLink.prep, ["prep"]),
    ("nudge://review", .review, ["review"]),
    ("nudge://review/", .review, ["review"]),
    ("nudge://checkin", .checkin, ["checkin"]),
    ("nudge://need-help", .needHelp(nil), ["need-help"]),
    (
      "nudge://need-help?category=stress", .needHelp(.stress),
      ["need-help", "--category", "stress"]
    ),
    ("nudge://need-help?category=other", .needHelp(.other), ["need-help", "--category", "other"]),
    ("nudge://today", .today, ["today"]),
    ("nudge://streak", .streak, ["streak"]),
    ("nudge://week", .week, ["week"]),
    ("nudge://achievements", .achievements, ["achievements"]),
    ("nudge://celebrate", .celebrate(nil), ["celebrate"]),
    ("nudge://celebrate?achievement=streak-7", .celebrate(.streak7), ["celebrate", "streak-7"]),
    ("nudge://celebrate?replay=42", .replay(42), ["celebrate", "--replay", "42"]),
  ])
  func routesEveryLinkOfTheGrammar(text: String, link: DeepLink, arguments: [String]) throws {
    #expect(try DeepLink.parse(text) == link)
    #expect(link.arguments == arguments)
    // `url` is the inverse of `parse`
    #expect(try DeepLink.parse(link.url) == link)
  }

  @Test func eachSlotOpensItsFlowAndAFlowKnowsItsSlot() {
    #expect(ReminderSource.morning.deepLink == .review)
    #expect(ReminderSource.evening.deepLink == .prep)
    #expect(ReminderSource.midday.deepLink == .needHelp(nil))
    #expect(DeepLink.review.slot == .morning)
    #expect(DeepLink.checkin.slot == .evening)
    #expect(DeepLink.needHelp(.stress).slot == nil)
    #expect(DeepLink.streak.slot == nil)
  }

  static let hostile: [String] = {
    var links = [
      "", "nudge:", "nudge://", "http://review", "NUDGE://review", "nudge://Review",
      "nudge://review?x=1", "nudge://review?", "nudge://need-help?category=",
      "nudge://need-help?category",
      "nudge://need-help?category=stress&category=habit", "nudge://need-help?category=Stress",
      "nudge://need-help?category=stress;rm -rf ~", "nudge://need-help?category=$(id)",
      "nudge://need-help?category=`id`", "nudge://prep;id", "nudge://prep|id", "nudge://prep&&id",
      "-nudge://review", "--help", "+nudge://review", "nudge://prep%00", "nudge://prep%0a",
      "nudge://prep\n", "nudge://prep\u{0}", "nudge://prep\u{202E}", "nudge://pr\u{200B}ep",
      "nudge://../../etc/passwd", "nudge://review/..", "nudge://celebrate?achievement=../x",
      "nudge://celebrate?achievement=first-prep&x=1", "nudge://celebrate?achievement=nope",
      "nudge://review#frag x", "nudge://user@review", "nudge://review:80", "file:///etc/passwd",
      "javascript:alert(1)", "nudge://prep\t", " nudge://prep", "nudge://prép",
      "nudge://celebrate?replay=", "nudge://celebrate?replay=-1", "nudge://celebrate?replay=1a",
      "nudge://celebrate?replay=+1",
      "nudge://celebrate?replay=" + String(repeating: "9", count: 19),
      "nudge://celebrate?replay=1&achievement=first-prep", "nudge://review?replay=1",
      "nudge://" + String(repeating: "a", count: 300),
      "nudge://need-help?category=" + String(repeating: "s", count: 65_536),
    ]
    for c in 0..<32 { links.append("nudge://prep" + String(UnicodeScalar(UInt8(c)))) }
    return links
  }()

  @Test(arguments: hostile)
  func refusesHostileLinks(text: String) {
    #expect(throws: InputError.self) { try DeepLink.parse(text) }
  }

  @Test func aDefinedFlowsLinkIsItsWordAndOnlyWhenAPlanDefinesIt() throws {
    let words: Set<String> = ["sleep", "walk"]
    #expect(try DeepLink.parse("nudge://walk", flowWords: words) == .flow("walk"))
    #expect(DeepLink.flow("walk").url == "nudge://walk")
    #expect(DeepLink.flow("walk").arguments == ["walk"])
    #expect(Flow.defined("walk").deepLink == .flow("walk"))
    // no plan defines it: refused, with the words there are
    #expect(throws: InputError.self) { try DeepLink.parse("nudge://walk") }
    do {
      _ = try DeepLink.parse("nudge://walks", flowWords: words)
      Issue.record("a misspelt flow was taken")
    } catch {
      #expect(error.message.contains("did you mean 'walk'?"), "\(error.message)")
    }
    // a flow's first is an achievement to celebrate only for a flow a plan defines
    #expect(
      try DeepLink.parse("nudge://celebrate?achievement=first-walk", flowWords: words)
        == .celebrate(.firstOf("walk")))
    #expect(throws: InputError.self) {
      try DeepLink.parse("nudge://celebrate?achievement=first-checkin1", flowWords: words)
    }
    // a flow's link takes no parameters, and hostile hosts stay refused whatever is defined
    for text in ["nudge://walk?x=1", "nudge://walk;id", "nudge://Walk", "nudge://walk/.."] {
      #expect(throws: InputError.self) { try DeepLink.parse(text, flowWords: words) }
    }
  }

  @Test func aFlowsStoredNameIsTheCoachsIdOrAWordOfTheShapePlanFilesAllow() {
    #expect(Flow(rawValue: "need-help") == .needHelp)
    #expect(Flow(rawValue: "walk") == .defined("walk"))
    #expect(Flow.defined("walk").rawValue == "walk")
    for text in [
      "", "Walk", "walk-", "1walk", "walk now", "wälk", String(repeating: "w", count: 25),
    ] {
      #expect(Flow(rawValue: text) == nil, "\(text)")
    }
    #expect(Flow.coach == [.prep, .review, .checkin, .needHelp])
  }
}
