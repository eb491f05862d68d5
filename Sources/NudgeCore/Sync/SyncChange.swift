/// One change as it travels: its clock, its key, what the key holds after it (nil: removed, a
/// tombstone), and the latest change of each other device its writer had taken in (so a
/// device can tell a later edit from one made while apart).
public struct SyncChange: Equatable, Sendable {
  public var clock: SyncClock
  public var key: SyncKey
  public var value: SyncValue?
  public var seen: [String: SyncClock]

  public init(clock: SyncClock, key: SyncKey, value: SyncValue?, seen: [String: SyncClock] = [:]) {
    self.clock = clock
    self.key = key
    self.value = value
    self.seen = seen
  }
}

/// Why a line, a file or a value from the folder was not taken.
public struct SyncRefusal: Error, Equatable, Sendable {
  public let reason: String
  /// Whether the line is kept aside and tried again at each take-in (`ahead`, `undefinedFlow`,
  /// `notTakenByPlan`), not passed over for good.
  public let waits: Bool

  public init(_ reason: String, waits: Bool = false) {
    self.reason = reason
    self.waits = waits
  }

  /// A change dated more than an hour ahead of this clock: kept aside and taken once this
  /// clock gets there (the other computer's clock may be fast).
  public static let ahead =
    "it is dated in the future (more than an hour ahead of this clock); it is taken once this clock gets there"

  /// `ahead` as a refusal: it waits.
  public static let aheadRefusal = SyncRefusal(ahead, waits: true)

  public var isAhead: Bool { reason == Self.ahead }

  /// An entry of a flow no plan here defines: kept aside too, and taken once a plan file here
  /// defines its flow (the other computer may have the file first).
  public static func undefinedFlow(_ word: String) -> SyncRefusal {
    SyncRefusal(
      "its entry is of '\(VisibleText.escaped(word))', a flow no plan here defines; it is taken once a plan here does",
      waits: true)
  }

  /// An entry of a flow a plan here defines otherwise (the plan file differs between the
  /// computers: a question added or gone): kept aside too, taken once the plan here takes it.
  public static func notTakenByPlan(_ why: String) -> SyncRefusal {
    SyncRefusal(
      "its flow's plan here refuses it (\(why)); it is taken once the plan here takes it",
      waits: true)
  }
}

/// The first line of a device's file: whose it is, its name, and which generation of its log
/// it goes with (a snapshot covers every change of the logs before its generation).
public struct SyncHeader: Codable, Equatable, Sendable {
  /// The format's version: 1.
  public var nudgeSync: Int
  public var device: String
  public var name: String
  public var generation: Int

  public init(device: String, name: String, generation: Int) {
    self.nudgeSync = 1
    self.device = device
    self.name = name
    self.generation = generation
  }
}
