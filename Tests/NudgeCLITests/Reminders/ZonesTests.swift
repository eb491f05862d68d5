import Foundation
import NudgeCore
import Testing

@testable import NudgeCLI

/// Zones on this machine: a `TZ` that names no zone means UTC, and doctor and the schedule
/// say so; a zone file, a path or a POSIX TZ string is taken without a word.
@Suite struct ZonesTests {
  @Test(arguments: [
    "Europe/Berlin", "UTC", "EST5EDT", "UTC0", "EST5", "<+03>-3", ":Europe/Berlin",
    ":/usr/share/zoneinfo/America/New_York", "",
  ])
  func aZoneAPathOrAPosixStringIsTakenWithoutAWord(tz: String) throws {
    #expect(ZoneDirectory().problem(tz: tz) == nil)
    #expect(ZoneDirectory().problem(tz: nil) == nil)
    let nudge = InProcess()
    let preview = try nudge.run(["schedule", "preview", "daily"], env: ["TZ": tz])
    #expect(preview.status == 0, "\(preview.stderr)")
    #expect(preview.stderr.isEmpty, "\(tz): \(preview.stderr)")
    let doctor = try doctorZone(nudge, tz: tz)
    #expect(doctor["ok"] as? Bool == true, "\(tz): \(doctor)")
  }

  @Test(arguments: ["Mars/Olympus", "Mars", ":/nowhere/zone", "/dev/null"])
  func aTZThatNamesNoZoneIsSaidToMeanUTC(tz: String) throws {
    let problem = try #require(ZoneDirectory().problem(tz: tz))
    #expect(problem.contains("TZ '\(tz)' names no time zone file"))
    #expect(problem.contains("so times are UTC"))
    #expect(ZoneDirectory().local(tz: tz) == .utc)
    let nudge = InProcess()
    for command in [
      ["schedule"], ["schedule", "list", "--json"], ["schedule", "preview", "7:00"],
    ] {
      let run = try nudge.run(command, env: ["TZ": tz])
      #expect(run.status == 0, "\(command): \(run.stderr)")
      #expect(run.stderr == "nudge: note: \(problem)\n", "\(command)")
    }
    // the next elapse is UTC's, as the note says
    let preview = try nudge.run(["schedule", "preview", "7:00", "--count", "1"], env: ["TZ": tz])
    #expect(preview.stdout == "2026-11-21T07:00:00+00:00\n")
    // --tz decides instead: nothing to say about TZ
    let named = try nudge.run(
      ["schedule", "preview", "7:00", "--tz", "Europe/Berlin"], env: ["TZ": tz])
    #expect(named.stderr.isEmpty)
    let check = try doctorZone(nudge, tz: tz)
    #expect(check["ok"] as? Bool == false)
    #expect((check["detail"] as? String)?.hasSuffix("so times are UTC") == true)
    #expect((check["fix"] as? String)?.hasPrefix("set TZ to a zone such as Europe/Berlin") == true)
  }

  /// doctor's "time zone" check under `TZ=tz`.
  private func doctorZone(_ nudge: InProcess, tz: String) throws -> [String: Any] {
    var doctor = nudge
    doctor.notifier = ScriptedNotifier()
    doctor.platform = TestPlatform(terminals: [["xterm", "-e"]])
    let run = try doctor.run(["doctor", "--json"], env: ["TZ": tz])
    let checks = try #require(
      try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]],
      "\(run.stderr)")
    return try #require(checks.first { $0["name"] as? String == "time zone" })
  }
}
