import CSQLite
import NudgeCore

extension AppDatabase {
  // MARK: - Triggers

  /// When the slot's timer last fired (epoch seconds), as systemd remembers a timer's last
  /// trigger: the base its next elapse is counted from.
  public func lastTrigger(_ slot: Slot) throws(StoreError) -> Int? {
    try read { db in
      try db.fetchOne(StateRow.self, key: "trigger.\(slot.rawValue)").flatMap { Int($0.value) }
    }
  }

  /// Records a firing of the slot's timer at `at`.
  public func recordTrigger(_ slot: Slot, at: Int) throws(StoreError) {
    try write { db in
      try db.save(StateRow(key: "trigger.\(slot.rawValue)", value: String(at)))
    }
  }

  // MARK: - Snoozes

  /// Stores a snoozed reminder: `slot` is due again at `due` (epoch seconds) for `elapse`.
  public func saveSnooze(_ snooze: Snooze) throws(StoreError) {
    try write { db in
      try db.save(
        StateRow(key: Snooze.key(snooze.slot), value: "\(snooze.due) \(snooze.elapse ?? -1)"))
    }
  }

  /// Every stored snooze, due or not.
  public func snoozes() throws(StoreError) -> [Snooze] {
    try read { db in
      try Slot.allCases.compactMap { slot in
        try db.fetchOne(StateRow.self, key: Snooze.key(slot)).flatMap {
          Snooze(slot: slot, $0.value)
        }
      }
    }
  }

  /// Takes the slot's snooze when it is due at `now`; nil when there is none or another
  /// process took it first (so a snooze is re-posted once, by whoever comes first).
  public func takeDueSnooze(_ slot: Slot, now: Int) throws(StoreError) -> Snooze? {
    try write { db in
      guard let row = try db.fetchOne(StateRow.self, key: Snooze.key(slot)),
        let snooze = Snooze(slot: slot, row.value), snooze.due <= now
      else { return nil }
      try db.delete(StateRow.self, key: Snooze.key(slot))
      return snooze
    }
  }

  // MARK: - Reminders

  /// Each slot's schedule, defaults for slots never changed.
  public func schedules() throws(StoreError) -> [SlotSchedule] {
    try read { db in
      let stored = try db.fetchAll(SlotSchedule.self)
      return Slot.allCases.map { slot in
        stored.first { $0.slot == slot } ?? .defaults(slot)
      }
    }
  }

  public func saveSchedule(_ schedule: SlotSchedule) throws(StoreError) {
    try write { db in try db.save(schedule) }
  }
}
