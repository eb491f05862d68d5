import Foundation
import Glibc
import NudgeCore
import Synchronization
import Testing

@testable import NudgeLinux

/// The sync folder's files, read and written for real in a temporary folder.
@Suite struct SyncFolderTests {
  static let a = "aaaaaaaaaaaaaaaa"
  static let b = "bbbbbbbbbbbbbbbb"

  /// A new folder (mode 0700) that only this user can write.
  func folder() throws -> String {
    let path = NSTemporaryDirectory() + "nudge-sync-folder-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    try #require(chmod(path, 0o700) == 0)
    return path
  }

  func file(_ bytes: [UInt8]) throws -> String {
    let path = try folder() + "/file"
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
  }

  /// The lines `readLines` hands over (as text) with their offsets, and what it says.
  func lines(_ path: String, from offset: Int = 0, stopAfter: Int = .max) -> (
    [(String, Int)], SyncFolder.Reading
  ) {
    var found: [(String, Int)] = []
    let reading = SyncFolder.readLines(path, from: offset) { line, at in
      found.append((String(decoding: line, as: UTF8.self), at))
      return found.count < stopAfter
    }
    return (found, reading)
  }

  // MARK: - readLines

  @Test func completeLinesAreHandedOverWithTheirOffsets() throws {
    let path = try file(Array("one\ntwo two\n\nfour\n".utf8))
    let (found, reading) = lines(path)
    #expect(found.map(\.0) == ["one", "two two", "", "four"])
    #expect(found.map(\.1) == [0, 4, 12, 13])
    #expect(reading.end == 18)
    #expect(!reading.unfinished)
    #expect(reading.failed == nil)
  }

  /// A file that grows while it is read is read no further than its limit (issue 56: a
  /// writer that never stops kept a take-in reading past 64 MiB for a minute and more).
  @Test func nothingPastTheLimitIsReadHoweverTheFileGrows() throws {
    // a writer appending all the while: the limit holds whatever it has written by then
    // (already past the limit when the reading starts, so the test never waits on the writer)
    let path = try file(
      Array("start\n".utf8)
        + Array(repeating: Array((String(repeating: "y", count: 99) + "\n").utf8), count: 1500)
        .flatMap { $0 })
    let stop = Atomic<Bool>(false)
    let writer = Thread {
      let handle = FileHandle(forWritingAtPath: path)!
      handle.seekToEndOfFile()
      let line = Data(String(repeating: "x", count: 99).utf8 + [10])
      while !stop.load(ordering: .relaxed) { handle.write(line) }
      try? handle.close()
    }
    writer.start()
    defer { stop.store(true, ordering: .relaxed) }
    var bytes = 0
    let reading = SyncFolder.readLines(path, from: 0, limit: 100_000) { line, _ in
      bytes += line.count + 1
      return true
    }
    #expect(bytes <= 100_000)
    #expect(reading.end <= 100_000)
    #expect(reading.failed?.contains("grew past") == true, "\(String(describing: reading.failed))")
  }

  /// A file of exactly the limit is read whole, not said to have grown past it.
  @Test func aFileOfExactlyTheLimitIsReadWhole() throws {
    let line = Array((String(repeating: "z", count: 99) + "\n").utf8)
    let path = try file(Array(repeating: line, count: 1000).flatMap { $0 })
    var lines = 0
    let reading = SyncFolder.readLines(path, from: 0, limit: 100_000) { _, _ in
      lines += 1
      return true
    }
    #expect(lines == 1000)
    #expect(reading.failed == nil)
    #expect(reading.end == 100_000)
  }

  @Test func aLastLineWithoutItsNewlineIsLeftForLater() throws {
    let path = try file(Array("one\ntwo\nthree, being writ".utf8))
    let (found, reading) = lines(path)
    #expect(found.map(\.0) == ["one", "two"])
    #expect(reading.end == 8)
    #expect(reading.unfinished)
    // once it is finished, reading on from where it stopped takes it
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    try handle.seekToEnd()
    try handle.write(contentsOf: Data("ten\n".utf8))
    try handle.close()
    let (rest, after) = lines(path, from: reading.end)
    #expect(rest.map(\.0) == ["three, being written"])
    #expect(rest.map(\.1) == [8])
    #expect(after.end == 29)
    #expect(!after.unfinished)
  }

  @Test func readingFromAnOffsetStartsThere() throws {
    let path = try file(Array("one\ntwo\nthree\n".utf8))
    let (found, reading) = lines(path, from: 4)
    #expect(found.map(\.0) == ["two", "three"])
    #expect(found.map(\.1) == [4, 8])
    #expect(reading.end == 14)
    // at the end: nothing, and nothing unfinished
    let (none, atEnd) = lines(path, from: 14)
    #expect(none.isEmpty)
    #expect(atEnd.end == 14 && !atEnd.unfinished && atEnd.failed == nil)
  }

