import NudgeCore

@testable import NudgeStore

extension AppDatabase {
  /// Test set-up: stores a day's entry of `Entry`'s flow, a blank one with `answers` applied
  /// (`FinishFlow` is what finishes a flow; these tests are about the file and its rows).
  func putEntry<Entry: DayRecord>(
    _ type: Entry.Type = Entry.self, day: Day, savedAt: String,
    _ answers: (inout Entry) -> Void = { _ in }
  ) throws {
    var entry = Entry.blank(day: day, savedAt: savedAt)
    answers(&entry)
    try putEntry(entry)
  }
}
