import NudgeStore

/// The habits a sync exchange knows here by their travelling ids: this database's (read once,
/// when a habit's day first arrives) and those that arrived in the exchange.
final class KnownHabits {
  private var uids: Set<String>?
  private var arrivedHere: Set<String> = []
  /// Whether a habit's day waited aside for its habit in this exchange.
  var daysWaited = false

  func arrived(_ uid: String) { arrivedHere.insert(uid) }

  /// Habits new here that arrived in the exchange.
  var added = 0
  private var kept: Int?

  /// How many habits there are here (not removed), with those new here that arrived.
  func count(_ db: AppDatabase) -> Int {
    if kept == nil { kept = (try? db.habits(includingArchived: true).count) ?? 0 }
    return (kept ?? 0) + added
  }

  func knows(_ uid: String, _ db: AppDatabase) -> Bool {
    if arrivedHere.contains(uid) { return true }
    if uids == nil { uids = (try? db.habitUIDs()) ?? [] }
    return uids?.contains(uid) == true
  }
}
