import Glibc

/// Whole writes to and reads from the standard streams, with plain `write(2)`/`read(2)`.
public enum StandardStreams {
  /// Writes all of `text` to `fd` (standard output or error, or a file), across short writes
  /// and interrupted calls; false when a write failed (`errno` says why). A closed pipe ends the
  /// process with SIGPIPE, as it does for any command-line tool.
  @discardableResult
  public static func write(_ text: String, to fd: Int32) -> Bool {
    var text = text
    return text.withUTF8 { write($0, to: fd) }
  }

  /// The same for bytes.
  @discardableResult
  public static func write(_ bytes: [UInt8], to fd: Int32) -> Bool {
    bytes.withUnsafeBufferPointer { write($0, to: fd) }
  }

  private static func write(_ bytes: UnsafeBufferPointer<UInt8>, to fd: Int32) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let written = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
      if written < 0 && errno == EINTR { continue }
      if written <= 0 { return false }
      offset += written
    }
    return true
  }

  /// Everything standard input holds until its end; nil as soon as it holds more than
  /// `limit` bytes (a stream that never ends is not read to its end).
  public static func readAllInput(limit: Int) -> [UInt8]? {
    readAll(from: STDIN_FILENO, limit: limit)
  }

  /// Everything `fd` holds until its end, nil past `limit` bytes or on a read error. Each read
  /// goes into memory nobody has written yet (not a zero-filled buffer): a page is touched only
  /// when bytes arrive in it. `expected`: the size to read in one go (a file's, from fstat).
  static func readAll(from fd: Int32, limit: Int, expected: Int = 65536) -> [UInt8]? {
    var data: [UInt8] = []
    // one byte past what is expected: the read that returns it, or 0, finds the end; a file
    // that says it is empty (/proc) or grows is read on in 64 KiB reads
    var size = expected > 0 ? min(expected, limit, 1 << 24) + 1 : 65536
    while true {
      var got = 0
      let chunk = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
        repeat { got = read(fd, buffer.baseAddress, size) } while got < 0 && errno == EINTR
        count = max(got, 0)
      }
      if got < 0 { return nil }
      if got == 0 { return data }
      guard data.count + got <= limit else { return nil }
      if data.isEmpty { data = chunk } else { data.append(contentsOf: chunk) }
      size = max(size, 65536)
    }
  }

  /// One line of standard input without its newline, nil at its end; a line longer than
  /// `maxBytes` comes back cut there (the rest is left unread), so a line without end costs
  /// bounded memory and time.
  public static func readInputLine(maxBytes: Int) -> String? {
    var bytes: [UInt8] = []
    var byte: UInt8 = 0
    while bytes.count < maxBytes {
      let got = read(STDIN_FILENO, &byte, 1)
      if got < 0 && errno == EINTR { continue }
      if got <= 0 { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
      if byte == 0x0A { break }
      bytes.append(byte)
    }
    if bytes.last == 0x0D { bytes.removeLast() }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Why a file could not be read whole.
  public enum FileReadFailure: Error, Equatable {
    case cannotOpen(String)
    case notRegular(String)
    case tooLarge
  }

  /// The bytes of the regular file at `path` (following links), at most `limit`. A FIFO, a
  /// device or a directory is refused at once, without waiting on it.
  public static func readFile(_ path: String, limit: Int) -> Result<[UInt8], FileReadFailure> {
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else { return .failure(.cannotOpen(String(cString: strerror(errno)))) }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      return .failure(.cannotOpen(String(cString: strerror(errno))))
    }
    guard info.st_mode & S_IFMT == S_IFREG else {
      return .failure(.notRegular(AtomicFile.kind(info.st_mode)))
    }
    guard Int(info.st_size) <= limit,
      let bytes = readAll(from: fd, limit: limit, expected: Int(info.st_size))
    else {
      return .failure(.tooLarge)
    }
    return .success(bytes)
  }

  /// The width of the terminal on stdout in columns, nil when stdout is not a terminal.
  public static func terminalColumns(of descriptor: Int32 = STDOUT_FILENO) -> Int? {
    var size = winsize()
    guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
    return Int(size.ws_col)
  }
}
