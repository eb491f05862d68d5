import Foundation
import NudgeCore
import Testing

@testable import NudgeCLI

/// `nudge status`: the line for each way a day stands (a flow due, overdue once its reminder
/// came, habits left, all done, paused), each bar's format, the click, and `--follow` printing
/// a new line when another process writes, through the real binary.
@Suite struct StatusTests {
  static let morning = "2026-11-20T09:00:00+01:00"
  static let evening = "2026-11-20T21:40:00+01:00"

  @Test func theLineFollowsTheDay() throws {
    let nudge = InProcess()
    #expect(try nudge("status", now: Self.morning).stdout == "🔥 0 · Morning Focus\n")
    try #require(try nudge("habit", "add", "Stretch", now: Self.morning).status == 0)
    #expect(
      try nudge("status", now: Self.morning).stdout == "🔥 0 · Morning Focus · 1 habit left\n")
    try #require(
      try nudge("review", "--commit-to", "walk", "--no-input", "--no-animation", now: Self.morning)
        .status
        == 0)
    #expect(try nudge("status", now: Self.morning).stdout == "🔥 1 · 1 habit left\n")
    try #require(try nudge("habit", "done", "stretch", now: Self.morning).status == 0)
    let done = try #require(
      try nudge.json("status", now: Self.morning) as? [String: Any])
    #expect(done["class"] as? String == "done" && done["text"] as? String == "🔥 1 · all done")
    #expect(done["next"] as? String == "nudge://today")
    // the evening: the check-in first (there is a swap to check), then tonight's prep
    let evening = try nudge("status", "--format", "waybar", now: Self.evening).stdout
    let waybar = try #require(
      try JSONSerialization.jsonObject(with: Data(evening.utf8)) as? [String: String])
    #expect(waybar["text"] == "🔥 1 · End-of-day check-in", "\(evening)")
    #expect(waybar["class"] == "due")
    #expect(
      waybar["tooltip"]?.contains("○ End-of-day check-in\n○ Prep Tonight\n✓ Stretch") == true,
      "\(evening)")
    // a pause holds today
    try #require(
      try nudge("pause", "--until", "2026-11-22", "--yes", now: Self.evening).status == 0)
    let i3 = try #require(
      try JSONSerialization.jsonObject(
        with: Data(try nudge("status", "--format", "i3blocks", now: Self.evening).stdout.utf8))
        as? [String: String])
    #expect(i3["full_text"] == "⏸ paused until Sun 22 Nov" && i3["color"] == "#61AFEF", "\(i3)")
    // a narrow bar's short text says the pause too
    #expect(i3["short_text"] == "⏸", "\(i3)")
  }

  @Test func aFlowItsReminderAskedForIsOverdueAndAClickOpensIt() throws {
    let notifier = ScriptedNotifier(.left)
    let launcher = RecordingLauncher()
    var nudge = InProcess()
    nudge.notifier = notifier
    nudge.launcher = launcher
    #expect(
      try nudge("status", "--format", "polybar", now: Self.evening).stdout.hasPrefix(
        "%{F#E5C07B}🔥 0 · Prep"))
    // the evening reminder came and went: prep is overdue
    try #require(
      try nudge("notify", "evening", "--scheduled", now: "2026-11-20T21:30:02+01:00").status == 0)
    let overdue = try #require(
      try nudge.json("status", now: Self.evening) as? [String: Any])
    #expect(overdue["class"] as? String == "overdue", "\(overdue)")
    #expect((overdue["tooltip"] as? [String])?.contains("! Prep Tonight") == true, "\(overdue)")
    let click = try nudge("status", "--open", now: Self.evening)
    #expect(click.status == 0, "\(click.stderr)")
    #expect(launcher.links == ["nudge://prep"])
    let both = try nudge("status", "--open", "--follow", now: Self.evening)
    #expect(both.status == 64 && both.stderr.contains("--follow or --open"), "\(both.stderr)")
    for format in ["text", "waybar"] {
      let twice = try nudge("status", "--json", "--format", format, now: Self.evening)
      #expect(twice.status == 64 && twice.stderr.contains("not both"), "\(format): \(twice.stderr)")
    }
    let bad = try nudge("status", "--format", "xml", now: Self.evening)
    #expect(bad.status == 64 && bad.stderr.split(separator: "\n").count == 1, "\(bad.stderr)")
  }

  @Test func followPrintsANewLineWhenAnotherProcessWrites() throws {
    let nudge = Nudge()
    try #require(try nudge("habit", "add", "Stretch", now: Self.morning).status == 0)
    let out = nudge.home + "/status.out"
    FileManager.default.createFile(atPath: out, contents: nil)
    let follow = Process()
    follow.executableURL = URL(fileURLWithPath: Nudge.binary)
    follow.arguments = ["status", "--follow", "--format", "json"]
    var environment = nudge.environment
    environment["NUDGE_NOW"] = Self.morning
    follow.environment = environment
    follow.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
    try follow.run()
    defer { if follow.isRunning { follow.terminate() } }
    func lines() -> [[String: Any]] {
      ((try? String(contentsOfFile: out, encoding: .utf8)) ?? "").split(separator: "\n").compactMap
      {
        try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
      }
    }
    func waitFor(_ count: Int) -> Bool {
      // (the test waits for the file; the command itself sleeps until a change)
      for _ in 0..<100 where lines().count < count { usleep(50_000) }
      return lines().count >= count
    }
    #expect(waitFor(1), "no first line")
    #expect(lines().first?["habits_left"] as? Int == 1)
    // a habit ticked in another process: a new line
    try #require(try nudge("habit", "done", "stretch", now: Self.morning).status == 0)
    #expect(waitFor(2), "no line after the habit was done: \(lines())")
    #expect(lines().last?["habits_left"] as? Int == 0)
    // a write that changes nothing shown prints nothing new
    try #require(try nudge("config", "set", "snooze", "20m", now: Self.morning).status == 0)
    usleep(500_000)
    #expect(lines().count == 2, "\(lines())")
    // a flow saved: a new line
    try #require(
      try nudge("review", "--commit-to", "walk", "--no-input", "--no-animation", now: Self.morning)
        .status == 0)
    #expect(waitFor(3), "no line after the review: \(lines())")
    #expect(lines().last?["class"] as? String == "done")
    follow.terminate()
    follow.waitUntilExit()
    #expect(follow.terminationStatus == 0)
  }

  /// A bar that closes its end of the pipe (it ended, or reloaded) ends the follower at once,
  /// not at its next line, which may be hours away.
  @Test func followEndsWhenItsReaderCloses() throws {
    let nudge = Nudge()
    try #require(try nudge("habit", "add", "Stretch", now: Self.morning).status == 0)
    let follow = Process()
    follow.executableURL = URL(fileURLWithPath: Nudge.binary)
    follow.arguments = ["status", "--follow"]
    var environment = nudge.environment
    environment["NUDGE_NOW"] = Self.morning
    follow.environment = environment
    let pipe = Pipe()
    follow.standardOutput = pipe
    try follow.run()
    defer { if follow.isRunning { follow.terminate() } }
    // the first line, then the reader goes; nothing is written after it
    let first = pipe.fileHandleForReading.availableData
    #expect(String(decoding: first, as: UTF8.self) == "🔥 0 · Morning Focus · 1 habit left\n")
    try pipe.fileHandleForReading.close()
    // (a bound only: without the hang-up heard, it would wait for the evening)
    for _ in 0..<200 where follow.isRunning { usleep(50_000) }
    #expect(!follow.isRunning, "still following after its reader closed the pipe")
    if !follow.isRunning { #expect(follow.terminationStatus == 0) }
  }

  /// The system's zone replaced while it follows (`TZ=:/path`, as /etc/localtime is): the day
  /// is read again in the new zone.
  @Test func followReadsTheDayAgainInANewZone() throws {
    let nudge = Nudge()
    let zoneFile = nudge.home + "/localtime"
    try FileManager.default.copyItem(
      atPath: "/usr/share/zoneinfo/Europe/Berlin", toPath: zoneFile)
    let out = nudge.home + "/status.out"
    FileManager.default.createFile(atPath: out, contents: nil)
    let follow = Process()
    follow.executableURL = URL(fileURLWithPath: Nudge.binary)
    follow.arguments = ["status", "--follow"]
    var environment = nudge.environment
    environment["TZ"] = ":" + zoneFile
    // 17:30 in Berlin (the morning's review), 01:30 the next night in Tokyo (tonight's prep)
    environment["NUDGE_NOW"] = "2026-11-20T16:30:00Z"
    follow.environment = environment
    follow.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
    try follow.run()
    defer { if follow.isRunning { follow.terminate() } }
    func lines() -> [String] {
      ((try? String(contentsOfFile: out, encoding: .utf8)) ?? "").split(separator: "\n").map(
        String.init)
    }
    for _ in 0..<100 where lines().isEmpty { usleep(50_000) }
    #expect(lines() == ["🔥 0 · Morning Focus"])
    // replaced as timedatectl does: a new file moved over the old
    try FileManager.default.copyItem(
      atPath: "/usr/share/zoneinfo/Asia/Tokyo", toPath: zoneFile + ".new")
    #expect(rename(zoneFile + ".new", zoneFile) == 0)
    for _ in 0..<100 where lines().count < 2 { usleep(50_000) }
    #expect(lines().last == "🔥 0 · Prep Tonight", "\(lines())")
    follow.terminate()
    follow.waitUntilExit()
  }
}
