import Foundation
import NudgeCore
import Testing

@testable import NudgeLinux

/// The terminal's modes on a real pseudo-terminal.
@Suite(.serialized) struct TerminalDeviceTests {
  /// A pty pair: the controlling side (what a terminal emulator holds) and the terminal.
  func pty() throws -> (controller: Int32, terminal: Int32) {
    let controller = openPseudoTerminal(O_RDWR | O_NOCTTY)
    try #require(controller >= 0)
    try #require(grantpt(controller) == 0 && unlockpt(controller) == 0)
    // ptsname_r: ptsname's static buffer is shared by the suites running in parallel
    var buffer = [CChar](repeating: 0, count: 128)
    try #require(terminalName(controller, &buffer, buffer.count) == 0)
    let name = String(cString: buffer)
    let terminal = open(name, O_RDWR | O_NOCTTY)
    try #require(terminal >= 0)
    return (controller, terminal)
  }

  @Test func rawModeIsEnteredAndRestored() throws {
    let (controller, fd) = try pty()
    defer {
      close(fd)
      close(controller)
    }
    let device = TerminalDevice(input: fd, output: fd)
    #expect(device.isCooked)
    let saved = try #require(device.enterRawMode())
    #expect(!device.isCooked)
    // a key arrives at once, without Enter
    #expect(!device.hasPendingInput())
    #expect(write(controller, "x", 1) == 1)
    #expect(readable(fd))
    #expect(device.hasPendingInput())
    #expect(device.readByte() == UInt8(ascii: "x"))
    device.restore(saved)
    #expect(device.isCooked)
  }

  @Test func hiddenKeysAreShownAgainAndWhatWasTypedDropped() throws {
    let (controller, fd) = try pty()
    defer {
      close(fd)
      close(controller)
    }
    let device = TerminalDevice(input: fd, output: fd)
    let saved = try #require(device.hideTypedKeys())
    #expect(!device.isCooked)
    #expect(write(controller, "typed\n", 6) == 6)
    #expect(readable(fd))
    #expect(device.hasPendingInput())
    device.restore(saved, discardingTypedInput: true)
    #expect(device.isCooked)
    #expect(!device.hasPendingInput())
  }

  @Test func aFileIsNoTerminal() throws {
    let fd = open("/dev/null", O_RDWR)
    defer { close(fd) }
    #expect(TerminalDevice(input: fd, output: fd).enterRawMode() == nil)
    #expect(TerminalDevice(input: fd, output: fd).hideTypedKeys() == nil)
  }
}

// glibc's pty calls, hidden from Swift behind _XOPEN_SOURCE

@_silgen_name("posix_openpt") private func openPseudoTerminal(_ flags: Int32) -> Int32
@_silgen_name("grantpt") private func grantpt(_ fd: Int32) -> Int32
@_silgen_name("unlockpt") private func unlockpt(_ fd: Int32) -> Int32
@_silgen_name("ptsname_r") private func terminalName(
  _ fd: Int32, _ buffer: UnsafeMutablePointer<CChar>, _ length: Int
) -> Int32

/// Waits (up to 5 s, a bound, not a measure) until `fd` has something to read: the event, not
/// a sleep.
private func readable(_ fd: Int32) -> Bool {
  var fds = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
  return poll(&fds, 1, 5_000) > 0
}
