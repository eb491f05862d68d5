import Glibc
import NudgeCore

/// Whole-file writes a reader sees entirely or not at all: the bytes go to a new file beside
/// the target, are synced, and the new file is renamed over the target.
public enum AtomicFile {
  /// Why a write failed (`strerror`'s text); the target was left as it was.
  public struct Failure: Error {
    public let reason: String
  }

  /// Writes `bytes` to `path` with permissions `mode` (before the umask).
  public static func write(_ bytes: [UInt8], to path: String, mode: mode_t) throws(Failure) {
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
}
