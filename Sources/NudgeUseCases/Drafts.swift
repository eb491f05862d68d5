import NudgeCore
import NudgeStore

/// A flow's answers so far, kept while it is asked (so a closed terminal loses nothing), and
/// removed when the flow is finished or given up.
public struct Drafts: Sendable {
  public let db: AppDatabase

  public init(db: AppDatabase) { self.db = db }

  /// Keeps `draft`, saved at `at`.
  public func save(_ draft: FlowDraft, at: String) throws(StoreError) {
    try db.saveDraft(draft, at: at)
  }

  /// Removes the draft of `flow` on `day`, if there is one.
  public func remove(_ flow: Flow, on day: Day) throws(StoreError) {
    try db.removeDraft(flow, on: day)
  }
}
