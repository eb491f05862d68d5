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

  /// Everything standard input holds until its end.
  public static func readAllInput() -> [UInt8] {
    var data: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      let got = read(STDIN_FILENO, &chunk, chunk.count)
      if got < 0 && errno == EINTR { continue }
      if got <= 0 { return data }
      data.append(contentsOf: chunk[0..<got])
    }
  }

  /// The width of the terminal on stdout in columns, nil when stdout is not a terminal.
  public static func terminalColumns(of descriptor: Int32 = STDOUT_FILENO) -> Int? {
    var size = winsize()
    guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
    return Int(size.ws_col)
  }
}
