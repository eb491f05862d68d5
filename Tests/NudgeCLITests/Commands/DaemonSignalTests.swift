import Foundation
import Glibc
import Testing

@testable import NudgeStore

/// Issue 56, item 2: a time that fires more often than once a minute, stored by an older Nudge
/// (or forged into the file), spun `notify --scheduled` and the daemon at 100% CPU, deaf to
/// SIGTERM and SIGINT. The real binary now refuses it at once, and the daemon still answers
/// both signals.
@Suite struct DaemonSignalTests {
  /// A database whose morning reminder is `expression`, written past every door.
  func forged(_ expression: String) throws -> Nudge {
    let nudge = Nudge()
    try #require(try nudge("schedule").status == 0)
    let db = try AppDatabase.open(path: nudge.databasePath)
    try db.write { connection in
      try connection.execute(
        "INSERT OR REPLACE INTO slot_schedule (slot, expression, enabled) VALUES ('morning', ?, 1)",
        [SQLValue.text(expression)])
    }
    return nudge
  }

  /// Runs the binary, killing it after `limit` seconds (a spin would otherwise hang the suite).
  func runBounded(_ nudge: Nudge, _ arguments: [String], limit: Double) throws -> (
    status: Int32, stderr: String, killed: Bool
  ) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Nudge.binary)
    process.arguments = arguments
    process.environment = nudge.environment
    let error = Pipe()
    process.standardError = error
    process.standardOutput = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let deadline = Date().addingTimeInterval(limit)
    while process.isRunning && Date() < deadline { usleep(20_000) }
    let killed = process.isRunning
    if killed { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
    let text = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    return (process.terminationStatus, text, killed)
  }

  @Test(arguments: ["*-*-* 00:00:00/0.000001", "*:*:*"])
  func aStoredSubMinuteTimeIsRefusedAtOnceNotSpun(expression: String) throws {
    let nudge = try forged(expression)
    let fired = try runBounded(nudge, ["notify", "morning", "--scheduled"], limit: 30)
    #expect(!fired.killed, "notify --scheduled still running after 30 s")
    #expect(fired.status == 65, "\(fired.stderr)")
    #expect(fired.stderr.contains("is no reminder time"), "\(fired.stderr)")
    #expect(fired.stderr.split(separator: "\n").count == 1, "\(fired.stderr)")
    // the schedule lists it, and says how to mend it
    let listed = try nudge("schedule")
    #expect(listed.status == 0)
    #expect(listed.stdout.contains("fires too often to remind: nudge schedule set morning TIME"))
    // install writes no timer for it
    let installed = try nudge("install", "--dry-run")
    #expect(installed.status == 65 && installed.stderr.contains("Nothing was installed"))
  }

  @Test(arguments: [SIGTERM, SIGINT])
  func theDaemonOverASubMinuteTimeEndsOnAStopSignal(signal: Int32) throws {
    let nudge = try forged("*-*-* 00:00:00/0.000001")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Nudge.binary)
    process.arguments = ["daemon", "--exit-after", "600"]
    var environment = nudge.environment
    environment["NUDGE_NOW"] = ""
    process.environment = environment
    // stderr to a file, polled: a quiet daemon fails the wait instead of blocking a read
    let log = nudge.home + "/daemon.err"
    FileManager.default.createFile(atPath: log, contents: nil)
    process.standardError = FileHandle(forWritingAtPath: log)
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    // its first pass is over once it said what it refused
    var said = ""
    let reading = Date().addingTimeInterval(30)
    while !said.contains("is no reminder time") && Date() < reading {
      usleep(20_000)
      said = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
    }
    #expect(said.contains("is no reminder time"), "\(said)")
    kill(process.processIdentifier, signal)
    let deadline = Date().addingTimeInterval(10)
    while process.isRunning && Date() < deadline { usleep(20_000) }
    let stillRunning = process.isRunning
    if stillRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
    #expect(!stillRunning, "the daemon ignored signal \(signal)")
    #expect(process.terminationStatus == 0)
  }
}
