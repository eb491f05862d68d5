import Glibc
import NudgeCore

/// The folder devices share for sync (`nudge sync init DIR`), as files: each device's log
/// (`nudge-ID.log`, appended to) and snapshot (`nudge-ID.snapshot`, replaced whole). A device
/// writes only its own two files and never deletes one; what another device's files hold is
/// read in bounded pieces, a line at a time, and trusted in nothing (`SyncLine` checks it).
public struct SyncFolder: Sendable {
  public let path: String

  public init(path: String) { self.path = path }

  /// The largest device file read: a bigger one is skipped, said once (ten years of a
  /// person's entries are a few megabytes).
  public static let maxFileBytes = 64 * 1024 * 1024
  /// At most this many other devices' files are read.
  public static let maxDevices = 64

  /// Why the folder can't be used, in words; nil when it can: it must be a directory this user
  /// owns and can write, that no other user can write.
  public func problem() -> String? {
    var info = stat()
    guard stat(path, &info) == 0 else {
      return
        "the folder \(path) is not there (\(String(cString: strerror(errno)).lowercased())); mount it, or 'nudge sync leave'"
    }
    guard info.st_mode & S_IFMT == S_IFDIR else { return "\(path) is not a folder" }
    guard info.st_uid == geteuid() else {
      return "the folder \(path) belongs to another user (uid \(info.st_uid))"
    }
    guard info.st_mode & (S_IWGRP | S_IWOTH) == 0 else {
      return
        "other users can write to the folder \(path) (mode \(String(info.st_mode & 0o7777, radix: 8))); run chmod go-w \(ShellWord.quoted(path))"
    }
    guard access(path, W_OK | X_OK) == 0 else { return "the folder \(path) can't be written" }
    return nil
  }

  /// One device's file in the folder.
  public struct DeviceFile: Equatable, Sendable {
    public var device: String
    public var isSnapshot: Bool
    public var path: String
    public var size: Int
    /// Size, modification time and inode: the file is unchanged while this is.
    public var stamp: String
    /// When it was last changed, seconds since 1970.
    public var modified: Int
    /// Owned by this user and readable or writable by nobody else (mode 0600, as Nudge writes
    /// its own files and a file sync keeps): what a device's own file must be to be taken back
    /// when it joins again.
    public var isPrivate = true
  }

  public func logPath(_ device: String) -> String { path + "/nudge-\(device).log" }
  public func snapshotPath(_ device: String) -> String { path + "/nudge-\(device).snapshot" }

  /// The device files in the folder (regular files named `nudge-ID.log` or `.snapshot`, links
  /// not followed); anything else there is not looked at.
  public func deviceFiles() -> [DeviceFile] { entries().files }

  /// What is named as a device file but is none (a link, a directory, a FIFO…): each with
  /// what it is, in words, and a stamp that changes when it is replaced. Never opened.
  public func strangeEntries() -> [(file: DeviceFile, kind: String)] { entries().strange }

