internal import CDesktop
import FoundationEssentials
import Glibc
import Synchronization

/// Sleeps like systemd's timer loop does: until a deadline, or at once when the wall clock is
/// set (a `timerfd` with `TFD_TIMER_CANCEL_ON_SET`) or the local time-zone file is replaced
/// (inotify on its directory), or a file changes in one of the watched directories, or when
/// `stop()` is called or a stop signal arrives. Once stopped, every later `wait` returns
/// `.stopped` at once.
public final class WakeWatch: Sendable {
  /// Why `wait` returned.
  public enum Reason: Equatable, Sendable {
    case deadline, clockSet, zoneChanged, stopped
    /// A file was written, made, moved or removed in a watched directory.
    case changed
    /// The descriptor given to `wait` has something to read (a peer's call on the bus).
    case readable
    /// The descriptor given to `wait` as `hangUp` lost its other end (the bar reading a
    /// `--follow` closed its pipe).
    case hungUp
  }

  private let clockFD: Int32
  private let inotifyFD: Int32
  private let stopPipe: [Int32]
  private let zoneNames: Set<String>
  /// The watched directories (not the zone files'), by their watch descriptor.
  private let directoryWatches: [Int32: String]
  /// Drained but not yet told: a zone change, a change a caller keeps (`forgetChanges`); the
  /// next `wait` returns it at once.
  private let zonePending = Atomic<Bool>(false)
  private let changePending = Atomic<Bool>(false)

  /// Watches the wall clock and the files `zonePaths` (e.g. /etc/localtime, or the file a
  /// `TZ=:/path` names), and every file in `directories` but SQLite's shared-memory index
  /// (`-shm`, which a read maps and changes).
  public init(zonePaths: [String], directories: [String] = []) {
    clockFD = timerfd_create(CLOCK_REALTIME, Int32(TFD_CLOEXEC | TFD_NONBLOCK))
    inotifyFD = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
    var fds: [Int32] = [-1, -1]
    // non-blocking: a signal handler's write never blocks, however many signals come
    _ = pipe(&fds)
    for fd in fds where fd >= 0 {
      _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
      _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }
    stopPipe = fds
    var names: Set<String> = []
    for path in zonePaths {
      let url = URL(fileURLWithPath: path)
      names.insert(url.lastPathComponent)
      let mask = IN_CREATE | IN_DELETE | IN_MOVED_TO | IN_MOVED_FROM | IN_CLOSE_WRITE | IN_ATTRIB
      _ = inotify_add_watch(inotifyFD, url.deletingLastPathComponent().path, UInt32(mask))
    }
    zoneNames = names
    var watches: [Int32: String] = [:]
    for directory in directories {
      let mask = IN_CLOSE_WRITE | IN_MODIFY | IN_CREATE | IN_DELETE | IN_MOVED_TO | IN_MOVED_FROM
      let wd = inotify_add_watch(inotifyFD, directory, UInt32(mask))
      if wd >= 0 { watches[wd] = directory }
    }
    directoryWatches = watches
    armClock()
  }

  deinit {
    for fd in [clockFD, inotifyFD] + stopPipe where fd >= 0 { close(fd) }
  }

  /// A far-away absolute timer that the kernel cancels when the wall clock is set.
  private func armClock() {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    var spec = itimerspec()
    spec.it_value.tv_sec = now.tv_sec + 365 * 86400
    _ = timerfd_settime(clockFD, Int32(TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET), &spec, nil)
  }

  /// Blocks for up to `seconds`; returns early when the clock is set or the zone file changes,
  /// a watched directory changes, `readable` (when given) has something to read, or
  /// `hangUp`'s other end is gone (a pipe's reader closed it; a file or an invalid descriptor
  /// never says so).
  public func wait(seconds: Double, readable: Int32? = nil, hangUp: Int32? = nil) -> Reason {
    var hangUp = hangUp ?? -1
    if zonePending.exchange(false, ordering: .relaxed) { return .zoneChanged }
    if changePending.exchange(false, ordering: .relaxed) { return .changed }
    var deadline = timespec()
    clock_gettime(CLOCK_MONOTONIC, &deadline)
    let end = Double(deadline.tv_sec) + Double(deadline.tv_nsec) / 1e9 + seconds
    while true {
      var now = timespec()
      clock_gettime(CLOCK_MONOTONIC, &now)
      let left = end - (Double(now.tv_sec) + Double(now.tv_nsec) / 1e9)
      if left <= 0 { return .deadline }
      var fds = [
        pollfd(fd: clockFD, events: Int16(POLLIN), revents: 0),
        pollfd(fd: inotifyFD, events: Int16(POLLIN), revents: 0),
        pollfd(fd: stopPipe[0], events: Int16(POLLIN), revents: 0),
        pollfd(fd: readable ?? -1, events: Int16(POLLIN), revents: 0),
        // no events asked: poll reports an error or a hang-up by itself
        pollfd(fd: hangUp, events: 0, revents: 0),
      ]
      let ready = poll(&fds, nfds_t(fds.count), Int32((left * 1000).rounded(.up)))
      if ready <= 0 { continue }  // timeout (checked above) or EINTR
      if fds[2].revents != 0 {
        // the loop heard the stop: it ends by itself, the alarm is not needed
        if WakeWatch.stopAsked.load(ordering: .sequentiallyConsistent) { alarm(0) }
        return .stopped
      }
      if fds[0].revents != 0 {
        var expirations: UInt64 = 0
        _ = read(clockFD, &expirations, 8)  // ECANCELED: the clock was set
        armClock()
        return .clockSet
      }
      if fds[1].revents != 0 {
        let arrived = eventsArrived()
        if arrived.zone {
          // a replacement is often two steps (unlink, symlink): let it finish before rereading
          usleep(250_000)
          // a file changed meanwhile (or with it) is told at the next wait
          if arrived.changed || eventsArrived().changed {
            changePending.store(true, ordering: .relaxed)
          }
          return .zoneChanged
        }
        if arrived.changed { return .changed }
      }
      if fds[3].revents != 0 { return .readable }
      if fds[4].revents & Int16(POLLNVAL) != 0 {
        hangUp = -1  // not a descriptor (stdout closed before the start): nothing to hear
      } else if fds[4].revents != 0 {
        return .hungUp
      }
    }
  }

