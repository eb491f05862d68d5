import Foundation
import Testing

@testable import NudgeLinux

/// What wakes a `WakeWatch` (the panel's loop sleeps on one): a change in a watched folder, a
/// zone file replaced, a pipe's reader gone; what `forgetChanges` forgets and what it keeps
/// for the next wait; an inotify queue that overflowed taken as a change.
@Suite(.serialized) struct WakeWatchTests {
  let folder = NSTemporaryDirectory() + "nudge-wake-\(UUID().uuidString)"

  func make(_ names: String...) throws -> [String] {
    try names.map { name in
      let path = folder + "/" + name
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
      return path
    }
  }

  @Test func forgetChangesKeepsAZoneChangeAndAKeptFolderForTheNextWait() throws {
    let dirs = try make("db", "sync", "zone")
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let watch = WakeWatch(zonePaths: [dirs[2] + "/localtime"], directories: [dirs[0], dirs[1]])
    // a write in the database's folder (the reader's own) is forgotten
    FileManager.default.createFile(atPath: dirs[0] + "/nudge.sqlite3-wal", contents: Data([1]))
    watch.forgetChanges(keeping: [dirs[1]])
    #expect(watch.wait(seconds: 0.2) == .deadline)
    // a file arriving in the sync folder meanwhile is kept: the next wait returns at once
    FileManager.default.createFile(atPath: dirs[1] + "/laptop.log", contents: Data([1]))
    watch.forgetChanges(keeping: [dirs[1]])
    #expect(watch.wait(seconds: 5) == .changed)
    #expect(watch.wait(seconds: 0.2) == .deadline)
    // a zone replaced meanwhile is kept too, whatever is forgotten
    FileManager.default.createFile(atPath: dirs[2] + "/localtime.new", contents: Data([1]))
    #expect(rename(dirs[2] + "/localtime.new", dirs[2] + "/localtime") == 0)
    watch.forgetChanges()
    #expect(watch.wait(seconds: 5) == .zoneChanged)
  }

  @Test func aPipeWhoseReaderWentEndsTheWaitAndAClosedDescriptorDoesNot() throws {
    let dirs = try make("db")
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let watch = WakeWatch(zonePaths: [], directories: dirs)
    var ends: [Int32] = [-1, -1]
    #expect(pipe(&ends) == 0)
    defer { close(ends[1]) }
    #expect(watch.wait(seconds: 0.2, hangUp: ends[1]) == .deadline)
    close(ends[0])
    #expect(watch.wait(seconds: 5, hangUp: ends[1]) == .hungUp)
    // not a descriptor: heard as nothing (no busy loop: the wait lasts its time)
    let started = ContinuousClock.now
    #expect(watch.wait(seconds: 0.3, hangUp: 987) == .deadline)
    #expect(ContinuousClock.now - started >= .milliseconds(290))
  }

  /// More events than the kernel queues (`max_queued_events`) lose some: the overflow is a
  /// change (and maybe the zone's), never nothing.
  @Test func anOverflowedQueueIsAChange() throws {
    let dirs = try make("db")
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let limit =
      (try? String(contentsOfFile: "/proc/sys/fs/inotify/max_queued_events", encoding: .utf8))
      .flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 16384
    let watch = WakeWatch(zonePaths: [], directories: dirs)
    // each file: a create and a close-write event at least, of files it passes over
    // (SQLite's -shm): only the overflow itself can wake it
    for i in 0..<(limit / 2 + 100) {
      FileManager.default.createFile(atPath: dirs[0] + "/f\(i).sqlite3-shm", contents: nil)
    }
    #expect(watch.wait(seconds: 5) == .changed)
    // (the overflow drained, the queue is empty again)
    #expect(watch.wait(seconds: 0.2) == .deadline)
  }
}
