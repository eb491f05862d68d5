import Foundation
import NudgeCore
import Testing

@testable import NudgeCLI
@testable import NudgeStore

/// Opening the database a command uses: a garbage, newer or unreadable file refused and left as it is, folders created or refused, many processes at once.
@Suite struct OpenDatabaseTests {
  @Test func garbageDatabaseIsRefusedAndLeftByteForByte() throws {
    let nudge = Nudge()
    let path = nudge.home + "/garbage.sqlite3"
    let bytes = Data("definitely not sqlite\n".utf8) + Data((0..<5000).map { UInt8($0 % 251) })
    _ = FileManager.default.createFile(atPath: path, contents: bytes)
    for args in [["history"], ["prep", "--item", "water=yes", "--no-input"], []] {
      let result = try nudge.run(args, env: ["NUDGE_DB": path])
      #expect(result.status == 65)
      #expect(result.stderr.contains("not a SQLite database"))
      #expect(result.stderr.split(separator: "\n").count == 1)
    }
    #expect(FileManager.default.contents(atPath: path) == bytes)
  }

  @Test func newerDatabaseIsRefusedAndLeftUnchanged() throws {
    let nudge = Nudge()
    try nudge("prep", "--item", "water=yes", "--no-input")
    let path = nudge.databasePath
    var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    bytes[63] = 99  // user_version (big-endian at offset 60) = 99
    try bytes.write(to: URL(fileURLWithPath: path))
    let result = try nudge("history")
    #expect(result.status == 65)
    #expect(result.stderr.contains("newer Nudge"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
  }

  @Test func eightProcessesCreatingTheDatabaseAtOnceAllSucceed() throws {
    let nudge = Nudge()
    var processes: [Process] = []
    for i in 0..<8 {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: Nudge.binary)
      process.arguments = ["need-help", "--category", "other", "--note", "n\(i)", "--no-input"]
      process.environment = nudge.environment
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      processes.append(process)
    }
    for p in processes { try p.run() }
    for p in processes { p.waitUntilExit() }
    #expect(processes.map(\.terminationStatus) == Array(repeating: 0, count: 8))
    let history = try nudge.json("history", "--days", "1")
    let notes = ((history as? [[String: Any]])?.first?["help"] as? [Any]) ?? []
    #expect(notes.count == 8)
  }

  @Test func unwritableDataDirectoryIsCannotCreate() throws {
    let nudge = Nudge()
    let blocker = nudge.home + "/file"
    _ = FileManager.default.createFile(atPath: blocker, contents: Data("x".utf8))
    let result = try nudge("history", env: ["NUDGE_DB": blocker + "/nudge/nudge.sqlite3"])
    #expect(result.status == 73)
    #expect(result.stderr.contains("NUDGE_DB"))
  }

  @Test func aValueThisNudgeCannotReadIsBadDataWithOneLine() throws {
    // Given a reminder log line whose outcome a newer Nudge wrote
    let nudge = InProcess()
    try nudge("prep", "--item", "water=yes", "--no-input")
    try SQLiteConnection(path: nudge.databasePath).execute(
      """
      INSERT INTO reminder_log (slot, elapse, outcome, at)
      VALUES ('morning', NULL, 'teleported', '2026-11-20T07:00:00+01:00')
      """)
    // When the log is read
    let result = try nudge("log")
    // Then it is bad data (65, as README says), in one line that says what to do
    #expect(result.status == 65)
    #expect(result.stderr.contains("'teleported' in its outcome column"))
    #expect(result.stderr.contains("Update Nudge"))
    #expect(result.stderr.split(separator: "\n").count == 1)
  }

  @Test func anExplicitDatabasePathInAMissingFolderIsRefused() throws {
    let nudge = InProcess()
    let path = nudge.home + "/no-such-folder/nudge.sqlite3"
    let r = try nudge.run(["streak"], env: ["NUDGE_DB": path])
    #expect(r.status == 73)
    #expect(r.stderr.contains("does not exist"))
    #expect(!FileManager.default.fileExists(atPath: nudge.home + "/no-such-folder"))
  }
}
