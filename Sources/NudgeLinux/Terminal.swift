import Glibc

/// A terminal Nudge reads keys from and draws on (standard input and output in a live run, a
/// pty in a test): its modes, one byte at a time, and whole writes.
public struct TerminalDevice: Sendable {
  public let input: Int32
  public let output: Int32

  public init(input: Int32, output: Int32) {
    self.input = input
    self.output = output
  }

  /// Turns off line buffering, echo, Ctrl-C's signal and flow control, so every key arrives
  /// as it is pressed; the modes to restore, nil when the input is not a terminal.
  public func enterRawMode() -> TerminalModes? {
    var saved = termios()
    guard tcgetattr(input, &saved) == 0 else { return nil }
    var raw = saved
    raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG | IEXTEN)
    raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
    withUnsafeMutablePointer(to: &raw.c_cc) {
      $0.withMemoryRebound(to: cc_t.self, capacity: Int(NCCS)) { cc in
        cc[Int(VMIN)] = 1
        cc[Int(VTIME)] = 0
      }
    }
    tcsetattr(input, TCSADRAIN, &raw)
    return TerminalModes(settings: saved)
  }

  /// Stops echoing typed keys (an Enter typed during an animation would move its frame); the
  /// modes to restore, nil when the input is not a terminal.
  public func hideTypedKeys() -> TerminalModes? {
    var settings = termios()
    guard isatty(input) == 1, tcgetattr(input, &settings) == 0 else { return nil }
    let saved = settings
    settings.c_lflag &= ~tcflag_t(ECHO)
    tcsetattr(input, TCSANOW, &settings)
    return TerminalModes(settings: saved)
  }

  /// Puts back `modes`, once what is being written has been sent; `discardingTypedInput` drops
  /// what was typed meanwhile (so it is not read as the next answer).
  public func restore(_ modes: TerminalModes, discardingTypedInput: Bool = false) {
    var settings = modes.settings
    tcsetattr(input, discardingTypedInput ? TCSAFLUSH : TCSADRAIN, &settings)
  }

  /// True when the input echoes typed keys and buffers whole lines (its cooked mode).
  public var isCooked: Bool {
    var settings = termios()
    guard tcgetattr(input, &settings) == 0 else { return false }
    return settings.c_lflag & tcflag_t(ICANON) != 0 && settings.c_lflag & tcflag_t(ECHO) != 0
  }

  /// True when input is already waiting (a paste arrives at once; a person's next key later).
  public func hasPendingInput() -> Bool {
    var fds = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
    return poll(&fds, 1, 0) > 0 && fds.revents & Int16(POLLIN) != 0
  }

  /// The next byte, nil when the input ended or failed.
  public func readByte() -> UInt8? {
    var byte: UInt8 = 0
    while true {
      let n = Glibc.read(input, &byte, 1)
      if n == 1 { return byte }
      if n < 0 && errno == EINTR { continue }
      return nil
    }
  }

  /// Writes all of `text` (nothing more once a write fails).
  public func write(_ text: String) { StandardStreams.write(text, to: output) }
}

/// A terminal's modes, saved to be restored.
public struct TerminalModes: @unchecked Sendable {
  let settings: termios
}
