import Foundation
import NudgeCore
import Testing

@testable import NudgeCLI

/// `nudge need-help`: the breathing timer, the coach, later captures of a day.
@Suite struct NeedHelpTests {
  @Test func ctrlCDuringTheBreathingTimerKeepsTheCategoryAndTheBreathing() throws {
    let morning = "2026-11-20T07:30:00+01:00"
    let nudge = InProcess()
    let stopped = try nudge.typing("1\n1\n^C\n", "need-help", now: morning)
    #expect(stopped.status == 130)
    #expect(stopped.stderr.contains("kept as a draft: 'nudge need-help'"))
    let resumed = try nudge.typing("y\nlong meeting\n", "need-help", now: morning)
    #expect(resumed.status == 0, "\(resumed.stderr)")
    let help = try #require(try history(nudge, morning)[0]["help"] as? [[String: Any]])
    #expect(help.count == 1)
    #expect(help[0]["category"] as? String == "stress")
    #expect((help[0]["coach"] as? String)?.contains("stopped early") == true)
    #expect(help[0]["note"] as? String == "long meeting")
  }

  @Test func theCoachKeepsEachStepAndAFirstDayExplainsItself() throws {
    let morning = "2026-11-20T07:30:00+01:00"
    let nudge = InProcess()
    let welcome = try nudge.run([], now: "2026-11-20T21:00:00+01:00", env: ["COLUMNS": "60"])
    #expect(welcome.stdout.contains("Welcome to Nudge"))
    #expect(welcome.stdout.contains("(07:00, 21:30)"))
    #expect(welcome.stdout.split(separator: "\n").allSatisfy { TerminalText.columns($0) <= 60 })
    // evening of a first day: tonight's prep leads, the check-in asks how the day went
    let prep = try #require(welcome.stdout.range(of: "Prep tonight"))
    let checkin = try #require(welcome.stdout.range(of: "How did today go?"))
    #expect(prep.lowerBound < checkin.lowerBound)
    // Ctrl-C after the habit swap: the swap is kept, the resumed run asks only the trigger on
    let stopped = try nudge.typing("2\n2\n^C\n", "need-help", now: morning)
    #expect(stopped.status == 130)
    let resumed = try nudge.typing("y\n2\n\n", "need-help", now: morning)
    #expect(resumed.status == 0, "\(resumed.stderr)")
    #expect(!resumed.stdout.contains("Try a swap for the next few minutes:\n"))
    let help = try #require(try history(nudge, morning)[0]["help"] as? [[String: Any]])
    #expect(help.first?["coach"] as? String == "swap: water · trigger: place")
    #expect(try nudge.json("streak", now: morning) is [String: Any])
    #expect(welcome.stdout.split(separator: "\n").count > 5)
  }

  @Test func laterCapturesOfADayGetAQuietAcknowledgement() throws {
    let nudge = InProcess()
    var celebrated = 0
    for minute in 10..<22 {
      let r = try nudge.run(
        ["need-help", "--category", "habit", "--no-input"], now: "2026-11-20T15:\(minute):00+01:00")
      #expect(r.status == 0)
      if r.stdout.contains("New achievement") || r.stdout.split(separator: "\n").count > 2 {
        celebrated += 1
      }
    }
    #expect(celebrated == 1)
  }
}
