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

/// What the versions of one key merged so far had seen, per device: the latest clock of it any
/// of their writers had taken in, and its own latest version. A version it covers was replaced
/// by a writer that knew it: no conflict.
public struct SyncFrontier: Equatable, Sendable {
  /// Device → the latest of its clocks a writer of another device had seen.
  public var seen: [String: SyncClock] = [:]
  /// Device → its own latest version of the key.
  public var own: [String: SyncClock] = [:]

  public init(seen: [String: SyncClock] = [:], own: [String: SyncClock] = [:]) {
    self.seen = seen
    self.own = own
  }

  /// Whether a version merged here was written knowing `clock` (a later one of its own
  /// device's, or one whose writer had taken it in).
  public func covers(_ clock: SyncClock) -> Bool {
    (seen[clock.device].map { clock <= $0 } ?? false)
      || (own[clock.device].map { clock < $0 } ?? false)
  }

  mutating func add(_ version: SyncVersion) {
    for (device, clock) in version.seen where seen[device].map({ $0 < clock }) ?? true {
      seen[device] = clock
    }
    let device = version.clock.device
    if own[device].map({ $0 < version.clock }) ?? true { own[device] = version.clock }
  }
}

/// How a device merges a key's versions: the latest clock wins, on every device the same (last
/// writer wins, ordered by `SyncClock`), and merging a version twice changes nothing. A version
/// no writer knew of when it was replaced (made on another device while apart) is kept beside
/// the winner, a conflict's loser, until a later version's writer has seen it. What is kept
/// depends only on the versions merged, never on the order they arrived in.
public struct SyncKeyState: Equatable, Sendable {
  /// The latest version (nil before any).
  public var winner: SyncVersion?
  public var frontier = SyncFrontier()
  /// The versions replaced that no merged version's writer knew of (removals left out).
  public var losers: [SyncVersion] = []

  public init(
    winner: SyncVersion? = nil, frontier: SyncFrontier = SyncFrontier(), losers: [SyncVersion] = []
  ) {
    self.winner = winner
    self.frontier = frontier
    self.losers = losers
  }

  /// What merging a version did.
  public enum Merged: Equatable, Sendable {
    /// It is the new winner.
    case won
    /// It was merged before, or is older than the winner.
    case lost
  }

  /// Merges `incoming`.
  public mutating func merge(_ incoming: SyncVersion) -> Merged {
    if winner?.clock == incoming.clock || losers.contains(where: { $0.clock == incoming.clock }) {
      return .lost
    }
    frontier.add(incoming)
    let wins = winner.map { $0.clock < incoming.clock } ?? true
    let replaced = wins ? winner : incoming
    if wins { winner = incoming }
    if let replaced, replaced.value != nil { losers.append(replaced) }
    losers.removeAll { frontier.covers($0.clock) }
    losers.sort { $0.clock < $1.clock }
    return wins ? .won : .lost
  }

  /// The conflicts to show: the losers that say something other than the winner.
  public var conflicts: [SyncVersion] {
    losers.filter { $0.value != winner?.value }
  }
}
