import NudgeCore
import NudgeStore

/// A help note's category or words changed (`nudge edit need-help ID`), journaled for `undo`.
public struct ChangeHelpNote: Sendable {
  public let db: AppDatabase

  public init(db: AppDatabase) { self.db = db }

  public func callAsFunction(_ note: HelpNote, madeOn: Day, at: String) throws(StoreError) {
    try db.edit(note, madeOn: madeOn, at: at)
  }
}
