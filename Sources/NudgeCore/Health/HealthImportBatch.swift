/// What one import of one file hands the health store: the file it came from (so that the
/// same file again writes nothing), the nights, days and workouts it holds, and what it
/// skipped and why.
public struct HealthImportBatch: Sendable {
  /// Which kind of export, so that an Apple Health export's nights and a Gadgetbridge
  /// database's never overwrite each other: `apple-health`, `gadgetbridge`.
  public var origin: String
  public var file: HealthFileIdentity
  public var nights: [HealthDigest.Night]
  public var days: [HealthDigest.ActivityDay]
  public var workouts: [HealthWorkout]
  public var skipped: [String: Int]
  /// Read from a file cut short (`--partial`): it adds what the store lacks and changes
  /// nothing it holds (a cut export's days are incomplete).
  public var partial = false

  public init(
    origin: String, file: HealthFileIdentity, nights: [HealthDigest.Night],
    days: [HealthDigest.ActivityDay], workouts: [HealthWorkout], skipped: [String: Int]
  ) {
    self.origin = origin
    self.file = file
    self.nights = nights
    self.days = days
    self.workouts = workouts
    self.skipped = skipped
  }

  /// The first and last day it holds (nights, days or workouts); nil when it holds none.
  public var span: ClosedRange<Day>? {
    let all =
      nights.map(\.night.day) + days.map(\.day)
      + workouts.map { Day(ordinal: floorDiv($0.start.seconds + $0.offset, 86400)) }
    guard let first = all.min(), let last = all.max() else { return nil }
    return first...last
  }
}

/// A file as an import last saw it: its path, size and modification time.
public struct HealthFileIdentity: Equatable, Sendable {
  public var path: String
  public var size: Int
  /// Nanoseconds since 1970.
  public var modified: Int

  public init(path: String, size: Int, modified: Int) {
    self.path = path
    self.size = size
    self.modified = modified
  }
}
