import Foundation
import NudgeCore
import Testing

@testable import NudgeCLI

/// The root command's report of a failure.
@Suite struct NudgeTests {
  @Test func onATerminalAFailureIsWrappedToItsWidth() {
    let long = CLIError(
      "Left the flow; your 3 answers are kept as a draft: 'nudge review' picks up where you left off.",
      code: .failure)
    let wrapped = NudgeMain.report(long, arguments: [], width: 40).stderr
    let lines = wrapped.split(separator: "\n")
    #expect(lines.count > 1)
    #expect(lines.allSatisfy { $0.count <= 40 }, "\(wrapped)")
    #expect(NudgeMain.report(long, arguments: []).stderr.split(separator: "\n").count == 1)
  }
}
