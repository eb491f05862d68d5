/// One version of a key: the change that made it, what it holds, what its writer had seen.
public struct SyncVersion: Equatable, Sendable {
  public var clock: SyncClock
  public var value: SyncValue?
  public var seen: [String: SyncClock]

  public init(clock: SyncClock, value: SyncValue?, seen: [String: SyncClock] = [:]) {
    self.clock = clock
    self.value = value
    self.seen = seen
  }

  /// Whether this version's writer had taken in `other` (its own device's earlier changes
  /// always).
  public func hasSeen(_ other: SyncVersion) -> Bool {
    other.clock.device == clock.device
      ? other.clock <= clock : (seen[other.clock.device].map { other.clock <= $0 } ?? false)
  }
}

/// How a device merges a change into what it holds: the later clock wins, on every device the
/// same (last writer wins, ordered by `SyncClock`), and merging a change twice changes
/// nothing. When the two were made on different devices while apart (the later one's writer
/// had not seen the earlier one) and say different things, the earlier is the conflict's loser:
/// kept and shown, never lost.
public enum SyncMerge {
  /// What to do with an incoming change.
  public struct Decision: Equatable, Sendable {
    /// Whether the incoming version replaces the stored one.
    public var takes: Bool
    /// The losing version of a conflict, to keep (nil when there is none).
    public var kept: SyncVersion?
  }

  public static func decide(stored: SyncVersion?, incoming: SyncVersion) -> Decision {
    guard let stored else { return Decision(takes: true, kept: nil) }
    if stored.clock == incoming.clock { return Decision(takes: false, kept: nil) }
    let (early, late) = stored.clock < incoming.clock ? (stored, incoming) : (incoming, stored)
    let conflict = !late.hasSeen(early) && early.value != nil && early.value != late.value
    return Decision(takes: late == incoming, kept: conflict ? early : nil)
  }
}