  @Test func readingStopsAfterTheLineThatSaysSo() throws {
    let path = try file(Array("header\none\ntwo\n".utf8))
    let (found, reading) = lines(path, stopAfter: 1)
    #expect(found.map(\.0) == ["header"])
    #expect(reading.end == 7)
    #expect(!reading.unfinished)
  }

  @Test func linesAcrossTheReadsPiecesArriveWhole() throws {
    // lines of 70 000 and 100 000 bytes cross the 64 KiB pieces
    let long = String(repeating: "x", count: 70_000)
    let longer = String(repeating: "y", count: 100_000)
    let path = try file(Array("a\n\(long)\n\(longer)\nb\n".utf8))
    let (found, reading) = lines(path)
    #expect(found.map(\.0) == ["a", long, longer, "b"])
    #expect(found.map(\.1) == [0, 2, 70_003, 170_004])
    #expect(reading.end == 170_006)
  }

  @Test func aLineLongerThanTheMostTakenIsHandedOverEmpty() throws {
    let longest = String(repeating: "k", count: SyncLine.maxBytes)
    let tooLong = String(repeating: "z", count: SyncLine.maxBytes + 1)
    let huge = String(repeating: "h", count: 3 * SyncLine.maxBytes + 12_345)
    let text = "first\n\(tooLong)\n\(longest)\n\(huge)\nlast\n"
    let path = try file(Array(text.utf8))
    var sizes: [Int] = []
    var offsets: [Int] = []
    let reading = SyncFolder.readLines(path, from: 0) { line, at in
      sizes.append(line.count)
      offsets.append(at)
      return true
    }
    #expect(sizes == [5, 0, SyncLine.maxBytes, 0, 4])
    let second = 6
    let third = second + tooLong.utf8.count + 1
    let fourth = third + longest.utf8.count + 1
    let fifth = fourth + huge.utf8.count + 1
    #expect(offsets == [0, second, third, fourth, fifth])
    #expect(reading.end == text.utf8.count)
    #expect(!reading.unfinished)
  }

  @Test func anUnfinishedLineTooLongIsLeftForLaterToo() throws {
    let text = "one\n" + String(repeating: "u", count: SyncLine.maxBytes + 10)
    let path = try file(Array(text.utf8))
    let (found, reading) = lines(path)
    #expect(found.map(\.0) == ["one"])
    #expect(reading.end == 4)
    #expect(reading.unfinished)
  }

  @Test func aFileThatIsNotThereFails() throws {
    let (found, reading) = lines(try folder() + "/nudge-\(Self.a).log", from: 12)
    #expect(found.isEmpty)
    #expect(reading.failed == "no such file or directory")
    #expect(reading.end == 12)
  }

  @Test func aLinkIsNotFollowed() throws {
    let dir = try folder()
    try Data("secret\n".utf8).write(to: URL(fileURLWithPath: dir + "/target"))
    try #require(symlink(dir + "/target", dir + "/link") == 0)
    let (found, reading) = lines(dir + "/link")
    #expect(found.isEmpty)
    #expect(reading.failed != nil)
  }

  @Test func aFileShorterThanWhatWasReadSaysSo() throws {
    // a log replaced by a shorter one of the same generation (restored from a backup)
    let path = try file(Array("one\n".utf8))
    let (found, reading) = lines(path, from: 100)
    #expect(found.isEmpty)
    #expect(reading.failed == "it is shorter than was read before")
  }

  // MARK: - The folder

  @Test func aFolderOthersCanWriteIsRefused() throws {
    let path = try folder()
    #expect(SyncFolder(path: path).problem() == nil)
    try #require(chmod(path, 0o755) == 0)
    #expect(SyncFolder(path: path).problem() == nil)
    for mode: mode_t in [0o777, 0o770, 0o702] {
      try #require(chmod(path, mode) == 0)
      let problem = try #require(SyncFolder(path: path).problem())
      #expect(problem.hasPrefix("other users can write to the folder \(path)"), "\(problem)")
      #expect(problem.contains("mode \(String(mode, radix: 8))"), "\(problem)")
    }
    try #require(chmod(path, 0o700) == 0)
    #expect(SyncFolder(path: path).problem() == nil)
  }

  @Test func aMissingFolderOrAFileIsRefused() throws {
    let dir = try folder()
    let missing = try #require(SyncFolder(path: dir + "/gone").problem())
    #expect(missing.hasPrefix("the folder \(dir)/gone is not there"), "\(missing)")
    try Data().write(to: URL(fileURLWithPath: dir + "/plain"))
    #expect(SyncFolder(path: dir + "/plain").problem() == "\(dir)/plain is not a folder")
  }