  /// Drains inotify: whether an event named one of the watched zone files, and whether one
  /// changed a file of a watched directory. A queue that overflowed lost events: it counts
  /// as both.
  private func eventsArrived(keeping kept: Set<Int32> = []) -> (
    zone: Bool, changed: Bool, kept: Bool
  ) {
    var buffer = [UInt8](repeating: 0, count: 4096)
    var found = (zone: false, changed: false, kept: false)
    while true {
      let count = read(inotifyFD, &buffer, buffer.count)
      if count <= 0 { return found }
      var offset = 0
      while offset + MemoryLayout<inotify_event>.size <= count {
        let (wd, mask, length) = buffer.withUnsafeBytes {
          (
            $0.load(fromByteOffset: offset, as: Int32.self),
            $0.load(fromByteOffset: offset + 4, as: UInt32.self),
            Int($0.load(fromByteOffset: offset + 12, as: UInt32.self))
          )
        }
        if mask & UInt32(IN_Q_OVERFLOW) != 0 {
          if !zoneNames.isEmpty { found.zone = true }
          if !directoryWatches.isEmpty { found.changed = true }
          if !kept.isEmpty { found.kept = true }
        }
        let start = offset + MemoryLayout<inotify_event>.size
        let nameBytes = buffer[start..<min(start + length, count)].prefix { $0 != 0 }
        let name = String(decoding: nameBytes, as: UTF8.self)
        if zoneNames.contains(name) { found.zone = true }
        if directoryWatches[wd] != nil && !name.hasSuffix("-shm") {
          found.changed = true
          if kept.contains(wd) { found.kept = true }
        }
        offset = start + length
      }
    }
  }

  /// Forgets the changes that arrived so far (those a caller's own reads made), but a zone
  /// change and a change in one of `kept` (a folder the caller's reads never write: another
  /// computer's files arriving), which the next `wait` returns at once.
  public func forgetChanges(keeping kept: [String] = []) {
    let keptWatches = Set(directoryWatches.filter { kept.contains($0.value) }.keys)
    let arrived = eventsArrived(keeping: keptWatches)
    if arrived.zone { zonePending.store(true, ordering: .relaxed) }
    if arrived.kept { changePending.store(true, ordering: .relaxed) }
  }

  /// Makes a blocked or later `wait` return `.stopped`.
  public func stop() {
    var byte: UInt8 = 1
    _ = write(stopPipe[1], &byte, 1)
  }

  /// From now on each of `signals` stops this watch (its handler only writes a byte to the stop
  /// pipe) instead of ending the process. For one watch a process: the last one asked gets them.
  ///
  /// A stop is answered within a second whatever the process is computing: the handler also
  /// sets an alarm of one second that `wait` cancels when it returns `.stopped`; a process
  /// still busy when it rings ends there (exit 0, as a stop between passes does; SQLite
  /// rolls back an unfinished transaction at the next open).
  /// `stopOnSignals` for the two a service is stopped with: SIGTERM (systemd) and SIGINT (Ctrl-C).
  public func stopOnTermination() { stopOnSignals([SIGTERM, SIGINT]) }

  public func stopOnSignals(_ signals: [Int32]) {
    WakeWatch.signalledPipe.store(stopPipe[1], ordering: .relaxed)
    var action = sigaction()
    action.__sigaction_handler.sa_handler = { _ in
      let saved = errno
      // the alarm first, then the byte: a wait that hears the byte always finds the alarm set
      // and cancels it (only the first stop sets it: later signals never put its end off)
      if !WakeWatch.stopAsked.exchange(true, ordering: .sequentiallyConsistent) { alarm(1) }
      var byte: UInt8 = 1
      _ = write(WakeWatch.signalledPipe.load(ordering: .relaxed), &byte, 1)
      errno = saved
    }
    sigemptyset(&action.sa_mask)
    action.sa_flags = 0  // no SA_RESTART: a blocked poll returns at once
    for signal in signals { sigaction(signal, &action, nil) }
    var late = sigaction()
    late.__sigaction_handler.sa_handler = { _ in
      let line: StaticString =
        "nudge: stopped while busy (a stop signal is answered within a second)\n"
      _ = write(2, line.utf8Start, line.utf8CodeUnitCount)
      _exit(0)
    }
    sigemptyset(&late.sa_mask)
    late.sa_flags = 0
    sigaction(SIGALRM, &late, nil)
    // a parent may have started this process with them blocked (a child of posix_spawn
    // inherits the spawning thread's mask): they would wait for ever
    var unblocked = sigset_t()
    sigemptyset(&unblocked)
    for signal in signals + [SIGALRM] { sigaddset(&unblocked, signal) }
    pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
  }

  /// Whether a stop signal arrived (its alarm is set).
  private static let stopAsked = Atomic<Bool>(false)

  /// The stop pipe's write end the signal handler writes to.
  private static let signalledPipe = Atomic<Int32>(-1)
}
