import Foundation
import NudgeCore
import Testing

@testable import NudgeCLI

/// `nudge review`: the commitment asked until given.
@Suite struct ReviewTests {
  @Test func theCommitmentIsNeverSkippableAndIsAskedAgainUntilGiven() throws {
    let morning = "2026-11-20T07:30:00+01:00"
    let nudge = InProcess()
    // Enter at "Today I will" (no default: no swap) is refused, then the answer is taken
    let typed = "energy\n3\n\n\n\ndrink water\nsoda\n"
    let result = try nudge.typing(typed, "review", now: morning)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("This one is needed"))
    #expect(!result.stdout.contains("Today I will (Enter to skip)"))
    let review = try #require(try history(nudge, morning)[0]["review"] as? [String: Any])
    #expect(review["commit_to"] as? String == "drink water")
    #expect(review["why"] as? String == "energy")
  }
}