  private func entries() -> (files: [DeviceFile], strange: [(file: DeviceFile, kind: String)]) {
    guard let dir = opendir(path) else { return ([], []) }
    defer { closedir(dir) }
    var files: [DeviceFile] = []
    var strange: [(file: DeviceFile, kind: String)] = []
    while let entry = readdir(dir) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
      }
      guard name.hasPrefix("nudge-") else { continue }
      let isSnapshot = name.hasSuffix(".snapshot")
      guard isSnapshot || name.hasSuffix(".log") else { continue }
      let device = String(name.dropFirst(6).dropLast(isSnapshot ? 9 : 4))
      guard SyncDevice.isID(device) else { continue }
      let full = path + "/" + name
      var info = stat()
      guard lstat(full, &info) == 0 else { continue }
      guard info.st_mode & S_IFMT == S_IFREG else {
        let kind =
          info.st_mode & S_IFMT == S_IFLNK ? "a symbolic link" : AtomicFile.kind(info.st_mode)
        strange.append(
          (
            DeviceFile(
              device: device, isSnapshot: isSnapshot, path: full, size: 0,
              stamp: "\(kind):\(info.st_ino):\(info.st_mtim.tv_sec)",
              modified: Int(info.st_mtim.tv_sec), isPrivate: false),
            kind
          ))
        continue
      }
      files.append(
        DeviceFile(
          device: device, isSnapshot: isSnapshot, path: full, size: Int(info.st_size),
          stamp: "\(info.st_size):\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec):\(info.st_ino)",
          modified: Int(info.st_mtim.tv_sec),
          isPrivate: info.st_uid == geteuid() && info.st_mode & 0o077 == 0))
    }
    let order = { (a: DeviceFile, b: DeviceFile) in
      (a.device, a.isSnapshot ? 1 : 0) < (b.device, b.isSnapshot ? 1 : 0)
    }
    return (files.sorted(by: order), strange.sorted { order($0.file, $1.file) })
  }

  /// Why a write to the folder failed; nothing of it was kept as written.
  public struct WriteFailure: Error, Sendable {
    public let reason: String
  }

  /// Appends `text` to this device's log (created with `header` first when it is not there),
  /// synced to disk before returning; returns the log's length after it.
  @discardableResult
  public func append(_ text: String, device: String, header: String) throws(WriteFailure) -> Int {
    let file = logPath(device)
    var info = stat()
    let exists = lstat(file, &info) == 0
    if exists && info.st_mode & S_IFMT != S_IFREG {
      throw WriteFailure(reason: "\(file) is not a regular file")
    }
    // the person's answers: readable by them alone (a file sync keeps the mode)
    let fd = open(file, O_RDWR | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard fd >= 0 else {
      throw WriteFailure(reason: "\(file): \(String(cString: strerror(errno)).lowercased())")
    }
    defer { close(fd) }
    var end = stat()
    guard fstat(fd, &end) == 0 else {
      throw WriteFailure(reason: "\(file): \(String(cString: strerror(errno)).lowercased())")
    }
    let size = Int(end.st_size)
    var bytes = Array((size == 0 ? header : "").utf8)
    // a line an earlier write left cut off (a full disk, a crash) is ended first: the lines
    // written now start on a line of their own (the cut one fails its checksum, alone)
    if size > 0 && !Self.endsInNewline(fd, size: size) { bytes.append(UInt8(ascii: "\n")) }
    bytes += Array(text.utf8)
    guard StandardStreams.write(bytes, to: fd), fsync(fd) == 0 else {
      let reason = String(cString: strerror(errno)).lowercased()
      // nothing of this write stays: the file is as it was
      _ = ftruncate(fd, off_t(size))
      throw WriteFailure(reason: "\(file): \(reason)")
    }
    return size + bytes.count
  }

  /// The length of this device's log now; nil when it is not a regular file there.
  public func logLength(_ device: String) -> Int? {
    var info = stat()
    guard lstat(logPath(device), &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
    return Int(info.st_size)
  }

  private static func endsInNewline(_ fd: Int32, size: Int) -> Bool {
    var last: UInt8 = 0
    return pread(fd, &last, 1, off_t(size - 1)) == 1 && last == UInt8(ascii: "\n")
  }

  /// Replaces this device's snapshot (or log) with `lines` at once (mode 0600): a reader sees
  /// the old file or the new one, never part of one.
  public func replace(_ file: String, with lines: [String]) throws(WriteFailure) {
    var bytes: [UInt8] = []
    for line in lines { bytes.append(contentsOf: line.utf8) }
    // this device's own name: a link or anything but a file there is taken away, never
    // followed (it could point at another device's file)
    var info = stat()
    if lstat(file, &info) == 0 && info.st_mode & S_IFMT != S_IFREG {
      guard unlink(file) == 0 else {
        throw WriteFailure(
          reason:
            "\(file) is not a regular file and can't be removed (\(String(cString: strerror(errno)).lowercased()))"
        )
      }
    }
    do {
      try AtomicFile.write(bytes, to: file, mode: 0o600)
    } catch {
      throw WriteFailure(reason: "\(file): \(error.reason)")
    }
  }

  /// What reading a file from an offset found.
  public struct Reading: Sendable {
    /// The offset just past the last complete line (where the next read starts).
    public var end: Int
    /// Whether the file ends in a line without its newline (still being written or copied).
    public var unfinished: Bool
    /// Whether the file could not be opened.
    public var failed: String?
  }

  /// Reads the complete lines of `file` from byte `offset`, each handed to `line` with its
  /// offset (without its newline), in pieces of 64 KiB: memory stays bounded whatever the
  /// file holds. A line longer than `SyncLine.maxBytes` is handed over empty (to be refused).
  /// `line` returns false to stop (the read ends after that line).
  ///
  /// Nothing past `limit` bytes of the file is read, however it grows while it is read (a
  /// writer that never stops): the size checked when the folder was listed is kept as read.
  public static func readLines(
    _ file: String, from offset: Int, limit: Int = maxFileBytes,
    _ line: (ArraySlice<UInt8>, Int) -> Bool
  ) -> Reading {
    let fd = open(file, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
    guard fd >= 0 else {
      return Reading(
        end: offset, unfinished: false, failed: String(cString: strerror(errno)).lowercased())
    }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0, Int(info.st_size) >= offset,
      lseek(fd, off_t(offset), SEEK_SET) == off_t(offset)
    else {
      return Reading(end: offset, unfinished: false, failed: "it is shorter than was read before")
    }
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    var pending: [UInt8] = []
    var pendingStart = offset
    var tooLong = false
    var position = offset
    var end = offset
    while true {
      let room = min(buffer.count, limit - position)
      if room <= 0 {
        // at the limit: a file of exactly the limit ends here, one byte more grew past it
        var probe: UInt8 = 0
        guard read(fd, &probe, 1) > 0 else { break }
        return Reading(
          end: end, unfinished: false,
          failed:
            "it grew past \(limit / 1_048_576) MiB while being read, more than a device file may be"
        )
      }
      let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, room) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { break }
      var start = 0
      for index in 0..<count where buffer[index] == UInt8(ascii: "\n") {
        let piece = buffer[start..<index]
        let lineEnd = position + index + 1
        let go: Bool
        if tooLong || pending.count + piece.count > SyncLine.maxBytes {
          go = line([], pendingStart)
        } else if pending.isEmpty {
          go = line(piece, pendingStart)
        } else {
          pending.append(contentsOf: piece)
          go = line(pending[...], pendingStart)
        }
        pending.removeAll(keepingCapacity: true)
        tooLong = false
        end = lineEnd
        pendingStart = lineEnd
        start = index + 1
        if !go { return Reading(end: end, unfinished: false, failed: nil) }
      }
      if start < count {
        if tooLong || pending.count + (count - start) > SyncLine.maxBytes {
          tooLong = true
          pending.removeAll(keepingCapacity: true)
        } else {
          pending.append(contentsOf: buffer[start..<count])
        }
      }
      position += count
    }
    return Reading(end: end, unfinished: position > end, failed: nil)
  }
}

/// A word as a POSIX shell reads it back: in single quotes, a quote inside written '\''.
public enum ShellWord {
  public static func quoted(_ text: String) -> String {
    "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''")
      + "'"
  }
}
