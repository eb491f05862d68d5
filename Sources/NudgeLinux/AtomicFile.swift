import Glibc
import NudgeCore

/// Whole-file writes a reader sees entirely or not at all: the bytes go to a new file beside
/// the target, are synced, and the new file is renamed over the target.
public enum AtomicFile {
  /// Why a write failed (`strerror`'s text); the target was left as it was.
  public struct Failure: Error {
    public let reason: String
  }

  /// Writes `bytes` to `path` with permissions `mode` (before the umask). Only a regular file
  /// is ever replaced: a device node, a FIFO, a socket or a directory at `path` (or at the end
  /// of the link `path` is) is refused and left alone; a link to a regular file has its target
  /// replaced, the link kept.
  public static func write(_ bytes: [UInt8], to requested: String, mode: mode_t) throws(Failure) {
    var path = requested
    var info = stat()
    if lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK {
      guard let resolved = realpath(path, nil) else {
        throw Failure(reason: "it is a link to \(String(cString: strerror(errno)).lowercased())")
      }
      path = String(cString: resolved)
      free(resolved)
    }
    if stat(path, &info) == 0 && info.st_mode & S_IFMT != S_IFREG {
      throw Failure(reason: "it is \(kind(info.st_mode)), not a regular file, and is left as it is")
    }
    let directory = parentDirectory(of: path)
    let name = path.split(separator: "/").last.map(String.init) ?? path
    let temp = directory + "/." + name + ".tmp-\(getpid())"
    let fd = open(temp, O_CREAT | O_EXCL | O_NOFOLLOW | O_WRONLY | O_CLOEXEC, mode)
    guard fd >= 0 else { throw Failure(reason: String(cString: strerror(errno))) }
    var written = StandardStreams.write(bytes, to: fd) && fsync(fd) == 0
    let reason = errno
    written = close(fd) == 0 && written
    if !written { errno = reason }
    guard written, rename(temp, path) == 0 else {
      let failure = Failure(reason: String(cString: strerror(errno)))
      unlink(temp)
      throw failure
    }
  }

  /// What a file that is not a regular one is, in words.
  static func kind(_ mode: mode_t) -> String {
    switch mode & S_IFMT {
    case S_IFDIR: "a directory"
    case S_IFCHR: "a character device"
    case S_IFBLK: "a block device"
    case S_IFIFO: "a FIFO"
    case S_IFSOCK: "a socket"
    default: "not a regular file"
    }
  }
}
