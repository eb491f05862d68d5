import NudgeCore
import NudgeStore

/// The built-in slots' reminder times changed (`nudge schedule set|on|off`), all in one write,
/// journaled as one change for `undo`; returns every stored schedule after.
public struct ChangeSchedule: Sendable {
  public let db: AppDatabase

  public init(db: AppDatabase) { self.db = db }

  public func callAsFunction(
    _ slots: [ReminderSource], madeOn: Day, at: String, _ edit: (inout SlotSchedule) -> Void
  ) throws(StoreError) -> [SlotSchedule] {
    try db.journaling(
      .schedule, madeOn: madeOn, at: at, keys: .these(slots.map { .data(.slot($0)) })
    ) { () throws(StoreError) in
      var all = try db.schedules()
      for slot in slots {
        guard let index = all.firstIndex(where: { $0.slot == slot }) else { continue }
        edit(&all[index])
        try db.saveSchedule(all[index])
      }
      return all
    }
  }
}
