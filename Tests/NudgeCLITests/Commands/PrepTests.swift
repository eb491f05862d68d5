import Foundation
import NudgeCore
import Testing

@testable import NudgeCLI

/// `nudge prep`: what it says back.
@Suite struct PrepTests {
  @Test func thePrepSaysBackItsOtherLine() throws {
    let nudge = InProcess()
    let prep = try nudge.run(
      ["prep", "--item", "water=yes", "--other", "oats soaking", "--no-input"],
      now: "2026-11-19T21:00:00+01:00")
    #expect(prep.stdout.contains("Also: oats soaking"), "\(prep.stdout)")
    #expect(try nudge.run([]).stdout.contains("also: oats soaking"))
  }
}
