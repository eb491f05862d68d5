import Foundation
import Testing

@testable import NudgeCLI

/// What a reminder does around its post: skipped when off, snoozes taken once, replays of the
/// announced celebration, children started with clean signals.
@Suite struct ReminderLifecycleTests {
  func lastOutcome(_ nudge: Nudge) throws -> String? {
    let log = try #require(try nudge.json("log") as? [[String: Any]])
    return log.last?["outcome"] as? String
  }

  @Test func aTimerFiringForASlotThatIsOffIsSkippedAndLogged() throws {
    let nudge = Nudge()
    let fired = try nudge(
      "notify", "midday", "--scheduled", "--json", now: "2026-11-24T12:30:05+01:00")
    #expect(fired.status == 0)
    #expect(fired.stdout.contains("\"outcome\" : \"skipped-off\""))
    #expect(try lastOutcome(nudge) == "skipped-off")
    try nudge("schedule", "on", "midday")
    let on = try nudge(
      "notify", "midday", "--scheduled", "--json", now: "2026-11-25T12:30:05+01:00")
    #expect(on.stdout.contains("\"outcome\" : \"undelivered\""))  // no server in unit tests
  }

  @Test func aSnoozedRunWithNothingStoredDoesNothing() throws {
    let nudge = Nudge()
    let run = try nudge("notify", "morning", "--snoozed", "--json")
    #expect(run.status == 0)
    #expect(run.stdout.contains("\"outcome\" : \"nothing-due\""))
    #expect(try nudge("notify", "demo", "--snoozed").status == 64)
  }

  @Test func replayPlaysTheStoredCelebrationNotANewDraw() throws {
    let nudge = Nudge()
    let saved = try nudge("need-help", "--category", "stress", "--no-input")
    let announced = try #require(saved.stdout.split(separator: "\n").last.map(String.init))
    for seed in ["1", "2", "3"] {
      let replay = try nudge("celebrate", "--replay", "0", env: ["NUDGE_SEED": seed])
      #expect(replay.status == 0)
      #expect(replay.stdout.trimmingCharacters(in: .newlines) == announced)
    }
    let gone = try nudge("celebrate", "--replay", "7")
    #expect(gone.status == 1)
    #expect(gone.stderr.contains("only the latest is kept"))
  }

  @Test func withoutABusOrAManagerEachFailureHasItsOneFix() throws {
    var nudge = Nudge()
    nudge.environment["XDG_RUNTIME_DIR"] = nudge.home + "/no-runtime"
    let result = try nudge("doctor", "--json")
    #expect(result.status == 1)
    let checks = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
    let byName = Dictionary(
      uniqueKeysWithValues: checks.map { ($0["name"] as? String ?? "", $0) })
    let server = try #require(byName["notification server"])
    #expect(server["ok"] as? Bool == false)
    #expect((server["fix"] as? String)?.contains("dunst") == false)
    #expect((server["fix"] as? String) == (byName["session bus"]?["fix"] as? String))
    let timers = try #require(byName["timers"])
    #expect(timers["ok"] as? Bool == false)
    #expect((timers["fix"] as? String)?.contains("nudge daemon") == true)
    #expect((timers["fix"] as? String)?.contains("nudge install") == false)
    #expect(byName["user manager's display"] == nil)
  }
}
