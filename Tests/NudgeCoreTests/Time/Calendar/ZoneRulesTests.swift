import Testing

@testable import NudgeCore

/// `ZoneRules` shares its fields between copies: a copy that changes is its own.
@Suite struct ZoneRulesTests {
  @Test func aCopyThatChangesLeavesTheOriginalAsItWas() throws {
    let berlin = try #require(TestZones.named("Europe/Berlin"))
    let before = berlin.localType(at: 1_700_000_000)
    var changed = berlin
    #expect(changed == berlin)
    changed.transitions.removeAll()
    changed.types[0].abbreviation = "XYZ"
    changed.name = "Elsewhere"
    #expect(changed != berlin)
    #expect(berlin.name == "Europe/Berlin")
    #expect(berlin.localType(at: 1_700_000_000) == before)
    #expect(berlin.types[0].abbreviation != "XYZ")
    // equal fields are equal zones, whether or not they are shared
    let again = try #require(TestZones.named("Europe/Berlin"))
    #expect(again == berlin)
  }

  @Test func aRulelessPosixZoneKeepsItsFirstParseApart() throws {
    let newYork = try #require(TestZones.named("America/New_York"))
    let zone = try #require(ZoneRules(posix: "AAA5BBB", defaultRules: newYork))
    let first = try #require(zone.firstParse)
    #expect(first.firstParseTransitions == nil)
    #expect(zone.firstParseTransitions == first.transitions)
    #expect(zone.transitions != first.transitions)
    #expect(first.firstParse == nil)
  }
}
