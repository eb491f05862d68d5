import Glibc
import NudgeCore

/// The files a command reads and writes (unit files, the handler, zone files, an export),
/// reached through the platform: the CLI never calls the file system itself.
public protocol FileSystem: Sendable {
  /// Whether something is at `path` (following links).
  func exists(_ path: String) -> Bool
  /// The bytes of the regular file at `path`, at most `limit`; nil when it cannot be read.
  func contents(_ path: String, limit: Int) -> [UInt8]?
  /// Makes `path` and its missing parents (mode 0755 before the umask).
  func createDirectory(_ path: String) throws(AtomicFile.Failure)
  /// Replaces the regular file at `path` whole (see `AtomicFile.write`).
  func writeAtomically(_ bytes: [UInt8], to path: String, mode: mode_t) throws(AtomicFile.Failure)
  /// Removes the file or empty directory at `path`; false when nothing was removed.
  @discardableResult func remove(_ path: String) -> Bool
  /// The path the link at `path` points to, nil when it is not a link.
  func linkTarget(_ path: String) -> String?
  /// The names in the directory at `path` (not "." and ".."), sorted, at most `limit`; nil
  /// when it cannot be read.
  func names(in path: String, limit: Int) -> [String]?
  /// Whether `a` and `b` name the same file (its device and inode), however they are spelt.
  func isSameFile(_ a: String, _ b: String) -> Bool
  /// The bytes of the regular file at `path`, at most `limit`, or why not.
  func read(_ path: String, limit: Int) -> Result<[UInt8], StandardStreams.FileReadFailure>
  /// Why what is at `path` (a file or a folder, links followed) is not the person's alone to
  /// change — another user owns it, or others may write to it — nil when it is (root's is
  /// theirs too: root can change anything anyway), or when nothing is there.
  func othersMayChange(_ path: String) -> String?
  /// The absolute path `path` names, links and `..` resolved; nil when nothing is there.
  func resolvedPath(_ path: String) -> String?
  /// Whether `path` (links followed) is a directory.
  func isDirectory(_ path: String) -> Bool
  /// Whether this process may read what is at `path`.
  func isReadable(_ path: String) -> Bool
}

extension FileSystem {
  public func read(_ path: String, limit: Int) -> Result<[UInt8], StandardStreams.FileReadFailure> {
    contents(path, limit: limit).map { .success($0) } ?? .failure(.cannotOpen("cannot be read"))
  }

  public func othersMayChange(_ path: String) -> String? { nil }

  public func resolvedPath(_ path: String) -> String? { exists(path) ? path : nil }

  public func isDirectory(_ path: String) -> Bool { names(in: path, limit: 0) != nil }

  public func isReadable(_ path: String) -> Bool { exists(path) }

  /// The text of a small file (a config file, a unit), nil when it cannot be read.
  public func text(_ path: String, limit: Int = 1 << 20) -> String? {
    contents(path, limit: limit).map { String(decoding: $0, as: UTF8.self) }
  }
}

/// The machine's own file system, through the C library.
public struct LocalFileSystem: FileSystem {
  public init() {}

  public func resolvedPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  public func isDirectory(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
  }

  public func isReadable(_ path: String) -> Bool { access(path, R_OK) == 0 }

  public func read(_ path: String, limit: Int) -> Result<[UInt8], StandardStreams.FileReadFailure> {
    StandardStreams.readFile(path, limit: limit)
  }

  public func othersMayChange(_ path: String) -> String? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    if info.st_uid != geteuid() && info.st_uid != 0 {
      return "it belongs to another user, uid \(info.st_uid)"
    }
    // a group write bit is the person's alone when the group is their own private group (a
    // umask of 002 on systems that give each user a group of their name, no one else in it)
    let groupWrites = info.st_mode & S_IWGRP != 0 && !Self.isPrivateGroup(info.st_gid)
    if info.st_mode & S_IWOTH != 0 || groupWrites {
      return "others may write to it, mode \(String(info.st_mode & 0o7777, radix: 8))"
    }
    return nil
  }

  /// Whether `gid` is this user's private group: their own group, of their name, with no
  /// other member listed.
  static func isPrivateGroup(_ gid: gid_t) -> Bool {
    guard gid == getegid(), let user = getpwuid(geteuid()), let group = getgrgid(gid),
      let userName = user.pointee.pw_name, let groupName = group.pointee.gr_name,
      strcmp(userName, groupName) == 0
    else { return false }
    guard let members = group.pointee.gr_mem else { return true }
    return members.pointee == nil
  }

  public func exists(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0
  }

  public func contents(_ path: String, limit: Int) -> [UInt8]? {
    guard case .success(let bytes) = StandardStreams.readFile(path, limit: limit) else {
      return nil
    }
    return bytes
  }

  public func createDirectory(_ path: String) throws(AtomicFile.Failure) {
    if exists(path) { return }
    let parent = parentDirectory(of: path)
    if parent != path { try createDirectory(parent) }
    if mkdir(path, 0o755) != 0 && errno != EEXIST {
      throw AtomicFile.Failure(reason: String(cString: strerror(errno)))
    }
  }

  public func writeAtomically(_ bytes: [UInt8], to path: String, mode: mode_t)
    throws(AtomicFile.Failure)
  {
    try AtomicFile.write(bytes, to: path, mode: mode)
  }

  @discardableResult public func remove(_ path: String) -> Bool {
    unlink(path) == 0 || rmdir(path) == 0
  }

  public func linkTarget(_ path: String) -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink(path, &buffer, buffer.count - 1)
    guard count > 0 else { return nil }
    return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  public func isSameFile(_ a: String, _ b: String) -> Bool {
    var first = stat()
    var second = stat()
    guard stat(a, &first) == 0, stat(b, &second) == 0 else { return false }
    return first.st_dev == second.st_dev && first.st_ino == second.st_ino
  }

  public func names(in path: String, limit: Int) -> [String]? {
    guard let directory = opendir(path) else { return nil }
    defer { closedir(directory) }
    var names: [String] = []
    while names.count < limit, let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name != "." && name != ".." { names.append(name) }
    }
    return names.sorted()
  }
}
