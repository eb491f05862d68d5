internal import CDesktop
import Glibc
import NudgeCore

/// Reads from the systemd journal the moments this computer went to sleep or began to shut
/// down, and woke or finished starting up: the catalogue's message ids of systemd's sleep and
/// of the service manager's shutdown and start-up. Only what the reader may read is seen (a
/// person outside `systemd-journal` and `adm` sees their own journal); nothing on failure.
public enum JournalNights {
  /// systemd's catalogue: sleep started, sleep ended, shutdown begun, start-up finished (the
  /// system's, then a user manager's).
  static let asleepIDs = ["6bbd95ee977941e497c48be27c254128", "98268866d1d54a499c4e98921d93bc40"]
  static let awakeIDs = [
    "8811e6df2a8e40f58a94cea26f8ebf14", "b07a249cd024414a82dd00cd181378ff",
    "eed00a68ffd84e31882105fd973abdd1",
  ]

  /// The events from `since` to `until` (epoch seconds), oldest first; `directory` reads the
  /// journal files there instead of the system's and the user's (tests).
  public static func events(since: Int, until: Int, directory: String? = nil) -> [(
    at: Int, event: LastNight.Event
  )] {
    guard nd_load(ND_SYSTEMD) == nil else { return [] }
    var journal: OpaquePointer? = nil
    let opened =
      directory.map { nd_sd_journal_open_directory(&journal, $0, 0) }
      ?? nd_sd_journal_open(&journal, 0)
    guard opened >= 0, let journal else { return [] }
    defer { nd_sd_journal_close(journal) }
    for (index, id) in (asleepIDs + awakeIDs).enumerated() {
      if index > 0 { _ = nd_sd_journal_add_disjunction(journal) }
      let match = "MESSAGE_ID=" + id
      _ = match.withCString { nd_sd_journal_add_match(journal, $0, strlen($0)) }
    }
    guard nd_sd_journal_seek_realtime_usec(journal, UInt64(max(0, since)) * 1_000_000) >= 0
    else { return [] }
    var found: [(at: Int, event: LastNight.Event)] = []
    // a night holds a handful of them; a journal flooded with them is read no further
    while found.count < 1000, nd_sd_journal_next(journal) > 0 {
      var usec: UInt64 = 0
      guard nd_sd_journal_get_realtime_usec(journal, &usec) >= 0 else { continue }
      let at = Int(usec / 1_000_000)
      if at > until { break }
      var data: UnsafeRawPointer? = nil
      var length = 0
      guard nd_sd_journal_get_data(journal, "MESSAGE_ID", &data, &length) >= 0, let data else {
        continue
      }
      let field = String(
        decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
      let id = String(field.dropFirst("MESSAGE_ID=".count))
      if asleepIDs.contains(id) {
        found.append((at, .asleep))
      } else if awakeIDs.contains(id) {
        found.append((at, .awake))
      }
    }
    return found
  }
}
