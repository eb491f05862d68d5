import NudgeCore

/// The reads and writes a transaction composes (`fire` calls several in one), on the
/// connection the transaction holds; the `AppDatabase` methods of the same names wrap each in a
/// transaction of its own.
extension SQLiteConnection {
  /// The flows finished on `day`.
  func doneFlows(on day: Day) throws -> Set<Flow> {
    Set(try Flow.allCases.filter { try AppDatabase.isDone(self, $0, on: day) })
  }

  /// Whether `day` is a day off (`nudge pause`).
  func isPaused(_ day: Day) throws -> Bool {
    try integer(
      "SELECT EXISTS (SELECT 1 FROM pause WHERE first_day <= ?1 AND last_day >= ?1)",
      [SQLValue(day)]) == 1
  }

  /// What streaks are decided from: the days a flow was done and the days off.
  func streakDays() throws -> (done: Set<Day>, paused: Set<Day>) {
    let done = try texts(
      """
      SELECT day FROM prep UNION SELECT day FROM review
      UNION SELECT day FROM checkin UNION SELECT day FROM help_note
      """
    ).compactMap { Day($0) }
    let paused = try fetchAll(Pause.self).flatMap { $0.days(through: $0.lastDay) }
    return (Set(done), Set(paused))
  }

  /// The slot's schedule, its default when never changed.
  func schedule(_ slot: Slot) throws -> SlotSchedule {
    try fetchOne(SlotSchedule.self, key: slot.rawValue) ?? .defaults(slot)
  }

  /// When the slot's timer last fired (epoch seconds).
  func lastTrigger(_ slot: Slot) throws -> Int? {
    try fetchOne(StateRow.self, key: "trigger.\(slot.rawValue)").flatMap { Int($0.value) }
  }

  /// Records a firing of the slot's timer at `at`.
  func recordTrigger(_ slot: Slot, at: Int) throws {
    try save(StateRow(key: "trigger.\(slot.rawValue)", value: String(at)))
  }

  /// Takes the slot's snooze when it is due at `now`; nil when there is none or it is not due.
  func takeDueSnooze(_ slot: Slot, now: Int) throws -> Snooze? {
    guard let row = try fetchOne(StateRow.self, key: Snooze.key(slot)),
      let snooze = Snooze(slot: slot, row.value), snooze.due <= now
    else { return nil }
    try delete(StateRow.self, key: Snooze.key(slot))
    return snooze
  }
}
