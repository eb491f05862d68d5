/// A hybrid logical clock reading: the wall time in milliseconds, then a counter that orders
/// changes made within one millisecond (or while the wall clock stood behind one already
/// seen), then the device's id for a tie. Every device orders every change the same way, so
/// every device reaches the same state whatever order the files arrive in.
public struct SyncClock: Comparable, Hashable, Sendable, CustomStringConvertible {
  /// Milliseconds since 1970 (UTC).
  public var wall: Int
  public var counter: Int
  /// The id of the device that made the change (`SyncDevice.isID`).
  public var device: String

  public init(wall: Int, counter: Int, device: String) {
    self.wall = wall
    self.counter = counter
    self.device = device
  }

  /// The largest counter a text can hold: a device that gets there moves its wall on a
  /// millisecond instead.
  public static let maxCounter = 99_999

  /// `WWWWWWWWWWWWW-CCCCC-DEVICE`: fixed widths, so the texts sort as the clocks do.
  public var description: String {
    let wallText = String(wall)
    let counterText = String(counter)
    return String(repeating: "0", count: max(0, 13 - wallText.count)) + wallText + "-"
      + String(repeating: "0", count: max(0, 5 - counterText.count)) + counterText + "-" + device
  }

  /// Reads what `description` wrote; nil for anything else.
  public init?(_ text: String) {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].utf8.count == 13, parts[1].utf8.count == 5,
      parts[0].utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
      parts[1].utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
      let wall = Int(parts[0]), let counter = Int(parts[1]), SyncDevice.isID(String(parts[2]))
    else { return nil }
    self.init(wall: wall, counter: counter, device: String(parts[2]))
  }

  public static func < (a: SyncClock, b: SyncClock) -> Bool {
    (a.wall, a.counter, a.device) < (b.wall, b.counter, b.device)
  }

  /// The reading for a change made now on `device`, after `last` (the latest reading this
  /// device made or took in): the wall clock when it is ahead, else `last`'s wall with the
  /// next counter — never behind anything already seen, even when the clock was set back.
  public static func tick(after last: (wall: Int, counter: Int)?, now: Int, device: String)
    -> SyncClock
  {
    guard let last, last.wall >= now else {
      return SyncClock(wall: now, counter: 0, device: device)
    }
    if last.counter >= maxCounter {
      return SyncClock(wall: last.wall + 1, counter: 0, device: device)
    }
    return SyncClock(wall: last.wall, counter: last.counter + 1, device: device)
  }

  /// Milliseconds since 1970 of `instant`.
  public static func milliseconds(_ instant: Instant) -> Int {
    floorDiv(instant.microseconds, 1000)
  }

  /// How far ahead of this device's clock a change may be and still be taken (another device's
  /// clock may run a little fast): one hour. Later ones are refused as from the future.
  public static let allowedAheadMilliseconds = 3_600_000
  /// 2000-01-01T00:00:00Z: a change before it is refused (no Nudge wrote it).
  public static let earliestWall = 946_684_800_000
}

/// This device as sync knows it, and what a device's id looks like.
public enum SyncDevice {
  /// 16 lowercase hexadecimal digits (a random 64-bit number).
  public static func isID(_ text: String) -> Bool {
    text.utf8.count == 16
      && text.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) }
  }

  /// A new random id.
  public static func newID() -> String {
    let n = UInt64.random(in: 0...UInt64.max)
    let hex = String(n, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
  }

  /// Whether a device's name can be kept and shown: 1 to 64 characters with no control or
  /// hostile character, no surrounding spaces.
  public static func isName(_ text: String) -> Bool {
    !text.isEmpty && text.count <= 64 && text.first?.isWhitespace == false
      && text.last?.isWhitespace == false
      && !text.unicodeScalars.contains {
        $0.properties.generalCategory == .control || VisibleText.isHostile($0)
      }
  }
}
