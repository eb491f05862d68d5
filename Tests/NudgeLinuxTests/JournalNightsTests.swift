import Foundation
import NudgeCore
import Testing

@testable import NudgeLinux

/// The journal read for real: a journal file written by systemd-journal-remote from entries in
/// journald's export format (scripts/install-deps installs it), read through libsystemd.
@Suite struct JournalNightsTests {
  static let remote = "/lib/systemd/systemd-journal-remote"
  static let base = 1_795_651_200  // 2026-11-26T00:00:00Z

  /// A folder holding one journal file with `entries` (epoch seconds, MESSAGE_ID, MESSAGE).
  func journal(_ entries: [(Int, String, String)]) throws -> String {
    let folder = NSTemporaryDirectory() + "nudge-journal-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let export = entries.map { at, id, message in
      "__REALTIME_TIMESTAMP=\(at * 1_000_000)\n__MONOTONIC_TIMESTAMP=\(at * 1_000_000)\n"
        + "_BOOT_ID=0123456789abcdef0123456789abcdef\nMESSAGE_ID=\(id)\nMESSAGE=\(message)\n\n"
    }.joined()
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Self.remote)
    process.arguments = ["--output=\(folder)/remote.journal", "-"]
    let input = Pipe()
    process.standardInput = input
    process.standardError = FileHandle.nullDevice
    try process.run()
    input.fileHandleForWriting.write(Data(export.utf8))
    try input.fileHandleForWriting.close()
    process.waitUntilExit()
    try #require(process.terminationStatus == 0, "systemd-journal-remote failed")
    return folder
  }

  @Test func sleepShutdownAndStartUpAreReadInOrderWithinTheRange() throws {
    let folder = try journal([
      (Self.base - 86400, "6bbd95ee977941e497c48be27c254128", "sleep, a day before the range"),
      (Self.base - 3600, "6bbd95ee977941e497c48be27c254128", "Entering sleep state 'suspend'..."),
      (Self.base - 3000, "00000000000000000000000000000001", "something else"),
      (Self.base + 6 * 3600, "8811e6df2a8e40f58a94cea26f8ebf14", "System returned from sleep"),
      (Self.base + 20 * 3600, "98268866d1d54a499c4e98921d93bc40", "System is powering down"),
      (Self.base + 28 * 3600, "b07a249cd024414a82dd00cd181378ff", "Startup finished"),
    ])
    let events = JournalNights.events(
      since: Self.base - 7200, until: Self.base + 30 * 3600, directory: folder)
    #expect(
      events.map(\.at) == [
        Self.base - 3600, Self.base + 6 * 3600, Self.base + 20 * 3600,
        Self.base + 28 * 3600,
      ])
    #expect(events.map(\.event) == [.asleep, .awake, .asleep, .awake])
    // what the sleep plan offers from them: in bed at 23:00, up at 06:00 (UTC)
    let night = LastNight.times(
      events, morning: Day(year: 2026, month: 11, day: 26), zone: .utc)
    #expect(night.bedtime == "23:00" && night.wake == "06:00")
  }

  @Test func aFolderWithNoJournalTellsNothing() {
    let events = JournalNights.events(
      since: 0, until: Self.base, directory: NSTemporaryDirectory() + "no-journal-here")
    #expect(events.isEmpty)
  }
}
