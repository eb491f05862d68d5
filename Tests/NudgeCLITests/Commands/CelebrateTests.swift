import Foundation
import NudgeCore
import Testing

@testable import NudgeCLI

/// `nudge celebrate`: a replay, and celebrations turned off.
@Suite struct CelebrateTests {
  @Test func aReplayAnnouncesNoAchievementThatUndoTookBack() throws {
    let nudge = InProcess()
    try #require(
      try nudge.run(["need-help", "--category", "stress", "--no-input", "--no-animation"]).status
        == 0)
    #expect(
      try nudge.run(["celebrate", "--no-animation"]).stdout.contains(
        "New achievement: First call for help"))
    try #require(try nudge.run(["undo"]).status == 0)
    let replay = try nudge.run(["celebrate", "--no-animation"])
    #expect(replay.status == 0)
    #expect(!replay.stdout.contains("First call for help"), "\(replay.stdout)")
  }

  @Test func celebrateWithCelebrationsOffSaysHowToTurnThemOn() throws {
    let nudge = InProcess()
    try #require(try nudge.run(["config", "set", "celebrations", "off"]).status == 0)
    let r = try nudge.run(["celebrate"])
    #expect(r.stdout.contains("Celebrations are off"))
    #expect(r.stdout.contains("nudge config set celebrations on"))
  }

  @Test func theFirstOfAFlowNoPlanDefinesIsAUsageErrorAndAPlansFirstIsLockedUntilDone() throws {
    let nudge = InProcess()
    let unknown = try nudge.run(["celebrate", "first-x"])
    #expect(unknown.status == 64 && unknown.stdout.isEmpty)
    #expect(
      unknown.stderr
        == "nudge: 'first-x' is the first of no flow a plan defines; the plans' firsts are first-sleep, first-challenge (see 'nudge achievements').\n"
    )
    let locked = try nudge.run(["celebrate", "first-sleep"])
    #expect(locked.status == 1 && locked.stdout.contains("Do 'nudge sleep' once"))
  }
}
