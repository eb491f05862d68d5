import NudgeCore
import NudgeStore

/// The built-in slots' reminder times changed (`nudge schedule set|on|off`), all in one write;
/// returns every stored schedule after.
public struct ChangeSchedule: Sendable {
  public let db: AppDatabase

  public init(db: AppDatabase) { self.db = db }

  public func callAsFunction(_ slots: [ReminderSource], _ edit: (inout SlotSchedule) -> Void)
    throws(StoreError) -> [SlotSchedule]
  {
    try db.inTransaction {
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