  @Test func onlyDeviceFilesAreListed() throws {
    let dir = try folder()
    let sync = SyncFolder(path: dir)
    func put(_ name: String, _ text: String = "x\n") throws {
      try Data(text.utf8).write(to: URL(fileURLWithPath: dir + "/" + name))
    }
    try put("nudge-\(Self.b).log", "header\nline\n")
    try put("nudge-\(Self.a).snapshot")
    try put("nudge-\(Self.a).log")
    try put("nudge-XYZ.log")
    try put("notes.txt")
    try put("nudge-\(Self.a).sync-conflict-20261126-101010-ABCDEFG.log")
    try put("nudge-\(Self.a.uppercased()).log")
    try put(".syncthing.nudge-\(Self.a).log.tmp")
    try put("nudge-\(Self.a).log~")
    try put("nudge-\(Self.a).snapshot.tmp")
    try #require(symlink(dir + "/nudge-\(Self.a).log", dir + "/nudge-cccccccccccccccc.log") == 0)
    try #require(mkdir(dir + "/nudge-dddddddddddddddd.log", 0o700) == 0)
    let files = sync.deviceFiles()
    #expect(files.map(\.device) == [Self.a, Self.a, Self.b])
    #expect(files.map(\.isSnapshot) == [false, true, false])
    #expect(
      files.map(\.path) == [sync.logPath(Self.a), sync.snapshotPath(Self.a), sync.logPath(Self.b)])
    #expect(files.map(\.size) == [2, 2, 12])
    #expect(files.allSatisfy { $0.modified > 0 && $0.stamp.hasPrefix("\($0.size):") })
  }

  @Test func aFileChangedHasANewStamp() throws {
    let dir = try folder()
    let sync = SyncFolder(path: dir)
    let header = SyncLine.line(SyncHeader(device: Self.a, name: "laptop", generation: 0))
    try sync.append("", device: Self.a, header: header)
    let before = try #require(sync.deviceFiles().first)
    try sync.append("more\n", device: Self.a, header: header)
    let after = try #require(sync.deviceFiles().first)
    #expect(before.stamp != after.stamp)
    #expect(after.size == before.size + 5)
  }

  @Test func anEmptyFolderOrNoFolderListsNothing() throws {
    #expect(SyncFolder(path: try folder()).deviceFiles().isEmpty)
    #expect(SyncFolder(path: "/nonexistent-nudge-\(UUID().uuidString)").deviceFiles().isEmpty)
  }

  // MARK: - Writing

  @Test func appendingWritesTheHeaderOnceThenTheLines() throws {
    let sync = SyncFolder(path: try folder())
    let header = SyncLine.line(SyncHeader(device: Self.a, name: "laptop", generation: 2))
    let change = SyncLine.line(
      SyncChange(
        clock: SyncClock(wall: 1_795_651_200_000, counter: 0, device: Self.a), key: .celebrations,
        value: SyncValue(value: "off")))
    try sync.append(change, device: Self.a, header: header)
    try sync.append(change, device: Self.a, header: header)
    let (found, reading) = lines(sync.logPath(Self.a))
    #expect(found.map { $0.0 + "\n" } == [header, change, change])
    #expect(!reading.unfinished)
    var first: SyncHeader?
    _ = SyncFolder.readLines(sync.logPath(Self.a), from: 0) { line, _ in
      first = try? SyncLine.header(line).get()
      return false
    }
    #expect(first == SyncHeader(device: Self.a, name: "laptop", generation: 2))
  }

  @Test func appendingRefusesALinkInPlaceOfTheLog() throws {
    let dir = try folder()
    let sync = SyncFolder(path: dir)
    try Data("theirs\n".utf8).write(to: URL(fileURLWithPath: dir + "/elsewhere"))
    try #require(symlink(dir + "/elsewhere", sync.logPath(Self.a)) == 0)
    #expect(throws: SyncFolder.WriteFailure.self) {
      try sync.append("line\n", device: Self.a, header: "header\n")
    }
    #expect(try String(contentsOfFile: dir + "/elsewhere", encoding: .utf8) == "theirs\n")
  }

  @Test func replacingWritesTheWholeFile() throws {
    let sync = SyncFolder(path: try folder())
    let path = sync.snapshotPath(Self.a)
    try sync.replace(path, with: ["old\n", "older\n"])
    try sync.replace(path, with: ["new\n"])
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "new\n")
    var info = stat()
    try #require(stat(path, &info) == 0)
    #expect(info.st_mode & 0o777 == 0o600)
  }
}
